// Browser tests of issue 37's Xiangqi and Jifen items: Chinese notation by
// default in 中文 (item 1), a draw claim shown only when it holds, with its
// reason, and fouls explained (item 6), Jifen moves in one click with a
// legend and score badges (item 9), check and time warnings and the mated
// general's ring (item 11), and the record's export: notation, date, a link
// back, the FEN of any position with a copy button (item 14).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base, newPage, createGame, move, waitMoves, yourMove } from './harness.mjs';

/** A game against the AI from `fen` (the page's user is red), opened on its page. */
async function gameFrom(page, body) {
  const r = await page.request.post(base + '/api/games', { data: { game: 'xiangqi', opponent: 'ai:1', rated: false, clock: { initial_s: 300, increment_s: 0 }, ...body } });
  assert.equal(r.status(), 201, await r.text());
  const id = (await r.json()).id;
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('[data-testid="board"] [data-piece]');
  return id;
}

const movesText = (page) => page.locator('[data-testid="moves"]').textContent();

test('item 1: 中文 reads 炮二平五 by default, English keeps ICCS, and the setting switches; the analysis speaks the same notation', async () => {
  const zh = await newPage('zh-CN');
  const id = await createGame(zh, { opponent: 'ai:1' });
  assert.equal(await zh.locator('[data-testid="notation"]').inputValue(), 'chinese');
  // The board's numbers read as a Chinese board prints them: red's 一…九 from its right.
  await zh.waitForSelector('[data-testid="coords"][data-style="chinese"]');
  assert.equal(await zh.locator('[data-coord="red-1"]').textContent(), '一');
  assert.equal(await zh.locator('[data-coord="black-1"]').textContent(), '1');
  await move(zh, 'h2', 'e2');
  await waitMoves(zh, 2);
  assert.match(await movesText(zh), /^1\.炮二平五/);
  assert.match(await movesText(zh), /[马炮车卒象士将][１-９][进退平][１-９]/, 'black in full-width digits');
  // The export follows the chosen notation.
  const href = await zh.locator('[data-testid="pgn"]').getAttribute('href');
  assert.equal(href, `/api/games/${id}/pgn?notation=chinese`);
  assert.match(await zh.locator('[data-testid="pgn"]').textContent(), /中文/);
  // WXF and back to ICCS on request.
  await zh.selectOption('[data-testid="notation"]', 'wxf');
  assert.match(await movesText(zh), /C2\.5/);
  await zh.selectOption('[data-testid="notation"]', 'iccs');
  assert.match(await movesText(zh), /h2e2/);
  await zh.selectOption('[data-testid="notation"]', 'chinese');
  // The analysis after the game: its moves and best lines in Chinese too.
  await zh.click('[data-testid="resign"]');
  await zh.waitForSelector('[data-testid="result-panel"]');
  await zh.click('[data-testid="analyse"]');
  await zh.waitForSelector('[data-testid="analysis"]', { timeout: 60000 });
  const table = await zh.locator('[data-testid="analysis-moves"]').textContent();
  assert.match(table, /炮二平五/);
  assert.match(await zh.locator('[data-testid="best-line"]').first().textContent(), /最佳 [帅仕相马车炮兵][一二三四五六七八九][进退平][一二三四五六七八九]/);
  assert.doesNotMatch(table, /最佳 [a-i]\d[a-i]\d/);
  await zh.context().close();

  const en = await newPage();
  await createGame(en, { opponent: 'ai:1' });
  assert.equal(await en.locator('[data-testid="notation"]').inputValue(), 'iccs');
  await move(en, 'h2', 'e2');
  await waitMoves(en, 2);
  assert.match(await movesText(en), /^1\.h2e2/);
  await en.context().close();
});

