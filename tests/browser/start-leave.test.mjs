// Browser tests of starting and leaving a game (issue 36): the first move's
// countdown and the Abort button before both sides have moved; claiming the
// game once the opponent's page has gone; correspondence clocks in days; the
// BOT badge of bot accounts; open rooms kept to a rating range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base, newPage, openRoomAndJoin, move, waitMoves } from './harness.mjs';

let n = 0;
const unique = (prefix) => `${prefix}${Date.now() % 100000}${n++}`;
const text = (page, id) => page.locator(`[data-testid="${id}"]`).first().textContent();

/** A page of a newly registered user (through the login page), back on the lobby. */
async function registered(prefix, locale) {
  const page = await newPage(locale);
  const name = unique(prefix);
  await page.goto(base + '/#/login');
  await page.fill('[data-testid="username"]', name);
  await page.fill('[data-testid="password"]', 'secret123');
  await page.click('[data-testid="do-register"]');
  await page.waitForFunction((n) => document.querySelector('[data-testid="nav-user"]').textContent === n, name);
  await page.waitForSelector('[data-testid="create-form"]');
  return { page, name };
}

test('before the first move: a countdown for the side to move, and Abort ends the game on both pages', async () => {
  const [a, b] = await openRoomAndJoin('xiangqi');
  await a.waitForSelector('[data-testid="first-move"]');
  assert.match(await text(a, 'first-move'), /Make your first move within \d+ s/);
  await b.waitForSelector('[data-testid="first-move"]');
  assert.match(await text(b, 'first-move'), /has \d+ s to make a first move/);
  // It counts down on its own.
  const first = Number((await text(a, 'first-move')).match(/(\d+) s/)[1]);
  await a.waitForFunction((n) => Number(/(\d+) s/.exec(document.querySelector('[data-testid="first-move"]').textContent)[1]) < n, first);
  // Black may abort too, and still after red's first move.
  await a.waitForSelector('[data-testid="abort"]');
  await move(a, 'h2', 'e2');
  await waitMoves(b, 1);
  await b.waitForFunction(() => /Make your first move/.test(document.querySelector('[data-testid="first-move"]').textContent));
  await b.click('[data-testid="abort"]');
  for (const p of [a, b]) {
    await p.waitForSelector('[data-testid="result-head"]');
    assert.match(await text(p, 'result-head'), /Game aborted/);
    assert.equal(await p.locator('[data-testid="abort"]').count(), 0);
    assert.equal(await p.locator('[data-testid="first-move"]').count(), 0);
  }
  await a.context().close(); await b.context().close();
});

test('the Abort button is gone once both sides have moved', async () => {
  const [a, b] = await openRoomAndJoin('xiangqi');
  await move(a, 'h2', 'e2');
  await waitMoves(b, 1);
  await move(b, 'h9', 'g7');
  await waitMoves(a, 2);
  await a.waitForFunction(() => !document.querySelector('[data-testid="abort"]') && !document.querySelector('[data-testid="first-move"]'));
  assert.equal(await b.locator('[data-testid="abort"]').count(), 0);
  await a.context().close(); await b.context().close();
});

