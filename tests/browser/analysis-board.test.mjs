// Browser test of the analysis board (#/analysis, issue 39): a PGN pasted
// and read by the server (POST /api/import) becomes a move tree with its
// variation and comments; ←/→ step through it and the address follows; a
// different move from an earlier position is a new side line; promote and
// delete; the PGN export holds the variations; a CBF file brings its side
// lines; a bad file names its line; a FEN sets a position; the address opens the position it holds; a game's
// page links to the board at the ply shown; Chinese moves in 中文.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, createGame, move, waitMoves, yourMove } from './harness.mjs';

const PGN = '[Event "study"]\n{opening}\n1. h2e2 {central cannon} h9g7 (1... h7e7 {same-side cannons} 2. h0g2) 2. h0g2 i9h9 *\n';

const tree = (page) => page.locator('[data-testid="move-tree"]');
const treeMoves = (page) => page.locator('[data-testid="tree-move"]').allTextContents();
const current = (page) => page.locator('[data-testid="tree-move"].cur').textContent();
const hashPly = (page) => page.evaluate(() => Number(location.hash.split('/').pop()));

async function openBoard(page) {
  await page.evaluate(() => { location.hash = '#/analysis'; });
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
}

async function importText(page, text) {
  // The loader folds away after an import: open it as a person would.
  if (!(await page.locator('[data-testid="paste"]').isVisible())) await page.click('[data-testid="study-load"] summary');
  await page.fill('[data-testid="paste"]', text);
  await page.click('[data-testid="paste-load"]');
}

test('an imported PGN is a tree: keys step through it, a side line is played, the export holds the variations', async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await openBoard(page);
  await importText(page, PGN);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 6);
  assert.deepEqual(await treeMoves(page), ['h2e2', 'h9g7', 'h7e7', 'h0g2', 'h0g2', 'i9h9']);
  assert.equal(await page.locator('[data-testid="variation"]').count(), 1);
  const text = await tree(page).textContent();
  assert.match(text, /opening/);
  assert.match(text, /central cannon/);
  assert.match(text, /same-side cannons/);
  // The board opens at the start; the address holds the line and the ply.
  assert.equal(await page.locator('[data-testid="tree-move"].cur').count(), 0);
  await page.keyboard.press('ArrowRight');
  assert.equal(await current(page), 'h2e2');
  assert.equal(await hashPly(page), 1);
  assert.ok(await page.locator('[data-piece="e2"]').count(), 'the cannon stands on e2');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await current(page), 'i9h9');
  assert.equal(await hashPly(page), 4);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await current(page), 'h9g7');
  // A click on the side line's move goes there.
  await page.locator('[data-testid="variation"] [data-testid="tree-move"]').first().click();
  assert.equal(await current(page), 'h7e7');
  assert.ok(await page.locator('[data-piece="e7"]').count(), 'black cannon on e7');
  // Back to after 1. h2e2 and play another black reply on the board: a new side line.
  await page.locator('[data-testid="tree-move"]', { hasText: 'h2e2' }).click();
  await move(page, 'b9', 'c7');
  assert.equal(await current(page), 'b9c7');
  assert.equal(await page.locator('[data-testid="variation"]').count(), 2);
  // Replaying a move that is there goes to it rather than adding a line.
  await page.keyboard.press('ArrowLeft');
  await move(page, 'h9', 'g7');
  assert.equal(await current(page), 'h9g7');
  assert.equal(await page.locator('[data-testid="variation"]').count(), 2);
  assert.equal((await treeMoves(page)).length, 7);
  // A comment on the new line, then the export.
  await page.locator('[data-testid="tree-move"]', { hasText: 'b9c7' }).click();
  await page.fill('[data-testid="comment"]', 'the horse instead');
  await page.click('[data-testid="export"]');
  let pgn = await page.locator('[data-testid="pgn-out"]').inputValue();
  assert.match(pgn, /\[Event "study"\]/);
  assert.match(pgn, /\[Format "ICCS"\]/);
  // After a comment the next move says its number again (1... h9g7).
  assert.match(pgn, /1\. h2e2 \{central cannon\} 1\.\.\. h9g7 \(1\.\.\. h7e7 \{same-side cannons\} 2\. h0g2\) \(1\.\.\. b9c7 \{the horse instead\}\) 2\. h0g2 i9h9/);
  // Promote the horse's line: it becomes the main line.
  await page.click('[data-testid="promote"]');
  pgn = await page.locator('[data-testid="pgn-out"]').inputValue();
  assert.match(pgn, /1\. h2e2 \{central cannon\} 1\.\.\. b9c7 \{the horse instead\} \(1\.\.\. h9g7 2\. h0g2 i9h9\) \(1\.\.\. h7e7/);
  // Delete it: the board goes back to where it started, the old main line returns.
  await page.click('[data-testid="delete-move"]');
  assert.equal(await current(page), 'h2e2');
  pgn = await page.locator('[data-testid="pgn-out"]').inputValue();
  assert.doesNotMatch(pgn, /b9c7/);
  assert.match(pgn, /1\. h2e2 \{central cannon\} 1\.\.\. h9g7 \(1\.\.\. h7e7 \{same-side cannons\} 2\. h0g2\) 2\. h0g2 i9h9/);
  // The exported PGN reads back through the server as the same tree.
  await importText(page, pgn);
  await page.click('[data-testid="nav-first"]');
  await importText(page, pgn);
  await page.waitForFunction(() => !document.querySelector('[data-testid="tree-move"].cur'));
  assert.deepEqual(await treeMoves(page), ['h2e2', 'h9g7', 'h7e7', 'h0g2', 'h0g2', 'i9h9']);
  assert.match(await tree(page).textContent(), /same-side cannons/);
  await page.context().close();
});