test('item 6: no claim at the start; at 120 quiet plies the claim appears with its reason and ends the game; a declined offer explains fouls', async () => {
  const page = await newPage();
  // An ordinary game: nothing to claim.
  await createGame(page, { opponent: 'ai:1' });
  await yourMove(page);
  assert.equal(await page.locator('[data-testid="claim"]').count(), 0);
  // 119 plies without a capture: one more quiet move makes the claim true.
  await gameFrom(page, { fen: '4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80' });
  await yourMove(page);
  assert.equal(await page.locator('[data-testid="claim"]').count(), 0, 'not yet at 119');
  await move(page, 'a1', 'a2');
  await page.waitForSelector('[data-testid="claim"]');
  assert.match(await page.locator('[data-testid="claim-why"]').textContent(), /Sixty moves each without a capture/);
  await page.click('[data-testid="claim"]');
  await page.waitForSelector('[data-testid="result-panel"]');
  assert.equal(await page.locator('[data-testid="error"]').textContent(), '');
  // The AI, better, declines a draw offer: the notice says what a repeated offer would be.
  await gameFrom(page, { fen: '4k4/9/9/9/r8/9/9/9/9/3K5 w - - 0 1' });
  await yourMove(page);
  await page.click('[data-testid="offer-draw"]');
  await page.waitForSelector('[data-testid="draw-declined"]');
  assert.match(await page.locator('[data-testid="foul-about"]').textContent(), /technical foul/);
  await page.context().close();
});

test('item 9: a Jifen move takes one click; the chooser on Shift or the box; the classes, marks and score explained; a score badge only where it changed', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  // The legend: this rule set's classes and what they score.
  await page.click('[data-testid="class-legend"] summary');
  const legend = await page.locator('[data-testid="class-legend"]').textContent();
  assert.match(legend, /Normal.*captures as in Xiangqi/s);
  assert.match(legend, /Idle.*captures nothing/s);
  assert.deepEqual(await page.locator('[data-testid="class-legend"] li').evaluateAll((l) => l.map((x) => x.dataset.class)), ['normal', 'idle'], 'simple rules: Normal and Idle only');
  assert.doesNotMatch(legend, /Royal|Small/);
  assert.match(await page.locator('[data-testid="class-marks"]').textContent(), /= Normal .*\* Idle \(闲 in Chinese notation\)/);
  assert.match(await page.locator('[data-testid="class-scoring"]').textContent(), /Idle piece gives you 1 point/);
  // One click: the class is kept, no chooser.
  await move(page, 'h2', 'e2');
  await waitMoves(page, 1);
  assert.equal(await page.locator('[data-testid="class-chooser"]').count(), 0);
  await waitMoves(page, 2);
  await yourMove(page);
  // The legend stays open across the redraws.
  assert.equal(await page.locator('[data-testid="class-legend"]').getAttribute('open'), '');
  assert.doesNotMatch(await movesText(page), /\(0:0\)/);
  assert.equal(await page.locator('[data-testid="score-change"]').count(), 0, 'no score changed yet');
  // Shift on the target opens the chooser, which says what each class means.
  await page.click('[data-sq="b2"]');
  await page.waitForSelector('[data-target="d2"]');
  await page.click('[data-sq="d2"]', { modifiers: ['Shift'] });
  await page.waitForSelector('[data-testid="class-chooser"]');
  assert.match(await page.locator('[data-testid="class-*"]').textContent(), /Idle \* · captures nothing/);
  await page.click('[data-testid="class-*"]');
  await waitMoves(page, 4);
  await yourMove(page);
  // The Idle cannon moves: red scores 1, and only that move carries a badge.
  await page.waitForSelector('[data-piece="d2"][data-class="idle"]');
  await page.click('[data-sq="d2"]');
  const to = await page.locator('[data-target]').first().getAttribute('data-target');
  await page.click(`[data-sq="${to}"]`);
  await page.waitForFunction(() => document.querySelector('[data-testid="score-red"]').textContent === '1');
  await page.waitForSelector('[data-testid="score-change"]');
  const badges = await page.locator('[data-testid="score-change"]').allTextContents();
  assert.deepEqual(badges.slice(0, 1), ['+1']);
  assert.ok(badges.length <= 2, `${badges}`);
  // The box makes the chooser open on every move.
  await yourMove(page);
  await page.check('[data-testid="class-chooser-toggle"]');
  for (const sq of ['a3', 'c3', 'g3', 'i3', 'e3']) {
    await page.click(`[data-sq="${sq}"]`);
    if (await page.locator('[data-target]').count()) break;
  }
  const next = await page.locator('[data-target]').first().getAttribute('data-target');
  await page.click(`[data-sq="${next}"]`);
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.keyboard.press('Escape');
  await page.uncheck('[data-testid="class-chooser-toggle"]');
  await page.context().close();
});

