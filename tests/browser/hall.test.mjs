// Browser tests of the hall page: a real `qiyuan serve` on an ephemeral port,
// Debian's chromium driven by playwright-core (never a downloaded browser).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveWeb, webArgs } from './web-override.mjs';

const BIN = process.env.QIYUAN_BIN || join(process.cwd(), '../../target/debug/qiyuan');
let server, base, browser;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'qiyuan-browser-'));
  server = spawn(BIN, ['serve', '--port', '0', '--database', `sqlite://${join(dir, 'hall.db')}`, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start')), 20000);
    server.stdout.on('data', (d) => {
      const m = /listening on (http:\/\/\S+)/.exec(String(d));
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const executablePath = execSync('command -v chromium').toString().trim();
  browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...webArgs],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
});

async function newPage(locale = 'en-US') {
  const ctx = await browser.newContext({ locale, viewport: { width: 900, height: 1000 } });
  await serveWeb(ctx);
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  page.setDefaultTimeout(15000);
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  return page;
}

async function createGame(page, { game = 'xiangqi', opponent = 'open' } = {}) {
  await page.selectOption('[data-testid="game-select"]', game);
  await page.selectOption('[data-testid="opponent"]', opponent);
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-piece="e0"]');
  return page.url().split('#/game/')[1];
}

async function move(page, from, to) {
  await page.click(`[data-sq="${from}"]`);
  await page.waitForSelector(`[data-target="${to}"]`);
  await page.click(`[data-sq="${to}"]`);
}

const moveCount = (page) => page.locator('[data-testid="moves"] td[data-ply]').count();

async function waitMoves(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] td[data-ply]').length >= n, n);
}

test('two people play a short game by clicking', async () => {
  const red = await newPage();
  const id = await createGame(red);
  const black = await newPage();
  await black.click(`[data-testid="join-${id}"]`);
  await black.waitForURL(new RegExp(`#/game/${id}`));
  await red.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await move(red, 'h2', 'e2');
  await waitMoves(black, 1);
  // The last move is highlighted on the other board.
  await black.waitForSelector('[data-last="e2"]');
  await move(black, 'h9', 'g7');
  await waitMoves(red, 2);
  assert.equal(await moveCount(red), 2);
  // Switch the move list to Chinese notation.
  await red.selectOption('[data-testid="notation"]', 'chinese');
  assert.match(await red.locator('[data-testid="moves"]').textContent(), /炮二平五/);
  await red.click('[data-testid="resign"]');
  await black.waitForFunction(() => /Black wins/.test(document.querySelector('[data-testid="status"]').textContent));
  await red.context().close();
  await black.context().close();
});

test('a Jifen game shows a class change and the scores', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  assert.match(await page.locator('[data-testid="scores"]').textContent(), /0\s*:\s*0\s*\/\s*30/);
  await move(page, 'h2', 'e2');
  // Two legal versions of the move: keep the class or turn Idle.
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.click('[data-testid="class-*"]');
  await page.waitForSelector('[data-piece="e2"][data-class="idle"]');
  // The AI answers; then the Idle cannon moves and red scores a point.
  await waitMoves(page, 2);
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await page.click('[data-sq="e2"]');
  const target = await page.locator('[data-target]').first().getAttribute('data-target');
  await page.click(`[data-sq="${target}"]`);
  const chooser = await page.locator('[data-testid="class-chooser"]').count();
  if (chooser) await page.click('[data-testid="class-keep"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="score-red"]').textContent === '1');
  await page.context().close();
});

test('a game against AI level 1', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await move(page, 'b2', 'e2');
  await waitMoves(page, 2);
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  assert.ok((await moveCount(page)) >= 2);
  await page.context().close();
});

test('English and Chinese: default from the browser, switchable', async () => {
  const page = await newPage('zh-CN');
  assert.match(await page.locator('nav').textContent(), /大厅/);
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /Lobby/.test(document.querySelector('nav').textContent));
  assert.match(await page.locator('[data-testid="create"]').textContent(), /Create game/);
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /创建对局/.test(document.querySelector('[data-testid="create"]').textContent));
  await page.context().close();
});

test('a rated game moves the rating: title on the leaderboard, chart on the profile', async () => {
  const page = await newPage();
  const name = `rated${Date.now() % 100000}`;
  const r = await page.request.post(base + '/api/register', { data: { username: name, password: 'secret123' } });
  assert.equal(r.status(), 200);
  const { token } = await r.json();
  const auth = { Authorization: `Bearer ${token}` };
  const g = await (await page.request.post(base + '/api/games', { headers: auth, data: { game: 'xiangqi', opponent: 'ai:1', rated: true } })).json();
  assert.equal((await page.request.post(base + `/api/games/${g.id}/resign`, { headers: auth })).status(), 200);
  // Rated against AI level 1's fixed rating (800): 1000 - 40 * 0.76 = 970, still 草民.
  // Ratings are applied by a background task once the game has ended: wait for it.
  for (let i = 0; i < 50; i++) {
    const lb = await page.request.get(base + '/api/leaderboard/xiangqi');
    if ((await lb.text()).includes(name)) break;
    await page.waitForTimeout(200);
  }
  await page.goto(base + '/#/leaderboard/xiangqi');
  await page.waitForSelector(`[data-testid="leaderboard"] >> text=${name}`);
  assert.match(await page.locator('[data-testid="leaderboard"] [data-testid="rank-title"]').first().textContent(), /草民 Commoner · 970/);
  await page.goto(base + `/#/user/${name}`);
  await page.waitForSelector('[data-testid="rating-chart"]');
  await page.context().close();
});