// A 象棋桥 (CBF) record with two side lines, each written from the start.
const CBF = `<?xml version="1.0" encoding="UTF-8"?>
<ChineseChessRecord Version="1.0"><Head><Name>变着</Name></Head>
<MoveList><Move value="00-00">开局</Move><Move value="77-47" comment="中炮"/><Move value="70-62"/><Move value="79-67" end="1"/>
<Move value="77-47" comment="中炮"/><Move value="10-22">另一匹马</Move><Move value="19-27" end="1"/>
<Move value="26-25" end="1"/></MoveList></ChineseChessRecord>`;

test('a CBF file with side lines opens with its variations in the tree', async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await openBoard(page);
  // Uploaded as a file, as a player would.
  if (!(await page.locator('[data-testid="file"]').isVisible())) await page.click('[data-testid="study-load"] summary');
  await page.setInputFiles('[data-testid="file"]', { name: 'lines.cbf', mimeType: 'application/xml', buffer: Buffer.from(CBF) });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 6);
  assert.deepEqual(await treeMoves(page), ['h2e2', 'c3c4', 'h9g7', 'b9c7', 'b0c2', 'h0g2']);
  assert.equal(await page.locator('[data-testid="variation"]').count(), 2);
  const text = await tree(page).textContent();
  assert.equal(text.match(/中炮/g).length, 1, text);
  assert.match(text, /另一匹马/);
  // The side line is played on the board by a click.
  await page.locator('[data-testid="variation"] [data-testid="tree-move"]', { hasText: 'b0c2' }).click();
  assert.equal(await current(page), 'b0c2');
  assert.equal(await hashPly(page), 3);
  assert.ok(await page.locator('[data-piece="c2"]').count(), 'the red horse on c2');
  await page.close();
});

test('bad files name the place, a FEN sets a position, the address opens what it holds, Chinese moves in 中文', async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await openBoard(page);
  await importText(page, '[Event "x"]\n1. h2e2 h9g7\n2. h2h9\n');
  await page.waitForFunction(() => /line 3, column 4/.test(document.querySelector('[data-testid="study-error"]').textContent));
  assert.match(await page.locator('[data-testid="study-error"]').textContent(), /not legal/);
  // A FEN: two chariots against a bare general.
  await page.fill('[data-testid="fen-input"]', '3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1');
  await page.click('[data-testid="fen-load"]');
  await page.waitForSelector('[data-piece="a1"]');
  assert.equal(await page.locator('[data-piece]').count(), 4);
  // 1. R9+8 K4+1 2. R8+8 K4+1 3. R9-2#: the general cannot leave the palace or face the other.
  for (const [from, to] of [['a1', 'a9'], ['d9', 'd8'], ['b0', 'b8'], ['d8', 'd7'], ['a9', 'a7']]) await move(page, from, to);
  await page.waitForFunction(() => /Checkmate/.test(document.querySelector('[data-testid="study-status"]').textContent));
  // A bad FEN is refused with the reason.
  await page.fill('[data-testid="fen-input"]', '9/9/9 w');
  await page.click('[data-testid="fen-load"]');
  assert.match(await page.locator('[data-testid="study-error"]').textContent(), /nine files/);
  // The address, opened afresh, shows the same line at the same ply.
  await page.keyboard.press('ArrowLeft');
  const url = page.url();
  assert.match(url, /#\/analysis\/xiangqi\/.+\/a1a9\.d9d8\.b0b8\.d8d7\.a9a7\/4$/);
  const other = await page.context().newPage();
  await other.goto(url);
  await other.waitForSelector('[data-testid="tree-move"].cur');
  assert.equal(await other.locator('[data-testid="tree-move"].cur').textContent(), 'd8d7');
  assert.equal((await other.locator('[data-testid="tree-move"]').allTextContents()).length, 5);
  // In Chinese the moves are written in Chinese.
  await other.evaluate(() => localStorage.removeItem('qy-notation'));
  await other.click('[data-testid="lang"]');
  await other.waitForSelector('[data-testid="analysis-board"]');
  await other.selectOption('[data-testid="notation"]', 'chinese');
  assert.deepEqual(await other.locator('[data-testid="tree-move"]').allTextContents(), ['车九进八', '将４进１', '车八进八', '将４进１', '车九退二']);
  await other.keyboard.press('End');
  assert.match(await other.locator('[data-testid="study-status"]').textContent(), /将死/);
  await page.context().close();
});