test('item 11: check sounds, the mated general keeps a ring, and a low clock warns', async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-sound', 'on'));
  await gameFrom(page, { fen: '3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1' });
  await yourMove(page);
  await move(page, 'a1', 'a9');
  await waitMoves(page, 1);
  await page.waitForFunction(() => (window.__qySounds || []).includes('check'));
  await waitMoves(page, 2);
  await yourMove(page);
  await move(page, 'b0', 'b8');
  await waitMoves(page, 4);
  await yourMove(page);
  await move(page, 'a9', 'a7');
  await page.waitForSelector('[data-testid="result-panel"]');
  // The mated general (black's, on d7) is ringed on the finished board.
  await page.waitForSelector('[data-mated="d7"]');
  // A short clock: the warning and its sound come before the flag falls.
  await gameFrom(page, { clock: { initial_s: 8, increment_s: 0 } });
  await yourMove(page);
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await page.waitForSelector('[data-testid="low-time"]:not([hidden])', { timeout: 12000 });
  assert.match(await page.locator('[data-testid="low-time"]').textContent(), /Low on time: \d s left!/);
  assert.ok(await page.evaluate(() => window.__qySounds.includes('lowtime')));
  await page.context().close();
});

test('item 14: the FEN of any position with a copy button; the PGN has a date and links back to the game', async () => {
  const page = await newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const id = await createGame(page, { opponent: 'ai:1' });
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await yourMove(page);
  const now = await page.locator('[data-testid="fen"]').textContent();
  assert.match(now, /^[rnbakcpRNBAKCP1-9/]+ w /);
  assert.match(now, /\/1C2C4\//, 'the cannon on e2');
  // Back to the start: the FEN follows the replay.
  await page.click('[data-testid="replay-first"]');
  assert.match(await page.locator('[data-testid="fen"]').textContent(), /^rnbakabnr\/9\/1c5c1\/p1p1p1p1p\/9\/9\/P1P1P1P1P\/1C5C1\/9\/RNBAKABNR w /);
  await page.click('[data-testid="replay-last"]');
  await page.click('[data-testid="copy-fen"]');
  await page.waitForFunction(() => /Copied|Selected/.test(document.querySelector('[data-testid="copy-fen"]').textContent));
  // Copied (where the clipboard may be read back, it holds the FEN), or at least selected for Ctrl+C.
  const copied = await page.evaluate(() => navigator.clipboard.readText().catch(() => null));
  if (copied != null) assert.equal(copied, now);
  else assert.equal(await page.evaluate(() => String(window.getSelection())), now);
  // The record: ICCS in English, a Date, Site a link to this page.
  const href = await page.locator('[data-testid="pgn"]').getAttribute('href');
  assert.equal(href, `/api/games/${id}/pgn`);
  const pgn = await (await page.request.get(base + href)).text();
  assert.match(pgn, /\[Date "\d{4}\.\d{2}\.\d{2}"\]/);
  assert.ok(pgn.includes(`[Site "${base}/#/game/${id}"]`), pgn);
  assert.match(pgn, /1\. H2-E2/);
  const zh = await (await page.request.get(`${base}/api/games/${id}/pgn?notation=chinese`)).text();
  assert.match(zh, /\[Format "Chinese"\]/);
  assert.match(zh, /1\. 炮二平五/);
  await page.context().close();
});

