// Browser tests of finding a game (issue 36): the lobby's pools pair two
// players in seconds; a game of one's starting opens on every page of
// one's (gameStart); challenges come as cards to accept or decline, the
// challenger's pending one can be cancelled; a waiting room is cancelled
// with its button.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base, newPage, createGame, statusIs } from './harness.mjs';

let n = 0;
const unique = (prefix) => `${prefix}${Date.now() % 100000}${n++}`;

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

const gameId = (page) => page.url().split('#/game/')[1];
const pool = (id) => `[data-testid="pool-${id}"]`;
// A pool button's two lines, joined: "1 waiting · 0 playing", "Waiting 0:03 · click to cancel".
const poolCounts = (page, id) => page.evaluate((sel) => [...document.querySelector(sel).children].map((e) => e.textContent).join(' · '), `${pool(id)} .pool-n`);
// (A page just opened may not have drawn its pools yet: no button is no match.)
const countsAre = (page, id, re) => page.waitForFunction(([sel, src]) => {
  const n = document.querySelector(sel);
  return n !== null && new RegExp(src).test([...n.children].map((e) => e.textContent).join(' · '));
}, [`${pool(id)} .pool-n`, re.source]);

/** Whether room `id` is withdrawn: gone, or (while the hall still holds it) over without a move. */
async function withdrawn(page, id) {
  const r = await page.request.get(`${base}/api/games/${id}`);
  if (r.status() === 404) return true;
  const g = await r.json();
  return g.status === 'finished' && g.plies === 0 && !g.result;
}

/** Challenges `name` from `page`'s create form; the room's id. */
async function challenge(page, name) {
  await page.selectOption('[data-testid="opponent"]', 'open');
  await page.fill('[data-testid="challenge-name"]', name);
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-testid="challenge-wait"]');
  return gameId(page);
}

