// Browser test of the analysis after a game: the engine compiled to
// WebAssembly (web/engine.wasm, scripts/build-wasm.sh) runs in a Web Worker
// and scores every position; the page draws the graph, each move's score
// and best line, and each side's inaccuracies, mistakes and blunders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, createGame, move, waitMoves, yourMove } from './harness.mjs';

test('after a game the engine in the browser scores every position and counts the labels per side', async () => {
  const page = await newPage();
  await createGame(page, { game: 'xiangqi', opponent: 'ai:1' });
  await yourMove(page);
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await yourMove(page);
  // A gift: the chariot walks into the cannon's line (or any move), then resign.
  await move(page, 'i0', 'i1');
  await waitMoves(page, 4);
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="result-panel"]');
  await page.click('[data-testid="analyse"]');
  await page.waitForSelector('[data-testid="analysis"]', { timeout: 60000 });
  const rows = await page.locator('[data-testid="analysis-moves"] tr').count();
  const plies = await page.locator('[data-testid="moves"] [data-ply]').count();
  assert.equal(rows, plies, 'a row per move');
  const polyline = await page.locator('[data-testid="eval-graph"] polyline').getAttribute('points');
  assert.equal(polyline.trim().split(/\s+/).length, plies + 1, 'a point per position');
  // Every row has a score and the engine's best line from the position before.
  const text = await page.locator('[data-testid="analysis-moves"]').textContent();
  assert.match(text, /best [a-i]\d[a-i]\d/);
  assert.match(text, /[+-]\d+\.\d\d|[+-]M\d|#/);
  assert.ok(await page.locator('[data-testid="review-summary"]').count() === 1);
  await page.context().close();
});
