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
  // Black has no move of its own to take back yet.
  assert.equal(await black.locator('[data-testid="takeback"]').count(), 0);
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

const myName = (page) => page.evaluate(async () => (await (await fetch('/api/me')).json()).username);

test('a challenge to a named user: only they can take the seat; my games show whose move it is', async () => {
  const alice = await newPage();
  const bob = await newPage('zh-CN');
  const carol = await newPage();
  const bobName = await myName(bob);
  await alice.selectOption('[data-testid="opponent"]', 'open');
  await alice.fill('[data-testid="challenge-name"]', bobName);
  await alice.click('[data-testid="create"]');
  await alice.waitForURL(/#\/game\//);
  const id = alice.url().split('#/game/')[1];
  await alice.waitForSelector('[data-testid="challenge-wait"]');
  const link = await alice.locator('[data-testid="invite-link"]').inputValue();
  assert.ok(link.endsWith(`#/game/${id}`), link);
  // Not an open room in the lobby; carol opening the link may not join.
  assert.equal(await carol.locator(`[data-testid="join-${id}"]`).count(), 0);
  await carol.goto(link);
  await carol.waitForSelector('[data-testid="not-for-you"]');
  assert.equal(await carol.locator('[data-testid="join"]').count(), 0);
  // Bob sees the challenge in the tray (after a reload too) and the badge, and accepts.
  await bob.reload();
  await bob.waitForSelector(`[data-testid="challenge-accept-${id}"]`);
  await bob.waitForFunction(() => document.querySelector('[data-testid="my-badge"]').textContent === '1');
  await bob.click(`[data-testid="challenge-accept-${id}"]`);
  await bob.waitForURL(new RegExp(`#/game/${id}`));
  await statusIs(alice, /Your move/);
  await move(alice, 'h2', 'e2');
  await waitMoves(bob, 1);
  // Bob's games: one waits for his move.
  await bob.click('[data-testid="nav-my"]');
  await bob.waitForSelector('[data-testid="my-turn-count"]');
  assert.match(await bob.locator('[data-testid="my-turn-count"]').textContent(), /1 局轮到你走/);
  await bob.waitForSelector(`[data-testid="my-game-${id}"] [data-testid="your-move-mark"]`);
  await bob.waitForFunction(() => !document.querySelector('[data-testid="my-badge"]').hidden && document.querySelector('[data-testid="my-badge"]').textContent === '1');
  for (const p of [alice, bob, carol]) await p.context().close();
});

test('an open room has an invite link anyone can use', async () => {
  const alice = await newPage();
  const id = await createGame(alice);
  const link = await alice.locator('[data-testid="invite-link"]').inputValue();
  assert.ok(link.endsWith(`#/game/${id}`), link);
  await alice.click('[data-testid="copy-invite"]');
  await alice.waitForFunction(() => document.querySelector('[data-testid="copy-invite"]').textContent === 'Copied');
  const dave = await newPage();
  await dave.goto(link);
  await dave.click('[data-testid="join"]');
  await statusIs(alice, /Your move/);
  for (const p of [alice, dave]) await p.context().close();
});

test('players chat, report a message and mute the opponent; no chat against the computer', async () => {
  const [red, black] = await openRoomAndJoin('xiangqi');
  await red.waitForSelector('[data-testid="chat-input"]');
  await red.fill('[data-testid="chat-input"]', 'good luck');
  await red.click('[data-testid="chat-send"]');
  await black.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-text"]')].some((e) => e.textContent === 'good luck'));
  await red.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-text"]')].some((e) => e.textContent === 'good luck'));
  // One's own message has no report button; the opponent's has.
  assert.equal(await red.locator('[data-testid="chat-report"]').count(), 0);
  await black.click('[data-testid="chat-report"]');
  await black.waitForSelector('[data-testid="chat-reported"]');
  await black.click('[data-testid="chat-mute"]');
  await black.waitForSelector('[data-testid="chat-muted"]');
  await red.fill('[data-testid="chat-input"]', 'still there?');
  await red.click('[data-testid="chat-send"]');
  await red.waitForFunction(() => [...document.querySelectorAll('[data-testid="chat-text"]')].some((e) => e.textContent === 'still there?'));
  await black.waitForTimeout(500);
  assert.equal(await black.locator('[data-testid="chat-text"]', { hasText: 'still there?' }).count(), 0);
  // Too long a message is refused by the input's bound (200 characters).
  assert.equal(await red.locator('[data-testid="chat-input"]').getAttribute('maxlength'), '200');
  await red.context().close();
  await black.context().close();
  const solo = await newPage();
  await createGame(solo, { opponent: 'ai:1' });
  await solo.waitForSelector('[data-testid="status"]');
  assert.equal(await solo.locator('[data-testid="chat"]').isVisible(), false);
  assert.equal(await solo.locator('#chat').isHidden(), true);
  await solo.context().close();
});

const clickSq = (page, sq) => page.click(`[data-sq="${sq}"]`);

test('a premove is queued on the opponent\'s move, sent when the turn comes, cancelled by Escape or right-click, dropped when illegal', async () => {
  const [red, black] = await openRoomAndJoin('xiangqi');
  await statusIs(black, /Opponent's move/);
  await clickSq(black, 'h7');
  await clickSq(black, 'e7');
  await black.waitForSelector('[data-testid="premove"]:not([hidden])');
  assert.match(await black.locator('[data-testid="premove"]').textContent(), /h7e7/);
  assert.equal(await black.locator('[data-premove]').count(), 2);
  await move(red, 'h2', 'e2');
  // Black's premove goes by itself.
  await waitMoves(red, 2);
  await red.waitForSelector('[data-piece="e7"]');
  await black.waitForSelector('[data-testid="premove"][hidden]', { state: 'attached' });
  // Escape and a right-click cancel.
  await clickSq(black, 'b9');
  await clickSq(black, 'c7');
  await black.waitForSelector('[data-testid="premove"]:not([hidden])');
  await black.keyboard.press('Escape');
  await black.waitForSelector('[data-testid="premove"][hidden]', { state: 'attached' });
  await clickSq(black, 'b9');
  await clickSq(black, 'c7');
  await black.waitForSelector('[data-testid="premove"]:not([hidden])');
  await black.click('[data-sq="e5"]', { button: 'right' });
  await black.waitForSelector('[data-testid="premove"][hidden]', { state: 'attached' });
  assert.equal(await black.locator('[data-premove]').count(), 0);
  // e7e3 takes the pawn now; after e3e4 it is no longer legal and is dropped.
  await clickSq(black, 'e7');
  await clickSq(black, 'e3');
  await black.waitForSelector('[data-testid="premove"]:not([hidden])');
  await move(red, 'e3', 'e4');
  await black.waitForFunction(() => /e7e3/.test(document.querySelector('[data-testid="error"]').textContent));
  await statusIs(black, /Your move/);
  assert.equal(await moveCount(black), 3);
  await red.context().close();
  await black.context().close();
});