test('the opponent closes the page during their move: "opponent left", a countdown, then the win is claimed', async () => {
  // A 1-minute game: the opponent counts as gone after 10 s away.
  const a = await newPage();
  await a.selectOption('[data-testid="game-select"]', 'xiangqi');
  await a.selectOption('[data-testid="opponent"]', 'open');
  await a.fill('[data-testid="minutes"]', '1');
  await a.fill('[data-testid="increment"]', '0');
  await a.click('[data-testid="create"]');
  await a.waitForURL(/#\/game\//);
  const id = a.url().split('#/game/')[1];
  const b = await newPage();
  await b.click(`[data-testid="join-${id}"]`);
  await b.waitForURL(new RegExp(`#/game/${id}`));
  await move(a, 'h2', 'e2');
  await waitMoves(b, 1);
  await move(b, 'h9', 'g7');
  await waitMoves(a, 2);
  await move(a, 'b0', 'c2');
  await waitMoves(b, 3);
  await b.context().close();
  await a.waitForSelector('[data-testid="opponent-left"]', { timeout: 20000 });
  assert.match(await text(a, 'opponent-left'), /Your opponent has left/);
  // The countdown (if the poll came before the time was up), then the buttons.
  await a.waitForSelector('[data-testid="claim-win"]', { timeout: 20000 });
  assert.equal(await a.locator('[data-testid="claim-draw"]').count(), 1);
  await a.click('[data-testid="claim-win"]');
  await a.waitForSelector('[data-testid="result-head"]');
  assert.match(await text(a, 'result-head'), /You won/);
  assert.match(await text(a, 'result-reason'), /opponent left/);
  await a.context().close();
});

test('claiming needs the opponent gone: while they are there no notice shows', async () => {
  const [a, b] = await openRoomAndJoin('xiangqi');
  await move(a, 'h2', 'e2');
  await waitMoves(b, 1);
  // A poll while black is present and to move.
  await a.waitForTimeout(6000);
  assert.equal(await a.locator('[data-testid="opponent-left"]').count(), 0);
  await a.context().close(); await b.context().close();
});

test('a correspondence game from the form: days per move on the game page, the lobby and My games', async () => {
  const a = await newPage('zh-CN');
  await a.selectOption('[data-testid="game-select"]', 'xiangqi');
  await a.selectOption('[data-testid="opponent"]', 'open');
  assert.ok(await a.locator('[data-testid="minutes"]').isVisible());
  await a.selectOption('[data-testid="clock-type"]', 'days');
  assert.ok(!(await a.locator('[data-testid="minutes"]').isVisible()));
  await a.selectOption('[data-testid="days"]', '2');
  await a.click('[data-testid="create"]');
  await a.waitForURL(/#\/game\//);
  const id = a.url().split('#/game/')[1];
  await a.waitForFunction(() => (document.querySelector('[data-testid="clock-rule"]') || {}).textContent === '2天/步');
  // Its clocks count days and hours.
  await a.waitForFunction(() => document.querySelector('[data-testid="clock-bottom"]').textContent === '2天 0小时');
  const b = await newPage();
  await b.waitForSelector(`[data-testid="join-${id}"]`);
  assert.match(await b.locator(`tr:has([data-testid="join-${id}"])`).textContent(), /2 days\/move/);
  await b.click(`[data-testid="join-${id}"]`);
  await b.waitForURL(new RegExp(`#/game/${id}`));
  await b.waitForFunction(() => /^2d \d+h$/.test(document.querySelector('[data-testid="clock-top"]').textContent));
  await b.goto(base + '/#/my');
  await b.waitForSelector(`[data-testid="my-game-${id}"]`);
  assert.match(await b.locator(`[data-testid="my-game-${id}"]`).textContent(), /2 days\/move/);
  await a.context().close(); await b.context().close();
});

test('a bot account: turned into one from its profile, BOT by its name in the lobby and on the game page', async () => {
  const { page: bot, name } = await registered('bot');
  await bot.goto(base + `/#/user/${name}`);
  await bot.click('[data-testid="make-bot"]');
  await bot.waitForSelector('h2 [data-testid="bot-badge"]');
  assert.equal(await bot.locator('[data-testid="make-bot"]').count(), 0);
  // The bot seeks a game (as it would through the API); a person joins it from the lobby.
  const r = await bot.request.post(`${base}/api/games`, { data: { game: 'xiangqi', opponent: 'open', clock: { initial_s: 600, increment_s: 5 } } });
  assert.equal(r.status(), 201);
  const { id } = await r.json();
  const b = await newPage();
  await b.waitForSelector(`tr:has([data-testid="join-${id}"]) [data-testid="bot-badge"]`);
  await b.click(`[data-testid="join-${id}"]`);
  await b.waitForURL(new RegExp(`#/game/${id}`));
  await b.waitForSelector('#top-name [data-testid="bot-badge"]');
  assert.equal(await b.locator('#bot-name [data-testid="bot-badge"]').count(), 0);
  await bot.context().close(); await b.context().close();
});

test('an open room with a rating range: greyed with its join button off for a player outside it', async () => {
  const { page: a } = await registered('seek');
  await a.selectOption('[data-testid="game-select"]', 'xiangqi');
  await a.selectOption('[data-testid="opponent"]', 'open');
  await a.fill('[data-testid="range-min"]', '1500');
  await a.fill('[data-testid="range-max"]', '100');
  await a.click('[data-testid="create"]');
  assert.match(await text(a, 'create-error'), /rating range/);
  await a.fill('[data-testid="range-max"]', '1800');
  await a.click('[data-testid="create"]');
  await a.waitForURL(/#\/game\//);
  const id = a.url().split('#/game/')[1];
  // A newcomer (rating 1000) sees the room, greyed, with the range.
  const { page: b } = await registered('low');
  const row = b.locator(`tr:has([data-testid="join-${id}"])`);
  await b.waitForSelector(`tr.out-of-range:has([data-testid="join-${id}"])`);
  assert.match(await row.textContent(), /ratings 1500–1800/);
  assert.ok(await b.locator(`[data-testid="join-${id}"]`).isDisabled());
  // A room without a range stays open to all.
  const r = await a.request.post(`${base}/api/games`, { data: { game: 'xiangqi', opponent: 'open', clock: { initial_s: 300, increment_s: 0 } } });
  const other = (await r.json()).id;
  await b.waitForSelector(`[data-testid="join-${other}"]`);
  assert.ok(await b.locator(`[data-testid="join-${other}"]`).isEnabled());
  await a.context().close(); await b.context().close();
});