test('two players who pick the same pool meet in the same game within seconds', async () => {
  const { page: a } = await registered('poola');
  const { page: b } = await registered('poolb');
  const id = 'xiangqi-5+3';
  await a.waitForSelector(pool(id));
  // The Xiangqi clocks come first; the other games are folded away.
  assert.equal(await a.locator(`${pool(id)} .pool-clock`).textContent(), '5+3');
  assert.equal(await a.locator('[data-testid="pools-more"]').getAttribute('open'), null);
  assert.equal(await a.locator('[data-testid="pools"] > .pool-row [data-pool]').first().getAttribute('data-pool'), 'xiangqi-1+0');
  await a.click(pool(id));
  await a.waitForSelector(`${pool(id)}[aria-pressed="true"]`);
  assert.match(await poolCounts(a, id), /^Waiting 0:0\d · click to cancel$/);
  // The other lobby counts the one waiting (the counts come with the next wave).
  await countsAre(b, id, /^1 waiting · 0 playing$/);
  const started = Date.now();
  await b.click(pool(id));
  await a.waitForURL(/#\/game\//, { timeout: 8000 });
  await b.waitForURL(/#\/game\//, { timeout: 8000 });
  assert.ok(Date.now() - started < 8000);
  assert.equal(gameId(a), gameId(b));
  await a.waitForSelector('[data-testid="clock-rule"]');
  assert.equal(await a.locator('[data-testid="clock-rule"]').textContent(), '5+3');
  const g = await (await a.request.get(`${base}/api/games/${gameId(a)}`)).json();
  assert.equal(g.rated, true);
  // One of them has the move.
  await a.waitForFunction(() => /Your move|Opponent's move/.test(document.querySelector('[data-testid="status"]').textContent));
  const moves = [await a.locator('[data-testid="status"]').textContent(), await b.locator('[data-testid="status"]').textContent()];
  assert.equal(moves.filter((s) => /Your move/.test(s)).length, 1, moves.join(' / '));
  // A third lobby shows them playing in that pool.
  const c = await newPage();
  await countsAre(c, id, /^0 waiting · 2 playing$/);
  for (const p of [a, b, c]) await p.context().close();
});

test('a guest waits in a pool, switches pools, leaves by a second click, and from another page through the tray', async () => {
  const page = await newPage('zh-CN');
  const waitingIn = async () => (await (await page.request.get(`${base}/api/pools`)).json()).waiting_in;
  await page.waitForSelector(pool('xiangqi-3+2'));
  assert.match(await page.locator('[data-testid="pools-hint"]').textContent(), /游客/);
  await page.click(pool('xiangqi-3+2'));
  await page.waitForSelector(`${pool('xiangqi-3+2')}[aria-pressed="true"]`);
  assert.match(await poolCounts(page, 'xiangqi-3+2'), /^等待中 0:0\d · 点击取消$/);
  assert.equal(await waitingIn(), 'xiangqi-3+2');
  // The seconds count.
  await countsAre(page, 'xiangqi-3+2', /^等待中 0:0[2-9]/);
  // Another pool switches; a per-move clock reads as seconds a move.
  await page.click('[data-testid="pools-more"] > summary');
  const perMove = page.locator('[data-testid="pools-more"] [data-pool^="banqi-"]').first();
  assert.match(await perMove.locator('.pool-clock').textContent(), /^\d+秒\/步$/);
  await page.click(pool('xiangqi-10+5'));
  await page.waitForSelector(`${pool('xiangqi-10+5')}[aria-pressed="true"]`);
  assert.equal(await page.locator('[data-pool][aria-pressed="true"]').count(), 1);
  assert.equal(await waitingIn(), 'xiangqi-10+5');
  // A second click leaves.
  await page.click(pool('xiangqi-10+5'));
  await page.waitForSelector(`${pool('xiangqi-10+5')}[aria-pressed="false"]`);
  assert.equal(await waitingIn(), undefined);
  // Waiting on, elsewhere: the tray says so and cancels.
  await page.click(pool('xiangqi-1+0'));
  await page.waitForSelector(`${pool('xiangqi-1+0')}[aria-pressed="true"]`);
  await page.click('a[href="#/rules"]');
  await page.waitForSelector('[data-testid="pool-wait"]');
  assert.match(await page.locator('[data-testid="pool-wait"]').textContent(), /正在匹配对手/);
  await page.click('[data-testid="pool-wait-cancel"]');
  await page.waitForSelector('[data-testid="pool-wait"]', { state: 'detached' });
  assert.equal(await waitingIn(), undefined);
  await page.context().close();
});

test('a challenge shows on the open lobby of the challenged at once; accepted, both pages open the game', async () => {
  const { page: a } = await registered('cha');
  const { page: b, name: bName } = await registered('chb');
  await b.evaluate(() => localStorage.setItem('qy-sound', 'on'));
  const id = await challenge(a, bName);
  // Back in the lobby the challenger sees it pending.
  await a.click('a[href="#/"]');
  await a.waitForSelector(`[data-testid="challenge-out-${id}"]`);
  // No reload: the card comes with the socket, with a sound.
  const card = `[data-testid="challenge-card-${id}"]`;
  await b.waitForSelector(card);
  const text = await b.locator(card).textContent();
  assert.match(text, /challenges you/);
  assert.match(text, /Xiangqi · 10\+5 · casual/);
  await b.waitForFunction(() => (window.__qySounds || []).includes('challenge'));
  await b.click(`[data-testid="challenge-accept-${id}"]`);
  await b.waitForURL(new RegExp(`#/game/${id}$`));
  // The challenger's lobby opens the game by itself.
  await a.waitForURL(new RegExp(`#/game/${id}$`));
  await statusIs(a, /Your move/);
  await statusIs(b, /Opponent's move/);
  assert.equal(await a.locator(`[data-testid="challenge-out-${id}"]`).count(), 0);
  assert.equal(await b.locator(card).count(), 0);
  for (const p of [a, b]) await p.context().close();
});

test('a declined challenge disappears on both sides; a cancelled one too', async () => {
  const { page: a } = await registered('dca');
  const { page: b, name: bName } = await registered('dcb', 'zh-CN');
  const id = await challenge(a, bName);
  await a.click('a[href="#/"]');
  await a.waitForSelector(`[data-testid="challenge-out-${id}"]`);
  await b.waitForSelector(`[data-testid="challenge-card-${id}"]`);
  assert.match(await b.locator(`[data-testid="challenge-card-${id}"]`).textContent(), /向你挑战/);
  await b.click(`[data-testid="challenge-decline-${id}"]`);
  await b.waitForSelector(`[data-testid="challenge-card-${id}"]`, { state: 'detached' });
  await a.waitForSelector(`[data-testid="challenge-out-${id}"]`, { state: 'detached' });
  await a.waitForFunction((n) => [...document.querySelectorAll('[data-testid="notice"]')].some((e) => e.textContent.includes(`${n} declined your challenge`)), bName);
  // The room is gone.
  assert.ok(await withdrawn(a, id));
  // The challenger withdraws the next one from the tray: the challenged user's card goes.
  const id2 = await challenge(a, bName);
  await b.waitForSelector(`[data-testid="challenge-card-${id2}"]`);
  await a.click('a[href="#/"]');
  await a.click(`[data-testid="challenge-cancel-${id2}"]`);
  await a.waitForSelector(`[data-testid="challenge-out-${id2}"]`, { state: 'detached' });
  await b.waitForSelector(`[data-testid="challenge-card-${id2}"]`, { state: 'detached' });
  await b.waitForFunction(() => [...document.querySelectorAll('[data-testid="notice"]')].some((e) => /撤回了挑战/.test(e.textContent)));
  for (const p of [a, b]) await p.context().close();
});

test('a waiting room is cancelled with its button, on its page and in my games', async () => {
  const a = await newPage();
  const other = await newPage();
  const id = await createGame(a);
  await other.waitForSelector(`[data-testid="join-${id}"]`);
  await a.click('[data-testid="cancel-room"]');
  await a.waitForFunction(() => location.hash === '#/');
  await a.waitForSelector('[data-testid="create-form"]');
  await other.waitForSelector(`[data-testid="join-${id}"]`, { state: 'detached' });
  assert.ok(await withdrawn(a, id));
  // From my games.
  const id2 = await createGame(a);
  await a.click('[data-testid="nav-my"]');
  await a.click(`[data-testid="cancel-room-${id2}"]`);
  await a.waitForSelector(`[data-testid="my-game-${id2}"]`, { state: 'detached' });
  assert.ok(await withdrawn(a, id2));
  for (const p of [a, other]) await p.context().close();
});

test('a rematch between two people opens the new game once on both pages', async () => {
  const a = await newPage();
  const id = await createGame(a);
  const b = await newPage();
  await b.click(`[data-testid="join-${id}"]`);
  await b.waitForURL(new RegExp(`#/game/${id}`));
  await statusIs(a, /Your move/);
  // Every page notes where it goes.
  for (const p of [a, b]) await p.evaluate(() => { window.__hashes = []; addEventListener('hashchange', () => window.__hashes.push(location.hash)); });
  await a.click('[data-testid="resign"]');
  await a.click('[data-testid="rematch"]');
  await b.waitForSelector('[data-testid="rematch"]:has-text("Accept rematch")');
  await b.click('[data-testid="rematch"]');
  await a.waitForURL((u) => /#\/game\//.test(u.hash) && !u.hash.endsWith(id));
  await b.waitForURL((u) => /#\/game\//.test(u.hash) && !u.hash.endsWith(id));
  assert.equal(gameId(a), gameId(b));
  await a.waitForSelector('[data-testid="board"] [data-piece]');
  await b.waitForSelector('[data-testid="board"] [data-piece]');
  await a.waitForTimeout(500);
  for (const p of [a, b]) assert.deepEqual(await p.evaluate(() => window.__hashes), [`#/game/${gameId(a)}`]);
  for (const p of [a, b]) await p.context().close();
});
