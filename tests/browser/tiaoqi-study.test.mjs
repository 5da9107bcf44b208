// Browser tests of Tiaoqi on the analysis board (issue 39): a 3-player
// start position, a move played by clicks, the game's AI as the engine
// (its best moves listed and drawn as paths; one clicked goes into the
// tree), the address reopening the same position; a position text of
// another seating opening that seating's board; a finished game's page
// opening the board at the ply shown; how long the engine takes for 2 and
// 6 players.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, tiaoqiVsAi, waitMoves, yourMove } from './harness.mjs';

const RED = '#d33', YELLOW = '#db2', GREEN = '#2a4';
const treeMoves = (page) => page.locator('[data-testid="tree-move"]').evaluateAll((els) => els.map((e) => e.dataset.move));
const current = (page) => page.locator('[data-testid="tree-move"].cur').getAttribute('data-move');
const toMove = (page) => page.locator('[data-testid="tq-to-move"]').getAttribute('data-letter');
const fill = (page, cell) => page.locator(`[data-cell="${cell}"]`).getAttribute('fill');

async function openBoard(page, hash) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector('[data-testid="analysis-board"].tq-study');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="board"] [data-cell]').length === 121);
}

/** Starts the engine and waits for `n` lines; the time they took. */
async function engineLines(page, n) {
  await page.selectOption('[data-testid="engine-lines"]', String(n));
  const t0 = Date.now();
  await page.click('[data-testid="engine-toggle"]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="engine-line"]').length === n
    && document.querySelectorAll('[data-testid="engine-arrow"]').length === n, n, { timeout: 60000 });
  return Date.now() - t0;
}

