// Browser tests of what players do besides moving (issue 18): takebacks,
// one's games in play, challenges and invite links, chat, premoves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, createGame, move, moveCount, waitMoves, statusIs, openRoomAndJoin } from './harness.mjs';

const noMoves = (page) => page.waitForFunction(() => document.querySelectorAll('[data-testid="moves"] [data-ply]').length === 0);

test('a takeback is asked, allowed and declined between two people', async () => {
  const [red, black] = await openRoomAndJoin('xiangqi');
  await statusIs(red, /Your move/);
  // Nothing to take back yet: no button.
  assert.equal(await red.locator('[data-testid="takeback"]').count(), 0);
  await move(red, 'h2', 'e2');
  await waitMoves(black, 1);
  await red.click('[data-testid="takeback"]');
  await red.waitForSelector('[data-testid="takeback-pending"]');
  await black.waitForSelector('[data-testid="takeback-offer"]');
  await black.click('[data-testid="accept-takeback"]');
  await noMoves(red);
  await noMoves(black);
  await red.waitForSelector('[data-testid="takeback-done"]');
  await red.waitForSelector('[data-piece="h2"]');
  await statusIs(red, /Your move/);
  // Asked again after another move, and declined this time.
  await move(red, 'b2', 'e2');
  await waitMoves(black, 1);
  await red.click('[data-testid="takeback"]');
  await black.click('[data-testid="decline-takeback"]');
  await red.waitForSelector('[data-testid="takeback-declined"]');
  assert.equal(await moveCount(red), 1);
  await red.context().close();
  await black.context().close();
});

test('the computer allows a takeback at once, in Chinese too', async () => {
  const page = await newPage('zh-CN');
  await createGame(page, { opponent: 'ai:1' });
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await statusIs(page, /轮到你走/);
  const label = await page.locator('[data-testid="takeback"]').textContent();
  assert.equal(label, '悔棋');
  await page.click('[data-testid="takeback"]');
  await noMoves(page);
  await page.waitForSelector('[data-testid="takeback-done"]');
  await statusIs(page, /轮到你走/);
  await page.context().close();
});