test("a game's page opens the analysis board at the ply shown", async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await createGame(page, { game: 'xiangqi', opponent: 'ai:1' });
  await yourMove(page);
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await yourMove(page);
  const href = await page.locator('[data-testid="study-link"]').getAttribute('href');
  assert.match(href, /^#\/analysis\/xiangqi\/.+\/h2e2\.[a-i]\d[a-i]\d\/2$/);
  await page.click('[data-testid="study-link"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-testid="tree-move"].cur');
  assert.equal((await treeMoves(page)).length, 2);
  assert.equal(await page.locator('[data-testid="tree-move"]').first().textContent(), 'h2e2');
  assert.equal(await hashPly(page), 2);
  await page.context().close();
});

test('the engine in the browser searches depth after depth with several lines until stopped; a line clicked goes into the tree', async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await openBoard(page);
  await page.selectOption('[data-testid="engine-lines"]', '3');
  const t0 = Date.now();
  await page.click('[data-testid="engine-toggle"]');
  await page.waitForFunction(() => /depth ([4-9]|\d\d)/.test(document.querySelector('[data-testid="engine-depth"]').textContent), null, { timeout: 60000 });
  console.log(`engine in the browser: depth 4 from the start position in ${Date.now() - t0} ms`);
  const lines = await page.locator('[data-testid="engine-line"]').allTextContents();
  assert.equal(lines.length, 3, lines.join(' | '));
  for (const l of lines) assert.match(l, /^[+-]?\d+\.\d\d [a-i]\d[a-i]\d( [a-i]\d[a-i]\d)*$/);
  const firsts = lines.map((l) => l.split(' ')[1]);
  assert.equal(new Set(firsts).size, 3, 'three different first moves');
  assert.ok(await page.locator('[data-testid="eval-bar"]').isVisible());
  // An arrow for each line's first move on the board.
  // (Read in one go: the engine goes on deepening meanwhile.)
  await page.waitForFunction(() => {
    const arrows = [...document.querySelectorAll('[data-testid="arrows"] [data-arrow]')].map((e) => e.getAttribute('data-arrow'));
    const firsts = [...document.querySelectorAll('[data-testid="engine-line"]')].map((l) => l.textContent.split(' ')[1]);
    return arrows.length === 3 && arrows.join() === firsts.join();
  });
  assert.match(await page.locator('[data-testid="eval-text"]').textContent(), /^[+-]?\d+\.\d\d$/);
  // Stop, then play the second line into the tree.
  // Stopped, the last lines stay and can be played.
  assert.equal(await page.locator('[data-testid="engine-toggle"]').getAttribute('aria-pressed'), 'true');
  await page.click('[data-testid="engine-toggle"]');
  assert.equal(await page.locator('[data-testid="engine-toggle"]').getAttribute('aria-pressed'), 'false');
  const depth = await page.locator('[data-testid="engine-depth"]').textContent();
  await page.waitForTimeout(300);
  assert.equal(await page.locator('[data-testid="engine-depth"]').textContent(), depth, 'no deeper once stopped');
  assert.equal(await page.locator('[data-testid="engine-line"]').count(), 3);
  const second = (await page.locator('[data-testid="engine-line"]').nth(1).textContent()).split(' ').slice(1);
  await page.locator('[data-testid="engine-line"]').nth(1).click();
  assert.equal(await current(page), second[0]);
  assert.deepEqual((await treeMoves(page)).slice(0, second.length), second);
  // The old lines were for the position before: gone. Started again, the
  // engine searches the position on the board (the other side to move).
  assert.equal(await page.locator('[data-testid="engine-line"]').count(), 0);
  await page.click('[data-testid="engine-toggle"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="engine-line"]').length === 3);
  const reply = (await page.locator('[data-testid="engine-line"]').first().textContent()).split(' ')[1];
  assert.match(reply, /^[a-i][5-9][a-i]\d$/, 'a black move');
  // Moving on the board while it runs: it follows.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => /^[+-]?\d+\.\d\d [a-i][0-4]/.test(document.querySelector('[data-testid="engine-line"]')?.textContent || ''));
  await page.click('[data-testid="engine-toggle"]');
  await page.context().close();
});