test('Tiaoqi, 3 players: a move by clicks, the AI\'s suggestions drawn and played into the tree, the address reopens it', async () => {
  const page = await newPage();
  await openBoard(page, '#/analysis/tiaoqi-3');
  assert.equal(await toMove(page), 'a');
  assert.equal(await page.locator('[data-testid="tq-to-move"]').textContent(), 'Red to move');
  // Red's camp is outlined as the side to move's.
  assert.equal(await page.locator('[data-camp="a"]').getAttribute('stroke'), RED);
  // A jump: the piece's reachable holes are marked; the move goes into the tree.
  await page.click('[data-cell="3.1"]');
  await page.waitForSelector('[data-cell="5.5"][data-target]');
  await page.hover('[data-cell="5.5"]');
  assert.equal(await page.locator('[data-testid="jump-path"]').getAttribute('data-path'), '3.1-5.5');
  await page.click('[data-cell="5.5"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 1);
  assert.deepEqual(await treeMoves(page), ['3.1-5.5']);
  assert.equal(await fill(page, '5.5'), RED);
  assert.equal(await toMove(page), 'c');
  assert.equal(await page.locator('[data-testid="tq-to-move"]').textContent(), 'Yellow to move');
  assert.equal(await page.locator('[data-testid="last-path"]').count(), 1, 'the move that led here is drawn');

  // The engine: three of yellow's moves, best first, each a path on the board.
  const ms = await engineLines(page, 3);
  console.log(`tiaoqi engine, 3 players: 3 lines in ${ms} ms`);
  // Stopped, so that lines and paths are of the same answer (it deepens on).
  await page.click('[data-testid="engine-toggle"]');
  const lines = await page.locator('[data-testid="engine-line"]').evaluateAll((els) => els.map((e) => ({ move: e.dataset.move, text: e.textContent })));
  for (const l of lines) {
    assert.match(l.text, /^([+-]?\d+\.\d|#-?\d+) \d+\.\d+(-\d+\.\d+)+$/, l.text);
    assert.equal(await fill(page, l.move.split('-')[0]), YELLOW, `${l.move} moves a yellow piece`);
  }
  assert.equal(new Set(lines.map((l) => l.move)).size, 3);
  const arrows = await page.locator('[data-testid="engine-arrow"]').evaluateAll((els) => els.map((e) => e.dataset.move).sort());
  assert.deepEqual(arrows, lines.map((l) => l.move).sort());
  // The second line clicked: it is the tree's next move and the board's position.
  await page.click('[data-testid="engine-line"][data-line="1"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 2);
  const played = lines[1].move;
  assert.equal(await current(page), played);
  assert.equal(await fill(page, played.split('-')[1]), YELLOW);
  assert.equal(await toMove(page), 'e');
  // Started again, the engine follows the board: blue's moves now.
  await page.click('[data-testid="engine-toggle"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="engine-line"]').length === 3, null, { timeout: 60000 });
  const blue = await page.locator('[data-testid="engine-line"]').first().getAttribute('data-move');
  assert.equal(await fill(page, blue.split('-')[0]), '#27c', `${blue} moves a blue piece`);
  await page.click('[data-testid="engine-toggle"]');

  // The address holds the position: reloaded, the same tree and board.
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /^#\/analysis\/tiaoqi-3\/.+\/3\.1-5\.5,\d+\.\d+-\d+\.\d+\/2$/);
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 2);
  assert.deepEqual(await treeMoves(page), ['3.1-5.5', played]);
  assert.equal(await current(page), played);
  assert.equal(await toMove(page), 'e');
  assert.equal(await fill(page, '5.5'), RED);
  // ← steps back; another move there is a side line.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await current(page), '3.1-5.5');
  assert.equal(await toMove(page), 'c');
  const other = played === '10.1-9.1' ? ['10.1', '10.2'] : ['10.1', '9.1'];
  await page.click(`[data-cell="${other[0]}"]`);
  await page.click(`[data-cell="${other[1]}"]`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="variation"]').length === 1);
  assert.equal(await current(page), `${other[0]}-${other[1]}`);
  await page.context().close();
});

test('Tiaoqi: a position text of another seating opens its board; a bad one says what is wrong', async () => {
  const page = await newPage();
  await openBoard(page, '#/analysis/tiaoqi');
  const full = 'd/dd/ddd/dddd/cccc.....eeee/ccc......eee/cc.......ee/c........e/........./b........f/bb.......ff/bbb......fff/bbbb.....ffff/aaaa/aaa/aa/a a abcdef';
  // One red piece short: a's count is wrong.
  await page.fill('[data-testid="fen-input"]', full.replace('/aaaa/', '/aaa./'));
  await page.click('[data-testid="fen-load"]');
  await page.waitForFunction(() => /Red must have 10 pieces/.test(document.querySelector('[data-testid="study-error"]').textContent));
  await page.fill('[data-testid="fen-input"]', full);
  await page.click('[data-testid="fen-load"]');
  await page.waitForSelector('[data-testid="analysis-board"][data-variant="tiaoqi-6"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="board"] [data-cell]').length === 121);
  assert.equal(await fill(page, '8.1'), '#e90', 'an orange piece in b\'s camp');
  assert.equal(await page.locator('[data-testid="study-error"]').textContent(), '');
  assert.equal(await toMove(page), 'a');
  for (const l of 'abcdef') assert.equal(await page.locator(`.tq-dist[data-letter="${l}"]`).count(), 1);
  await page.context().close();
});

test('Tiaoqi: a finished game\'s page opens the analysis board at the ply shown', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi');
  await yourMove(page);
  await page.click('[data-cell="3.1"]');
  await page.click('[data-cell="5.5"]');
  await waitMoves(page, 2);
  await yourMove(page);
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="finish-order"]');
  // The first move shown: the link opens the board there, the game's moves its main line.
  await page.click('[data-testid="moves"] td[data-ply="1"]');
  await page.waitForFunction(() => /\/1$/.test(document.querySelector('[data-testid="study-link"]').getAttribute('href') || ''));
  const href = await page.locator('[data-testid="study-link"]').getAttribute('href');
  assert.match(href, /^#\/analysis\/tiaoqi\/.+\/3\.1-5\.5,\d+\.\d+-\d+\.\d+\/1$/);
  await page.click('[data-testid="study-link"]');
  await page.waitForSelector('[data-testid="analysis-board"].tq-study [data-testid="tree-move"].cur');
  assert.equal((await treeMoves(page)).length, 2, 'the resignation is not a move');
  assert.equal(await current(page), '3.1-5.5');
  assert.equal(await toMove(page), 'd');
  assert.equal(await page.locator('[data-testid="tq-to-move"]').textContent(), 'Green to move');
  assert.equal(await fill(page, '5.5'), RED);
  await page.keyboard.press('ArrowRight');
  assert.equal(await toMove(page), 'a');
  assert.equal(await page.locator(`[data-cell="${(await current(page)).split('-')[1]}"]`).getAttribute('fill'), GREEN);
  await page.context().close();
});

test('Tiaoqi engine in the browser: how long its suggestions take for 2 and 6 players', async () => {
  const page = await newPage();
  for (const [variant, players] of [['tiaoqi', 2], ['tiaoqi-6', 6]]) {
    await openBoard(page, `#/analysis/${variant}`);
    const first = await engineLines(page, 3);
    // Each answer's depth and the time since the start, until the node budget ends the deepening.
    const seen = [];
    const t0 = Date.now();
    while (Date.now() - t0 < 40000) {
      const text = await page.locator('[data-testid="engine-depth"]').textContent();
      if (!seen.length || seen[seen.length - 1] !== text) seen.push(text);
      if (/done/.test(text)) break;
      await page.waitForTimeout(100);
    }
    console.log(`tiaoqi engine, ${players} players, 3 lines: first lines in ${first} ms; ${seen.join(' | ')}`);
    assert.ok(seen.some((s) => /depth [3-9]|depth \d\d/.test(s)), seen.join(' | '));
    await page.click('[data-testid="engine-toggle"]');
  }
  await page.context().close();
});