// Player a opens a room of `game` for anyone from the lobby's form; player b
// joins it from the lobby. Both pages end on the game.
async function openRoomAndJoin(game) {
  const a = await newPage();
  await a.selectOption('[data-testid="game-select"]', game);
  await a.selectOption('[data-testid="opponent"]', 'open');
  await a.click('[data-testid="create"]');
  await a.waitForURL(/#\/game\//);
  const id = a.url().split('#/game/')[1];
  const b = await newPage();
  await b.click(`[data-testid="join-${id}"]`);
  await b.waitForURL(new RegExp(`#/game/${id}`));
  return [a, b, id];
}

test('a Banqi game shows 32 face-down pieces and a flip turns one over', async () => {
  const [a, b] = await openRoomAndJoin('banqi');
  const faceDown = (page, n) => page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="face-down"]').length === n, n);
  await faceDown(a, 32);
  await faceDown(b, 32);
  // The server draws who flips first; that player clicks a face-down piece.
  const myMove = (p) => p.evaluate(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  let mover = null;
  for (let i = 0; i < 75 && !mover; i++) {
    if (await myMove(a)) mover = a;
    else if (await myMove(b)) mover = b;
    else await a.waitForTimeout(200);
  }
  assert.ok(mover, 'one of the players is to move');
  await mover.click('[data-sq="a1"]');
  await faceDown(a, 31);
  await faceDown(b, 31);
  // The flipped piece is shown with its identity on both boards.
  assert.equal(await a.locator('[data-sq="a1"] [data-piece]').count(), 1);
  await a.context().close();
  await b.context().close();
});

test('an invitation waits in the lobby until accepted; set-up rooms are marked; sessions on the profile', async () => {
  const org = await newPage();
  const inv = await newPage();
  const stamp = Date.now() % 100000;
  const reg = async (page, username) => {
    const r = await page.request.post(base + '/api/register', { data: { username, password: 'secret123' } });
    assert.equal(r.status(), 200);
    return { Authorization: `Bearer ${(await r.json()).token}` };
  };
  const orgAuth = await reg(org, `org${stamp}`);
  const name = `inv${stamp}`;
  await reg(inv, name);
  const ev = await (await org.request.post(base + '/api/events', {
    headers: orgAuth,
    data: { name: `Cup ${stamp}`, game: 'xiangqi', format: { kind: 'round_robin', cycles: 1 }, players: [`org${stamp}`, name] },
  })).json();
  assert.deepEqual(ev.invited, [name]);
  // A room from a set-up position, listed with its mark.
  const setup = await org.request.post(base + '/api/games', { headers: orgAuth, data: { game: 'xiangqi', fen: '3k5/9/9/9/9/9/9/9/4R4/4K4 w' } });
  assert.equal(setup.status(), 201);
  await inv.goto(base + '/');
  await inv.waitForSelector(`[data-testid="invitations"] >> text=Cup ${stamp}`);
  await inv.waitForSelector('[data-testid="setup-mark"]');
  await inv.screenshot({ path: join(tmpdir(), 'qiyuan-invitation.png'), fullPage: true });
  await inv.click('[data-testid="invitations"] button[data-yes]');
  await inv.waitForSelector('[data-testid="invitations"]', { state: 'hidden' });
  const after = await (await inv.request.get(base + `/api/events/${ev.id}`)).json();
  assert.deepEqual(after.players, [`org${stamp}`, name]);
  // One's own sessions, this one marked.
  await inv.goto(base + `/#/user/${name}`);
  await inv.waitForSelector('[data-testid="sessions"] >> text=this device');
  await org.context().close();
  await inv.context().close();
});

test('a two-player Tiaoqi game is played by clicking, with a jump chain', async () => {
  const [a, b] = await openRoomAndJoin('tiaoqi');
  const filled = (page, cell, colour) => page.waitForFunction(
    ([cell, colour]) => document.querySelector(`[data-cell="${cell}"]`)?.getAttribute('fill') === colour, [cell, colour]);
  // The star has 121 holes; a (south, red) moves first.
  await a.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
  await a.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  // A single jump: clicking the piece marks every hole it can reach.
  await a.click('[data-cell="3.1"]');
  await a.waitForSelector('[data-cell="5.5"][data-target]');
  await a.click('[data-cell="5.5"]');
  await filled(b, '5.5', '#d33');
  await b.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await b.click('[data-cell="14.1"]');
  await b.click('[data-cell="13.5"]');
  await filled(a, '13.5', '#2a4');
  // A chain of two hops from the back row: 1.1-3.1-5.7.
  await a.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await a.click('[data-cell="1.1"]');
  await a.click('[data-cell="5.7"]');
  await filled(b, '5.7', '#d33');
  await b.waitForSelector('[data-testid="moves"] >> text=1.1-3.1-5.7');
  await a.context().close();
  await b.context().close();
});
