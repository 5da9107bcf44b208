// Browser test of saved studies and the opening explorer on the analysis
// board (issue 39): two finished rated games played through the API show in
// the explorer with counts and results, a move clicked there goes into the
// tree; a guest is told to register before saving; a registered player
// saves the board (with a side line and a comment), lists, opens (the tree
// comes back), renames and deletes it; the share link opens it for anyone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base, newPage, move } from './harness.mjs';

const treeMoves = (page) => page.locator('[data-testid="tree-move"]').allTextContents();

async function call(method, path, token, body) {
  const r = await fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => null);
  assert.ok(r.ok, `${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
}

const register = async (name) => (await call('POST', '/api/register', null, { username: name, password: 'secret123' })).token;

/** A rated game: `moves` in turn, then `loser` (0 red, 1 black) resigns. */
async function ratedGame(red, black, moves, loser) {
  const g = await call('POST', '/api/games', red, { game: 'xiangqi', clock: { initial_s: 300, increment_s: 0 }, opponent: 'open', rated: true });
  await call('POST', `/api/games/${g.id}/join`, black, {});
  for (const [i, mv] of moves.entries()) await call('POST', `/api/games/${g.id}/moves`, i % 2 ? black : red, { move: mv });
  await call('POST', `/api/games/${g.id}/resign`, loser ? black : red, {});
}

async function openBoard(page) {
  await page.evaluate(() => { location.hash = '#/analysis'; });
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
}

test('the explorer lists the moves of finished rated games; a click plays one into the tree', async () => {
  const red = await register('exp_red');
  const black = await register('exp_black');
  await ratedGame(red, black, ['h2e2', 'h9g7', 'h0g2', 'i9h9'], 1);
  await ratedGame(red, black, ['h2e2', 'b9c7', 'b0c2', 'a9b9'], 0);
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await openBoard(page);
  const rows = page.locator('[data-testid="explorer-move"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="explorer-move"]').length === 1);
  assert.match(await rows.first().textContent(), /h2e2/);
  assert.equal(await rows.first().locator('[data-testid="explorer-count"]').textContent(), '2');
  assert.match(await page.locator('[data-testid="explorer-total"]').textContent(), /2 games/);
  // One won, one lost: half the bar each.
  const bar = await rows.first().locator('[data-testid="explorer-bar"]').getAttribute('title');
  assert.equal(bar, 'Won 1, drawn 0, lost 1');
  await rows.first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid="tree-move"].cur')?.textContent === 'h2e2');
  // Black's replies, each once, from black's side.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="explorer-move"]').length === 2);
  const replies = await rows.allTextContents();
  assert.ok(replies.some((r) => /b9c7/.test(r)) && replies.some((r) => /h9g7/.test(r)), replies.join('|'));
  assert.equal(await page.locator('[data-testid="explorer-move"]', { hasText: 'b9c7' }).locator('[data-testid="explorer-bar"]').getAttribute('title'), 'Won 1, drawn 0, lost 0');
  // In Chinese notation the moves are named as the board names them.
  await page.selectOption('[data-testid="notation"]', 'chinese');
  await page.waitForFunction(() => /马/.test(document.querySelector('[data-testid="explorer-moves"]').textContent));
  // A position no rated game reached says so.
  await page.selectOption('[data-testid="notation"]', 'iccs');
  await move(page, 'a9', 'a8');
  await page.waitForSelector('[data-testid="explorer-empty"]');
});

test('a study is saved, listed, opened, renamed, shared and deleted; a guest is told to register', async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await openBoard(page);
  await move(page, 'h2', 'e2');
  // A guest cannot save.
  await page.click('[data-testid="study-save"]');
  await page.waitForFunction(() => /register|sign up/i.test(document.querySelector('[data-testid="study-collection-error"]').textContent));

  // Registered (the page's own session), the board is saved.
  await page.evaluate(async () => {
    const r = await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'studier', password: 'secret123' }), credentials: 'same-origin' });
    if (!r.ok) throw new Error(String(r.status));
  });
  await page.reload();
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e2"]');
  await move(page, 'h9', 'g7');
  await page.keyboard.press('ArrowLeft');
  await move(page, 'b9', 'c7');
  await page.fill('[data-testid="comment"]', 'the other horse');
  assert.deepEqual(await treeMoves(page), ['h2e2', 'h9g7', 'b9c7']);
  await page.fill('[data-testid="study-name"]', 'Central cannon');
  await page.click('[data-testid="study-save"]');
  await page.waitForSelector('[data-testid="study-saved"]:not([hidden])');
  assert.match(await page.locator('[data-testid="study-saved"]').textContent(), /Central cannon/);
  const link = await page.locator('[data-testid="study-share"]').getAttribute('href');
  assert.match(link, /#\/study\/\w+$/);

  // A fresh board, then the study opened from the list brings the tree back.
  if (!(await page.locator('[data-testid="fen-input"]').isVisible())) await page.click('[data-testid="study-load"] summary');
  await page.fill('[data-testid="fen-input"]', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
  await page.click('[data-testid="fen-load"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 0);
  await page.click('[data-testid="my-studies"] summary');
  await page.waitForSelector('[data-testid="study-row"]');
  assert.equal(await page.locator('[data-testid="study-row"]').count(), 1);
  await page.click('[data-testid="study-open"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 3);
  assert.deepEqual(await treeMoves(page), ['h2e2', 'h9g7', 'b9c7']);
  assert.equal(await page.locator('[data-testid="variation"]').count(), 1);
  assert.match(await page.locator('[data-testid="move-tree"]').textContent(), /the other horse/);

  // Renamed in the list.
  await page.click('[data-testid="study-rename"]');
  await page.fill('[data-testid="study-rename-input"]', 'Screen horses');
  await page.click('[data-testid="study-rename-ok"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="study-open"]')?.textContent === 'Screen horses');

  // The share link opens it for someone else (a guest in another browser).
  const other = await newPage();
  await other.goto(link);
  await other.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 3);
  assert.match(await other.locator('[data-testid="move-tree"]').textContent(), /the other horse/);
  await other.close();

  // Deleted after a second click.
  await page.click('[data-testid="study-delete"]');
  assert.equal(await page.locator('[data-testid="study-row"]').count(), 1);
  await page.click('[data-testid="study-delete"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="study-row"]').length === 0);
  const gone = await fetch(`${base}/api/studies/${link.split('/').pop()}`);
  assert.equal(gone.status, 404);
});

test('a saved study reopens at the move it was saved at, from the list and from its share link', async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await page.evaluate(async () => {
    const r = await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'plysaver', password: 'secret123' }), credentials: 'same-origin' });
    if (!r.ok) throw new Error(String(r.status));
  });
  await page.reload();
  await openBoard(page);
  // Main line h2e2 h9g7 h0g2 i9h9; a side line b9c7 b0c2 in place of h9g7.
  await move(page, 'h2', 'e2');
  await move(page, 'h9', 'g7');
  await move(page, 'h0', 'g2');
  await move(page, 'i9', 'h9');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await move(page, 'b9', 'c7');
  await move(page, 'b0', 'c2');
  // The board shows the side line's first move (ply 2) when it is saved.
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('[data-testid="tree-move"].cur')?.textContent === 'b9c7');
  await page.fill('[data-testid="study-name"]', 'Side line');
  await page.click('[data-testid="study-save"]');
  await page.waitForSelector('[data-testid="study-saved"]:not([hidden])');
  const link = await page.locator('[data-testid="study-share"]').getAttribute('href');
  const id = link.split('/').pop();
  const saved = await (await fetch(`${base}/api/studies/${id}`)).json();
  assert.equal(saved.ply, 2, JSON.stringify(saved));
  assert.equal(saved.tree.moves[saved.tree.at].move, 'b9c7');

  // A fresh board, then the study opened from the list: the same move shown.
  if (!(await page.locator('[data-testid="fen-input"]').isVisible())) await page.click('[data-testid="study-load"] summary');
  await page.fill('[data-testid="fen-input"]', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
  await page.click('[data-testid="fen-load"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 0);
  await page.click('[data-testid="my-studies"] summary');
  await page.waitForSelector('[data-testid="study-row"]');
  await page.click('[data-testid="study-open"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 6);
  assert.equal(await page.locator('[data-testid="tree-move"].cur').textContent(), 'b9c7');
  assert.match(await page.evaluate(() => location.hash), /\/2$/);
  // The board is the position after h2e2 b9c7: black's horse on c7, red to move.
  assert.equal(await page.locator('[data-piece="c7"]').count(), 1);
  assert.match(await page.locator('[data-testid="study-status"]').textContent(), /Red to move/);

  // Moved on and saved again: the study follows (ply 4 of the main line).
  await page.click('[data-testid="tree-move"] >> text=i9h9');
  await page.click('[data-testid="study-save"]');
  await page.waitForFunction(async (sid) => (await (await fetch(`/api/studies/${sid}`)).json()).ply === 4, id);

  // The share link opens it there for someone else.
  const other = await newPage();
  await other.goto(link);
  await other.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 6);
  assert.equal(await other.locator('[data-testid="tree-move"].cur').textContent(), 'i9h9');
  assert.match(await other.evaluate(() => location.hash), /\/4$/);
  await other.close();
  await page.close();
});

test("the explorer shows the engine's score after each listed move and its best move, in the page's notation", async () => {
  const red = await register('eng_red');
  const black = await register('eng_black');
  await ratedGame(red, black, ['c3c4', 'g6g5'], 1);
  const page = await newPage();
  await page.evaluate(() => { localStorage.setItem('qy-notation', 'iccs'); localStorage.removeItem('qy-explorer-engine'); });
  await openBoard(page);
  // The start position's rows (h2e2 from the games above, c3c4 from this one), each with the engine's score.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="explorer-move"]').length >= 2);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="explorer-eval"]')].every((c) => /^[+-]?\d+\.\d\d|^#-?\d+/.test(c.textContent)), null, { timeout: 30000 });
  const scores = await page.locator('[data-testid="explorer-eval"]').allTextContents();
  assert.ok(scores.length >= 2, scores.join('|'));
  // The engine's best move for the position, named as the board names it; its row (if listed) is marked.
  // Read once the rounds are over (each deeper round may change the best move).
  const best = page.locator('[data-testid="explorer-engine-best"][data-done]');
  await best.waitFor({ timeout: 30000 });
  const bestMove = await best.getAttribute('data-move');
  assert.match(bestMove, /^[a-i]\d[a-i]\d$/);
  assert.match(await best.textContent(), new RegExp(`${bestMove}.*depth \\d+`));
  const marked = await page.locator('[data-testid="explorer-move"]', { has: page.locator('[data-testid="explorer-engine-mark"]') }).getAttribute('data-ex').catch(() => null);
  const listed = await page.locator('[data-testid="explorer-move"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-ex')));
  assert.equal(marked, listed.includes(bestMove) ? bestMove : null);
  // A row's title names the engine's reply to it; the rows are searched one ply shallower than the position, so they agree with the best move.
  await page.waitForFunction(() => {
    const best = /depth (\d+)/.exec(document.querySelector('[data-testid="explorer-engine-best"]')?.textContent || '');
    const rows = [...document.querySelectorAll('[data-testid="explorer-eval"]')].map((c) => /depth (\d+)/.exec(c.getAttribute('title') || ''));
    return best && rows.length && rows.every((m) => m && Number(m[1]) + 1 === Number(best[1]));
  }, null, { timeout: 30000 });
  assert.match(await page.locator('[data-testid="explorer-eval"]').first().getAttribute('title'), /reply: [a-i]\d[a-i]\d/);
  // In Chinese notation the best move is written in Chinese.
  await page.selectOption('[data-testid="notation"]', 'chinese');
  await page.waitForFunction(() => /[车马相象仕士帅将炮兵卒]/.test(document.querySelector('[data-testid="explorer-engine-best"]')?.textContent || ''));
  // After c3c4 the engine scores black's one listed reply.
  await page.locator('[data-testid="explorer-move"][data-ex="c3c4"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="explorer-move"]')?.getAttribute('data-ex') === 'g6g5');
  await page.waitForFunction(() => /^[+-]?\d+\.\d\d|^#/.test(document.querySelector('[data-testid="explorer-eval"]')?.textContent || ''), null, { timeout: 30000 });
  // Switched off, the column goes and stays off on the next visit.
  await page.click('[data-testid="explorer-engine-toggle"]');
  await page.waitForFunction(() => !document.querySelector('[data-testid="explorer-eval"]'));
  assert.equal(await page.evaluate(() => localStorage.getItem('qy-explorer-engine')), 'off');
  await page.close();
});
