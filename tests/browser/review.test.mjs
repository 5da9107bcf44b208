// Browser test of the review after a game (issue 39): the engine in the
// browser scores each position within a small budget; a move that leaves a
// chariot to the cannon is labelled a blunder by the drop in winning chance
// (lichess's thresholds); a click on the graph shows that ply on the game's
// board, a row's link opens the position on the analysis board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openRoomAndJoin, move, waitMoves } from './harness.mjs';

test('a hanging chariot is a blunder; the graph and the rows jump to the position', async () => {
  const [red, black] = await openRoomAndJoin('xiangqi');
  await red.waitForSelector('[data-piece="e0"]');
  await black.waitForSelector('[data-piece="e0"]');
  // 1. The knight leaves h0; 1... a quiet chariot step; 2. the chariot goes
  // to h0, where the cannon on h7 takes it over the screen on h2.
  await move(red, 'h0', 'g2');
  await waitMoves(black, 1);
  await move(black, 'i9', 'i8');
  await waitMoves(red, 2);
  await move(red, 'i0', 'h0');
  await waitMoves(black, 3);
  await move(black, 'h7', 'h0');
  await waitMoves(red, 4);
  await red.click('[data-testid="resign"]');
  await red.waitForSelector('[data-testid="result-panel"]');
  const t0 = Date.now();
  await red.click('[data-testid="analyse"]');
  await red.waitForSelector('[data-testid="analysis"]', { timeout: 60000 });
  const took = Date.now() - t0;
  assert.ok(took < 20000, `five positions within the budget (${took} ms)`);
  // A row per move; the third (the chariot to h0) is labelled a blunder.
  const rows = red.locator('[data-testid="review-row"]');
  assert.equal(await rows.count(), 4);
  assert.equal(await rows.nth(2).locator('[data-testid="judgement"]').getAttribute('data-label'), 'blunder');
  assert.match(await rows.nth(2).textContent(), /\?\? Blunder/);
  // Taking the chariot is no mistake for black.
  assert.equal(await rows.nth(3).locator('[data-testid="judgement"]').count(), 0);
  assert.match(await red.locator('[data-testid="review-red"]').textContent(), /1 blunders/);
  assert.match(await red.locator('[data-testid="review-black"]').textContent(), /0 blunders/);
  // The graph: a click on ply 3 shows it on the board (the chariot on h0, the cannon still on h7).
  await red.locator('[data-testid="graph-ply-3"]').click({ force: true });
  await red.waitForSelector('[data-testid="moves"] .cur[data-ply="3"]');
  assert.ok(await red.locator('#analysis [data-testid="review-row"].cur[data-review-ply="3"]').count(), 'the row of the ply shown is marked');
  assert.ok(await red.locator('[data-testid="board"] [data-piece="h7"]').count(), 'the cannon has not taken yet');
  // A row: ply 1.
  await rows.nth(0).locator('td').first().click();
  await red.waitForSelector('[data-testid="moves"] .cur[data-ply="1"]');
  // The row's link opens that position on the analysis board.
  const href = await rows.nth(2).locator('[data-testid="review-board"]').getAttribute('href');
  assert.match(href, /^#\/analysis\/xiangqi\/.+\/h0g2\.i9i8\.i0h0\.h7h0\/3$/);
  await rows.nth(2).locator('[data-testid="review-board"]').click();
  await red.waitForSelector('[data-testid="analysis-board"] [data-testid="tree-move"].cur');
  assert.ok(await red.locator('[data-testid="analysis-board"] [data-piece="h0"]').count(), 'the chariot on h0');
  await red.context().close();
  await black.context().close();
});
