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
  // Sounds are off in tests unless a test turns them on.
  await ctx.addInitScript(() => { if (!localStorage.getItem('qy-sound')) localStorage.setItem('qy-sound', 'off'); });
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

const moveCount = (page) => page.locator('[data-testid="moves"] [data-ply]').count();

async function waitMoves(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= n, n);
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
  // The score says whose is whose, and the target.
  const scores = await page.locator('[data-testid="scores"]').textContent();
  assert.match(scores, /Red.*0\s*:\s*0\s*Black.*first to 30/s);
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
  // The move list says what happened, in words.
  await a.waitForSelector('[data-testid="moves"] [data-ply="1"] >> text=flip a1');
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

// A Tiaoqi room against the AI, from the lobby's form; the page is on the game.
async function tiaoqiVsAi(page, game, level = 'ai:1') {
  await page.selectOption('[data-testid="game-select"]', game);
  await page.selectOption('[data-testid="opponent"]', level);
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
  return page.url().split('#/game/')[1];
}

const yourMove = (page) => page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));

// Counts the move animations the board starts (its layer is short-lived).
const countAnimations = (page) => page.evaluate(() => {
  window.__anims = 0;
  new MutationObserver((list) => {
    for (const m of list) for (const n of m.addedNodes) if (n.classList && n.classList.contains('tq-anim')) window.__anims++;
  }).observe(document.querySelector('[data-testid="board"]'), { childList: true, subtree: true });
});

test('Tiaoqi: hovering a target draws its jump path hop by hop; moves are animated', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi');
  // The own camp and the target are marked and labelled.
  await page.waitForSelector('[data-testid="own-camp"][data-camp="a"]');
  await page.waitForSelector('[data-testid="target-camp"][data-camp="d"]');
  assert.equal(await page.locator('[data-testid="own-camp-label"]').textContent(), 'Your camp');
  await yourMove(page);
  await countAnimations(page);
  await page.click('[data-cell="3.1"]');
  await page.hover('[data-cell="5.5"]');
  const one = page.locator('[data-testid="jump-path"]');
  assert.equal(await one.getAttribute('data-path'), '3.1-5.5');
  await page.click('[data-cell="5.5"]');
  await waitMoves(page, 2);
  await yourMove(page);
  // Both the own move and the AI's answer were animated.
  await page.waitForFunction(() => window.__anims >= 2);
  // Now 1.1 has a chain of two hops over 2.1 and 4.2 to 5.7.
  await page.click('[data-cell="1.1"]');
  await page.waitForSelector('[data-cell="5.7"][data-target]');
  await page.hover('[data-cell="5.7"]');
  const path = page.locator('[data-testid="jump-path"]');
  assert.equal(await path.getAttribute('data-path'), '1.1-3.1-5.7');
  assert.equal(await path.getAttribute('data-hops'), '2');
  assert.equal((await path.getAttribute('points')).trim().split(/\s+/).length, 3);
  // Leaving the target takes the path away.
  await page.hover('[data-cell="9.5"]');
  await page.waitForSelector('[data-testid="jump-path"]', { state: 'detached' });
  await page.click('[data-cell="1.1"]');
  await page.context().close();
});

test('Tiaoqi on a phone: the board fits, the first tap on a target shows its path, the second plays it', async () => {
  const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await serveWeb(ctx);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  await tiaoqiVsAi(page, 'tiaoqi-6');
  const box = await page.locator('[data-testid="board"]').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the board fits the width: ${JSON.stringify(box)}`);
  // Holes are far enough apart to be hit by a finger.
  const a = await page.locator('[data-cell="5.5"]').boundingBox(), b = await page.locator('[data-cell="5.6"]').boundingBox();
  assert.ok(b.x - a.x >= 24, `holes ${b.x - a.x}px apart`);
  await yourMove(page);
  await page.tap('[data-cell="3.1"]');
  await page.tap('[data-cell="5.5"]');
  await page.waitForSelector('[data-testid="jump-path"][data-path="3.1-5.5"]');
  await page.waitForSelector('[data-testid="tap-again"]');
  assert.equal(await moveCount(page), 0);
  await page.tap('[data-cell="5.5"]');
  await page.waitForFunction(() => document.querySelector('[data-cell="5.5"]').getAttribute('fill') === '#d33');
  await ctx.close();
});

test('a three-seat Tiaoqi game lists every seat with its distance left', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi-3');
  for (const l of ['a', 'c', 'e']) {
    const seat = page.locator(`[data-testid="seat-${l}"]`);
    assert.match(await seat.textContent(), l === 'a' ? /\(you\)/ : /AI 1/);
    assert.equal(await page.locator(`[data-testid="to-go-${l}"]`).textContent(), '140');
  }
  assert.equal(await page.locator('[data-testid="seats"] [data-clock-seat]').count(), 3);
  assert.equal(await page.locator('[data-testid="seat-b"]').count(), 0);
  await yourMove(page);
  await page.click('[data-cell="3.1"]');
  await page.click('[data-cell="5.5"]');
  // Two rows gained; c and e answer, then it is a's turn again.
  await page.waitForFunction(() => document.querySelector('[data-testid="to-go-a"]').textContent === '138');
  await waitMoves(page, 3);
  await yourMove(page);
  for (const l of ['c', 'e']) assert.ok(Number(await page.locator(`[data-testid="to-go-${l}"]`).textContent()) < 140);
  assert.match(await page.locator('[data-testid="seat-a"]').getAttribute('class'), /turn/);
  // The move list names each move's mover.
  assert.equal(await page.locator('[data-testid="moves"] td[data-ply="2"] .tq-swatch').textContent(), 'c');
  // Replaying the first move shows the board after it.
  await page.click('[data-testid="moves"] td[data-ply="1"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="to-go-c"]').textContent === '140');
  assert.equal(await page.locator('[data-cell="5.5"]').getAttribute('fill'), '#d33');
  await page.context().close();
});

test('Tiaoqi: the finishing order once the game is over, in English and Chinese', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi');
  await yourMove(page);
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="finish-order"]');
  assert.match(await page.locator('[data-testid="finish-place-1"]').textContent(), /1st\s*d\s*AI 1/);
  assert.match(await page.locator('[data-testid="finish-place-2"]').textContent(), /2nd\s*a.*\(you\)/);
  assert.match(await page.locator('[data-testid="status"]').textContent(), /d \(AI 1\) wins/);
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="finish-order"] >> text=名次');
  assert.match(await page.locator('[data-testid="finish-place-1"]').textContent(), /第1名/);
  await page.context().close();
});

test('Tiaoqi: the server\'s progress (dead-game countdown, places, out) is shown per seat', async () => {
  // The module renders a state as the server sends it; this one is made up.
  const page = await newPage();
  const html = await page.evaluate(async () => {
    const m = await import('/static/games/tiaoqi.js');
    const i18n = await import('/static/i18n.js');
    const state = {
      id: 'x', game: 'tiaoqi-4', status: 'playing', seat: 0, to_move: 1, records: [],
      fen: 'd/dd/ddd/dddd/cccc........./ccc........./cc........./c........./........./........../.........../............/............./aaaa/aaa/aa/a c acd',
      seats: [{ kind: 'user', name: 'me' }, { kind: 'ai', level: 2 }, { kind: 'ai', level: 3 }, { kind: 'ai', level: 4 }],
      progress: { seats: [{ to_go: 140, countdown: 4, place: null, out: false }, { to_go: 140, countdown: 2, place: null, out: false }, { to_go: 20, countdown: null, place: 1, out: false }, { to_go: null, countdown: null, place: null, out: true }], dead_game: true, quiet_left: null },
    };
    const ctx = { t: i18n.t, esc: (s) => String(s), seatLabel: (s) => (s.kind === 'ai' ? `AI ${s.level}` : s.name), titleSlot: () => '', replayPly: null, fen: state.fen };
    return { seats: m.seats(state, ctx), info: m.info(state, i18n.t, ctx), quiet: m.info({ ...state, progress: { ...state.progress, dead_game: false, quiet_left: 3 } }, i18n.t, ctx) };
  });
  await page.setContent(`<div id="s">${html.seats}</div><div id="i">${html.info}</div><div id="q">${html.quiet}</div>`);
  assert.match(await page.locator('[data-testid="countdown-a"]').textContent(), /4 moves left/);
  assert.match(await page.locator('[data-testid="countdown-c"]').textContent(), /2 moves left/);
  assert.equal(await page.locator('[data-testid="place-mark-d"]').textContent(), '1st');
  assert.equal(await page.locator('[data-testid="out-mark-f"]').textContent(), 'out');
  assert.equal(await page.locator('[data-testid="to-go-d"]').textContent(), '20');
  assert.match(await page.locator('#i [data-testid="dead-game"]').textContent(), /Dead game/);
  assert.match(await page.locator('#q [data-testid="quiet-left"]').textContent(), /3 rounds/);
  await page.context().close();
});

test('the leaderboard page reaches the multi-player Tiaoqi board', async () => {
  const page = await newPage();
  await page.click('[data-testid="nav-leaderboard"]');
  await page.click('[data-testid="lb-tab-tiaoqi-multi"]');
  await page.waitForURL(/#\/leaderboard\/tiaoqi-multi/);
  await page.waitForFunction(() => !/…/.test(document.getElementById('lb').textContent));
  assert.equal(await page.locator('#lb .err').count(), 0);
  assert.match(await page.locator('a.cur').textContent(), /3-6 players/);
  const r = await page.request.get(base + '/api/leaderboard/tiaoqi-multi');
  assert.equal(r.status(), 200);
  await page.context().close();
});

test('Tiaoqi: a player who resigns a three-seat game is out, and the others play on', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi-3');
  await yourMove(page);
  await page.click('[data-cell="3.1"]');
  await page.click('[data-cell="5.5"]');
  await waitMoves(page, 3);
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="out-mark-a"]');
  assert.match(await page.locator('[data-testid="seat-a"]').getAttribute('class'), /\bout\b/);
  // Level-1 AI seats may finish the game within the same second.
  assert.match(await page.locator('[data-testid="status"]').textContent(), /You are out|wins/);
  assert.equal(await page.locator('[data-testid="resign"]').count(), 0);
  // a's pieces left the board; c and e still have their ten each.
  await page.waitForFunction(() => ![...document.querySelectorAll('[data-cell]')].some((c) => c.getAttribute('fill') === '#d33'));
  assert.equal(await page.locator('[data-testid="to-go-a"]').textContent(), '—');
  assert.ok(Number(await page.locator('[data-testid="to-go-c"]').textContent()) > 0);
  // The record names who resigned.
  const last = page.locator('[data-testid="moves"] td[data-ply]', { hasText: 'resign' });
  assert.equal(await last.locator('.tq-swatch').textContent(), 'a');
  await page.context().close();
});

// ---------------------------------------------------------------- issue 18: the game page

const statusText = (page) => page.locator('[data-testid="status"]').textContent();
const waitStatus = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="status"]').textContent), re.source);

// A move that may ask for the Jifen class: the class is kept.
async function jifenMove(page, from, to) {
  await move(page, from, to);
  await page.waitForFunction(() => document.querySelector('[data-testid="class-chooser"]') || document.querySelector('[data-testid="status"]').textContent.length);
  if (await page.locator('[data-testid="class-keep"]').count()) await page.click('[data-testid="class-keep"]');
}

test('Jifen contest: a double turn is one entry of two moves in its own column', async () => {
  // Records as the server sent them in a contest game: red's single first
  // turn, then black's double turn (a move, then a capture).
  const page = await newPage();
  const html = await page.evaluate(async () => {
    const { moveRows } = await import('/static/movelist.js');
    const state = { game: 'jifen-contest', records: [
      { iccs: 'h2e2', wxf: 'C2.5', fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1 0 1 1 -', scores: [0, 1] },
      { iccs: 'h7h2', wxf: 'C8+5', fen: 'rnbakabnr/9/1c7/p1p1p1p1p/9/9/P1P1P1P1P/1C2C2c1/9/RNBAKABNR b - - 0 1 1 1 2 -', scores: [1, 1] },
      { iccs: 'h2b2', wxf: 'C8.2', fen: 'rnbakabnr/9/1c7/p1p1p1p1p/9/9/P1P1P1P1P/1c2C4/9/RNBAKABNR w - - 0 2 2 1 1 x', scores: [2, 1] },
      { iccs: 'e2e6', wxf: 'C5+4', fen: 'rnbakabnr/9/1c7/p1p1C1p1p/9/9/P1P1P1P1P/1c7/9/RNBAKABNR b - - 0 2 2 2 1 x', scores: [2, 2] },
    ] };
    return moveRows(state, null, (s) => String(s), 'iccs');
  });
  await page.setContent(`<table data-testid="moves">${html}</table>`);
  const rows = page.locator('tr');
  assert.equal(await rows.count(), 2);
  const black = rows.nth(0).locator('td.turn[data-side="1"]');
  assert.equal(await black.getAttribute('data-testid'), 'double-turn');
  assert.deepEqual(await black.locator('[data-ply]').evaluateAll((e) => e.map((x) => x.dataset.ply)), ['2', '3']);
  assert.match(await rows.nth(0).locator('td.turn[data-side="0"]').textContent(), /^h2e2/);
  assert.match(await rows.nth(1).locator('td.turn[data-side="0"]').textContent(), /^e2e6/);
  // A live game against the AI: every row is Red's turn then Black's, never a move in the wrong column.
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  await createGame(page, { game: 'jifen-contest', opponent: 'ai:1' });
  await jifenMove(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await waitStatus(page, /Your move/);
  const live = await page.$$eval('[data-testid="moves"] tr', (rs) => rs.map((r) => [...r.querySelectorAll('td.turn')].map((td) => td.dataset.side).join('')));
  for (const c of live) assert.ok(c === '01' || c === '0', `columns ${c}`);
  await page.context().close();
});

test('the Jifen class chooser can be cancelled with Escape or a click beside it', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  await move(page, 'h2', 'e2');
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="class-chooser"]', { state: 'detached' });
  await move(page, 'h2', 'e2');
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.mouse.click(5, 400);
  await page.waitForSelector('[data-testid="class-chooser"]', { state: 'detached' });
  assert.equal(await moveCount(page), 0, 'nothing was played');
  assert.equal(await page.locator('[data-piece="h2"]').count(), 1);
  await page.context().close();
});

test('the result panel speaks the UI\'s language only, with rematch and new game; profiles translate the reason', async () => {
  const page = await newPage();
  const id = await createGame(page, { opponent: 'ai:1' });
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="result-panel"]');
  const panel = page.locator('[data-testid="result-panel"]');
  assert.match(await page.locator('[data-testid="result-head"]').textContent(), /You lost · Black wins/);
  assert.equal(await page.locator('[data-testid="result-reason"]').textContent(), 'resignation');
  assert.doesNotMatch(await panel.textContent(), /[\u4e00-\u9fff]/, 'no Chinese in the English UI');
  assert.doesNotMatch(await statusText(page), /[\u4e00-\u9fff]/);
  await page.waitForSelector('[data-testid="rematch"]');
  await page.waitForSelector('[data-testid="new-game"]');
  // No rating line in an unrated game.
  assert.equal(await page.locator('[data-testid="rating-change"]').count(), 0);
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="result-reason"] >> text=认输');
  assert.doesNotMatch(await page.locator('[data-testid="result-panel"]').textContent(), /[a-z]{4,}/, 'no English in the Chinese UI');
  // New game: back to the form, set for the same game.
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="create-form"]');
  assert.equal(await page.inputValue('[data-testid="opponent"]'), 'ai:1');
  const me = await page.evaluate(async () => (await fetch('/api/me')).json());
  await page.goto(base + `/#/user/${me.username}`);
  await page.waitForSelector(`a[href="#/game/${id}"]`);
  assert.match(await page.locator('[data-testid="history-reason"]').first().textContent(), /认输/);
  await page.context().close();
});

test('a rated game\'s result panel shows the rating change, and the badges beside the names are fresh', async () => {
  const page = await newPage();
  const name = `rc${Date.now() % 100000}`;
  await page.request.post(base + '/api/register', { data: { username: name, password: 'secret123' } });
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="rated"]:not([disabled])');
  await page.check('[data-testid="rated"]');
  const id = await createGame(page, { opponent: 'ai:1' });
  await page.waitForSelector('.board-wrap [data-testid="rank-title"] >> text=1000');
  // Whether or not the server has the endpoint yet, the page gets a made-up answer here.
  let asked = 0;
  await page.route(`**/api/games/${id}/ratings`, (route) => {
    asked++;
    const changes = asked < 2 ? [] : [{ seat: 0, username: name, family: 'xiangqi', before: 1000, after: 970, title: '草民', title_en: 'Commoner' }];
    return route.fulfill({ json: { rated: true, changes } });
  });
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="rating-change"]');
  assert.match(await page.locator('[data-testid="rating-change"]').textContent(), new RegExp(`${name}: 1000 → 970 \\(−30\\)`));
  assert.ok(asked >= 2, 'empty changes are asked again');
  // The badge beside the name follows the new rating (the server's, once computed).
  await page.waitForSelector('.board-wrap [data-testid="rank-title"] >> text=970', { timeout: 20000 });
  await page.context().close();
});

test('Rematch from the result panel starts the next game against the AI', async () => {
  const page = await newPage();
  const id = await createGame(page, { opponent: 'ai:1' });
  await page.click('[data-testid="resign"]');
  await page.click('[data-testid="rematch"]');
  await page.waitForFunction((id) => /#\/game\//.test(location.hash) && !location.hash.endsWith(id), id);
  await page.waitForSelector('[data-testid="board"] [data-piece]');
  assert.equal(await page.locator('[data-testid="result-panel"]').count(), 0);
  await page.context().close();
});

test('a missing ratings endpoint shows no rating line', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await page.route('**/api/games/*/ratings', (route) => route.fulfill({ status: 404, json: { error: 'no such route' } }));
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="result-panel"]');
  await page.waitForTimeout(500);
  assert.equal(await page.locator('[data-testid="rating-change"]').count(), 0);
  await page.context().close();
});

test('a draw offer arrives with a message; the offerer sees it pending, then declined', async () => {
  const red = await newPage();
  const id = await createGame(red);
  const black = await newPage();
  await black.click(`[data-testid="join-${id}"]`);
  await waitStatus(red, /Your move/);
  const redName = await red.evaluate(async () => (await (await fetch('/api/me')).json()).username);
  await red.click('[data-testid="offer-draw"]');
  await red.waitForSelector('[data-testid="draw-pending"]');
  await black.waitForSelector('[data-testid="draw-offer"]');
  assert.match(await black.locator('[data-testid="draw-offer"]').textContent(), new RegExp(`${redName} offers a draw`));
  await black.click('[data-testid="decline-draw"]');
  await red.waitForSelector('[data-testid="draw-declined"]');
  assert.match(await red.locator('[data-testid="draw-declined"]').textContent(), /declined/);
  await black.waitForSelector('[data-testid="draw-offer"]', { state: 'detached' });
  await red.context().close();
  await black.context().close();
});

test('coordinates on the boards follow the flip and the notation', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  const bottomLeft = () => page.evaluate(() => {
    const xs = [...document.querySelectorAll('[data-testid="coords"] text')].filter((t) => /^[a-i]$/.test(t.textContent));
    return xs.sort((a, b) => a.getBBox().x - b.getBBox().x)[0].textContent;
  });
  assert.equal(await page.locator('[data-testid="coords"] text').count(), 19);
  assert.equal(await bottomLeft(), 'a');
  await page.click('[data-testid="flip"]');
  assert.equal(await bottomLeft(), 'i');
  await page.click('[data-testid="flip"]');
  await page.selectOption('[data-testid="notation"]', 'wxf');
  await page.waitForSelector('[data-testid="coords"][data-style="wxf"]');
  // Red's file 1 is its rightmost (file i); Black's 1 is file a.
  const pos = (c) => page.locator(`[data-coord="${c}"]`).boundingBox();
  assert.ok((await pos('red-1')).x > (await pos('red-9')).x);
  assert.ok((await pos('black-1')).x < (await pos('black-9')).x);
  await page.selectOption('[data-testid="notation"]', 'iccs');
  await page.context().close();
});

test('Banqi: coordinates, "30 s a move", a Turn-board button, timeout marks explained, a rules section', async () => {
  const page = await newPage();
  await createGame(page, { game: 'banqi', opponent: 'ai:1' }).catch(() => {});
  await page.waitForSelector('[data-testid="face-down"]');
  assert.equal(await page.locator('[data-testid="coords"] text').count(), 12);
  assert.equal(await page.locator('[data-testid="clock-rule"]').textContent(), '30 s a move');
  assert.equal(await page.locator('[data-testid="flip"]').textContent(), 'Turn board');
  assert.match(await page.locator('[data-testid="timeout-marks-about"]').textContent(), /third mark loses/);
  assert.equal(await page.locator('[data-testid="claim"]').count(), 0);
  // Before ply 40 neither resigning nor a draw offer (B11), and the page says so.
  assert.equal(await page.locator('[data-testid="offer-draw"]').count(), 0);
  assert.equal(await page.locator('[data-testid="resign-later"]').isDisabled(), true);
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="flip"] >> text=转换视角');
  assert.equal(await page.locator('[data-testid="clock-rule"]').textContent(), '每步30秒');
  await page.goto(base + '/#/rules');
  await page.waitForSelector('[data-testid="rules"] >> text=翻翻棋');
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="rules"] h3 >> text=Banqi');
  assert.match(await page.locator('[data-testid="rules"]').textContent(), /timeout mark/);
  await page.context().close();
});

test('Tiaoqi: row numbers on the star, no draw offer, no claim', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi');
  await yourMove(page);
  assert.equal(await page.locator('[data-testid="coords"] [data-coord]').count(), 15);
  assert.equal(await page.locator('[data-testid="offer-draw"]').count(), 0);
  assert.equal(await page.locator('[data-testid="claim"]').count(), 0);
  assert.equal(await page.locator('[data-testid="pgn"]').isVisible(), false);
  await page.waitForSelector('[data-testid="resign"]');
  await page.context().close();
});

test('the create form: checked minutes, target only for Jifen, colour choice, why Rated is off for guests', async () => {
  const page = await newPage();
  await page.selectOption('[data-testid="game-select"]', 'xiangqi');
  assert.equal(await page.locator('[data-testid="target"]').isVisible(), false);
  await page.selectOption('[data-testid="game-select"]', 'jifen-match');
  assert.equal(await page.locator('[data-testid="target"]').isVisible(), true);
  await page.selectOption('[data-testid="game-select"]', 'xiangqi');
  for (const [v, re] of [['', /Enter the minutes/], ['0', /at least 1 minute/], ['999', /At most 180 minutes/]]) {
    await page.fill('[data-testid="minutes"]', v);
    await page.click('[data-testid="create"]');
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="create-error"]').textContent), re.source);
    assert.doesNotMatch(page.url(), /#\/game\//);
  }
  // A guest: Rated is off, and the page says why.
  assert.equal(await page.locator('[data-testid="rated"]').isDisabled(), true);
  assert.match(await page.locator('[data-testid="rated-why"]').textContent(), /Guests play unrated games only/);
  // Black against the AI: the page's own seat is black (at the bottom).
  await page.fill('[data-testid="minutes"]', '5');
  await page.selectOption('[data-testid="seat-select"]', 'black');
  const id = await createGame(page, { opponent: 'ai:1' });
  const s = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), id);
  assert.equal(s.seats[1].kind, 'user');
  await page.waitForSelector('#bot-name >> text=Black');
  // Guests wear no rating badge.
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#bot-name [data-testid="rank-title"]').count(), 0);
  await page.context().close();
});

test('a link to a game that does not exist says so, opens no socket; leaving a game closes its socket', async () => {
  const page = await newPage();
  const sockets = [];
  page.on('websocket', (ws) => { if (/\/api\/games\//.test(ws.url())) { const e = { url: ws.url(), closed: false }; ws.on('close', () => { e.closed = true; }); sockets.push(e); } });
  await page.goto(base + '/#/game/nosuchgame');
  await page.waitForSelector('[data-testid="no-such-game"]');
  assert.match(await page.locator('[data-testid="no-such-game"]').textContent(), /No such game/);
  assert.equal(await page.locator('[data-testid="board"]').count(), 0);
  await page.waitForTimeout(1500);
  assert.equal(sockets.length, 0, 'no socket for a missing game');
  await page.goto(base + '/');
  await createGame(page, { opponent: 'ai:1' });
  await page.waitForFunction(() => true);
  assert.equal(sockets.length, 1);
  await page.click('nav a[href="#/"]');
  await page.waitForSelector('[data-testid="create-form"]');
  await page.waitForTimeout(2500);
  assert.ok(sockets[0].closed, 'the socket closed on leaving');
  assert.equal(sockets.length, 1, 'and nothing reconnects');
  await page.context().close();
});

test('the pieces are drawn in the page\'s own font, not the visitor\'s', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  const r = await page.evaluate(async () => {
    await document.fonts.ready;
    await document.fonts.load('bold 20px "Qiyuan Pieces"', '帅');
    const face = [...document.fonts].find((f) => f.family.replace(/"/g, '') === 'Qiyuan Pieces');
    const text = document.querySelector('[data-piece="e0"] text');
    return { status: face && face.status, check: document.fonts.check('bold 20px "Qiyuan Pieces"', '帅将车马炮'), family: getComputedStyle(text).fontFamily, glyph: text.textContent };
  });
  assert.equal(r.status, 'loaded');
  assert.ok(r.check);
  assert.match(r.family, /^"?Qiyuan Pieces"?/);
  assert.equal(r.glyph, '帅');
  // The font the browser really drew the general with (this machine has CJK fonts of its own).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-piece="e0"] text' });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  assert.deepEqual(fonts.map((f) => f.familyName), ['Qiyuan Pieces'], JSON.stringify(fonts));
  const font = await page.request.get(base + '/static/pieces.woff2');
  assert.equal(font.status(), 200);
  assert.ok((await font.body()).length < 20000);
  await page.context().close();
});

test('Junqi: the set-up phase draws a random army, then a piece is moved by clicking; the AI\'s ranks stay hidden', async () => {
  const page = await newPage();
  await page.selectOption('[data-testid="game-select"]', 'junqi');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-testid="random-setup"]');
  assert.match(await page.locator('[data-testid="setup-phase"]').textContent(), /Set-up/);
  await page.click('[data-testid="random-setup"]');
  // Red (the creator's seat when the AI is blue) moves first once both armies stand.
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  const own = await page.locator('[data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece')));
  const hidden = own.filter((c) => c === 'x' || c === 'X').length;
  assert.equal(hidden, 25, 'the other army is shown as blank discs');
  await yourMove(page);
  // Click a piece that has a target, then the target.
  const legal = await page.evaluate(async () => {
    const id = location.hash.split('/game/')[1];
    const r = await fetch(`/api/games/${id}`, { credentials: 'include' });
    return (await r.json()).legal || [];
  });
  const m = /^([a-e]\d+)([a-e]\d+)$/.exec(legal[0]);
  assert.ok(m, `a move among ${legal}`);
  await page.click(`[data-post="${m[1]}"]`);
  await page.waitForSelector(`[data-target="${m[2]}"]`);
  await page.click(`[data-post="${m[2]}"]`);
  await waitMoves(page, 3);
  await page.context().close();
});

// ---------------------------------------------------------------- page extras (issue 18, "missing that players expect")

const statusIs = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="status"]').textContent), re.source);
const titleIs = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.title), re.source);

test('the tab title tells whose move it is, and the result', async () => {
  const red = await newPage();
  const id = await createGame(red);
  await titleIs(red, /^Waiting for an opponent… — 棋苑$/);
  const black = await newPage('zh-CN');
  await black.click(`[data-testid="join-${id}"]`);
  await black.waitForURL(new RegExp(`#/game/${id}`));
  await titleIs(red, /^● Your move — 棋苑$/);
  await titleIs(black, /^对方走棋 — 棋苑$/);
  await move(red, 'h2', 'e2');
  await titleIs(red, /^Opponent's move — 棋苑$/);
  await titleIs(black, /^● 轮到你走 — 棋苑$/);
  await red.click('[data-testid="resign"]');
  await titleIs(red, /^Black wins · resignation — 棋苑$/);
  await titleIs(black, /^黑胜 · 认输 — 棋苑$/);
  // Leaving the game gives the tab its plain name back.
  await red.goto(base + '/#/');
  await titleIs(red, /^棋苑 Qiyuan$/);
  await red.context().close();
  await black.context().close();
});

test('arrow keys step through a game: ← → one move, Home and End the start and now', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await statusIs(page, /Your move/);
  await move(page, 'b0', 'c2');
  await waitMoves(page, 4);
  await statusIs(page, /Your move/);
  const cur = () => page.evaluate(() => { const c = document.querySelector('[data-testid="moves"] .cur'); return c ? Number(c.dataset.ply) : null; });
  await page.locator('[data-testid="board"]').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('ArrowLeft');
  assert.equal(await cur(), 3);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await cur(), 2);
  await page.keyboard.press('Home');
  assert.equal(await cur(), null);
  // Ply 0: the start position, the cannon back on h2.
  await page.waitForSelector('[data-piece="h2"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await cur(), 1);
  await page.waitForSelector('[data-piece="e2"]');
  await page.keyboard.press('End');
  assert.equal(await cur(), null);
  await page.waitForSelector('[data-piece="c2"]');
  // In the typed-move box the arrow keys move the caret, not the game.
  await page.click('[data-testid="typed-move"]');
  await page.keyboard.type('h0');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await cur(), null);
  await page.context().close();
});

test('typed moves: ICCS with or without a dash, checked against the legal moves with a clear message', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  const err = () => page.locator('[data-testid="error"]').textContent();
  const type = async (text) => { await page.fill('[data-testid="typed-move"]', text); await page.press('[data-testid="typed-move"]', 'Enter'); };
  await type('');
  assert.match(await err(), /Type a move first/);
  await type('hello');
  assert.match(await err(), /Not a move: write it as two squares/);
  await type('h2h8');
  assert.match(await err(), /"h2h8" is not a legal move here/);
  await type('H2-E2');
  await waitMoves(page, 2);
  assert.equal(await err(), '');
  assert.equal(await page.locator('[data-testid="moves"] [data-ply="1"]').textContent(), 'h2e2');
  await statusIs(page, /Your move/);
  await type('b0c2');
  await waitMoves(page, 4);
  await page.context().close();
  // In Chinese too.
  const zh = await newPage('zh-CN');
  await createGame(zh, { opponent: 'ai:1' });
  await zh.fill('[data-testid="typed-move"]', 'a0a5');
  await zh.click('[data-testid="typed-go"]');
  assert.match(await zh.locator('[data-testid="error"]').textContent(), /“a0a5”在此不是合法着法/);
  await zh.context().close();
});

test('typed moves in Jifen (the class chooser), Banqi (a lone square flips) and Tiaoqi (4.2-5.6)', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  await page.fill('[data-testid="typed-move"]', 'h2e2');
  await page.press('[data-testid="typed-move"]', 'Enter');
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.click('[data-testid="class-keep"]');
  await waitMoves(page, 2);
  await page.context().close();

  const [a, b] = await openRoomAndJoin('banqi');
  await a.waitForFunction(() => document.querySelectorAll('[data-testid="face-down"]').length === 32);
  const myMove = (p) => p.evaluate(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  let mover = null;
  for (let i = 0; i < 75 && !mover; i++) {
    if (await myMove(a)) mover = a; else if (await myMove(b)) mover = b; else await a.waitForTimeout(200);
  }
  assert.ok(mover);
  const other = mover === a ? b : a;
  await other.fill('[data-testid="typed-move"]', 'a1');
  await other.press('[data-testid="typed-move"]', 'Enter');
  assert.match(await other.locator('[data-testid="error"]').textContent(), /not your move/);
  await mover.fill('[data-testid="typed-move"]', 'a1');
  await mover.press('[data-testid="typed-move"]', 'Enter');
  await mover.waitForSelector('[data-testid="moves"] [data-ply="1"] >> text=flip a1');
  await a.context().close();
  await b.context().close();

  const tq = await newPage();
  await tiaoqiVsAi(tq, 'tiaoqi');
  await yourMove(tq);
  assert.equal(await tq.locator('[data-testid="typed-move"]').getAttribute('placeholder'), '4.2-5.6');
  await tq.fill('[data-testid="typed-move"]', '3.1-9.9');
  await tq.press('[data-testid="typed-move"]', 'Enter');
  assert.match(await tq.locator('[data-testid="error"]').textContent(), /"3.1-9.9" is not a legal move here/);
  await tq.fill('[data-testid="typed-move"]', '3.1-5.5');
  await tq.press('[data-testid="typed-move"]', 'Enter');
  await tq.waitForSelector('[data-testid="moves"] >> text=3.1-5.5');
  await tq.context().close();
});

test('sounds: a move, a capture and the end are played when on; the switch is kept; off plays nothing', async () => {
  const page = await newPage();
  assert.equal(await page.evaluate(() => localStorage.getItem('qy-sound')), 'off');
  await createGame(page, { opponent: 'ai:1' });
  assert.match(await page.locator('[data-testid="sound"]').textContent(), /Sound off/);
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  assert.equal(await page.evaluate(() => (window.__qySounds || []).length), 0);
  await page.click('[data-testid="sound"]');
  assert.match(await page.locator('[data-testid="sound"]').textContent(), /Sound on/);
  assert.equal(await page.evaluate(() => localStorage.getItem('qy-sound')), 'on');
  await page.evaluate(() => { window.__qySounds = []; });
  await statusIs(page, /Your move/);
  // The central cannon takes the pawn on e6 (the AI may have moved it: then a quiet move).
  await page.fill('[data-testid="typed-move"]', 'e2e6');
  await page.press('[data-testid="typed-move"]', 'Enter');
  const took = (await page.locator('[data-testid="error"]').textContent()) === '';
  if (!took) { await page.fill('[data-testid="typed-move"]', 'b0c2'); await page.press('[data-testid="typed-move"]', 'Enter'); }
  await waitMoves(page, 4);
  await page.waitForFunction(() => (window.__qySounds || []).length >= 2);
  const sounds = await page.evaluate(() => window.__qySounds);
  if (took) assert.equal(sounds[0], 'capture'); else assert.equal(sounds[0], 'move');
  await statusIs(page, /Your move/);
  await page.click('[data-testid="resign"]');
  await page.waitForFunction(() => (window.__qySounds || []).includes('end'));
  // Kept across a reload.
  await page.reload();
  await page.waitForSelector('[data-testid="sound"]');
  assert.match(await page.locator('[data-testid="sound"]').textContent(), /Sound on/);
  await page.context().close();
});

test('quick play: a button per time control opens a Xiangqi room with that clock; "play the computer" starts against AI level 3', async () => {
  const page = await newPage();
  for (const c of ['1+0', '3+2', '5+3', '10+5', '15+10']) assert.equal(await page.locator(`[data-testid="quick-${c}"]`).textContent(), c);
  await page.click('[data-testid="quick-3+2"]');
  await page.waitForURL(/#\/game\//);
  const id = page.url().split('#/game/')[1];
  await page.waitForSelector('[data-testid="clock-rule"]');
  assert.equal(await page.locator('[data-testid="clock-rule"]').textContent(), '3+2');
  await statusIs(page, /Waiting/);
  const g = await (await page.request.get(`${base}/api/games/${id}`)).json();
  assert.equal(g.game, 'xiangqi');
  assert.deepEqual([g.clock.initial_s, g.clock.increment_s], [180, 2]);
  // Another player sees the room among the open ones.
  const other = await newPage();
  await other.waitForSelector(`[data-testid="join-${id}"]`);
  await other.context().close();
  await page.goto(base + '/#/');
  await page.click('[data-testid="play-computer"]');
  await page.waitForURL((u) => !u.href.endsWith(id) && /#\/game\//.test(u.href));
  await page.waitForSelector('[data-piece="e0"]');
  await page.waitForFunction(() => /AI 3/.test(document.querySelector('.board-wrap').textContent));
  await statusIs(page, /Your move/);
  await page.context().close();
  // Chinese labels.
  const zh = await newPage('zh-CN');
  assert.match(await zh.locator('[data-testid="quick-play"]').textContent(), /快速开局.*和电脑下/s);
  await zh.context().close();
});

test('a dark theme: the header switch turns the page dark, kept across reloads, in both languages', async () => {
  const page = await newPage();
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const cardBg = () => page.evaluate(() => getComputedStyle(document.querySelector('.card')).backgroundColor);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  assert.equal(await bg(), 'rgb(244, 239, 228)');
  assert.match(await page.locator('[data-testid="theme"]').textContent(), /Dark/);
  await page.click('[data-testid="theme"]');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await bg(), 'rgb(22, 19, 15)');
  assert.equal(await cardBg(), 'rgb(36, 32, 26)');
  assert.match(await page.locator('[data-testid="theme"]').textContent(), /Light/);
  assert.equal(await page.evaluate(() => localStorage.getItem('qy-theme')), 'dark');
  await page.reload();
  await page.waitForSelector('[data-testid="create-form"]');
  assert.equal(await bg(), 'rgb(22, 19, 15)');
  // The game page too, and the label in Chinese.
  await createGame(page, { opponent: 'ai:1' });
  assert.equal(await bg(), 'rgb(22, 19, 15)');
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /浅色/.test(document.querySelector('[data-testid="theme"]').textContent));
  await page.click('[data-testid="theme"]');
  assert.equal(await bg(), 'rgb(244, 239, 228)');
  assert.match(await page.locator('[data-testid="theme"]').textContent(), /深色/);
  await page.context().close();
});

// The centre of a point on the board, in page pixels.
const centre = async (page, sq) => { const b = await page.locator(`[data-sq="${sq}"]`).boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };

async function dragMouse(page, from, to) {
  const [x0, y0] = await centre(page, from), [x1, y1] = await centre(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
  await page.mouse.move(x1, y1, { steps: 4 });
  await page.mouse.up();
}

// A finger's drag, as the pointer events a touch screen sends.
async function dragTouch(page, from, to) {
  const [x0, y0] = await centre(page, from), [x1, y1] = await centre(page, to);
  await page.evaluate(([x0, y0, x1, y1]) => {
    const svg = document.querySelector('[data-testid="board"]');
    const ev = (type, x, y) => svg.dispatchEvent(new PointerEvent(type, { bubbles: true, cancelable: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, button: 0, buttons: type === 'pointerup' ? 0 : 1 }));
    ev('pointerdown', x0, y0);
    for (let i = 1; i <= 6; i++) ev('pointermove', x0 + (x1 - x0) * i / 6, y0 + (y1 - y0) * i / 6);
    ev('pointerup', x1, y1);
  }, [x0, y0, x1, y1]);
}

test('drag and drop on the Xiangqi board, with a mouse and with a finger; a drop on an illegal point puts the piece back', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await statusIs(page, /Your move/);
  // The piece follows the pointer while it is held.
  const [x0, y0] = await centre(page, 'h2');
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + 30, y0 - 40, { steps: 3 });
  assert.match(await page.locator('[data-piece="h2"]').getAttribute('transform'), /translate/);
  await page.waitForSelector('[data-target="e2"]');
  // Let go on a point it cannot reach: back on h2, nothing sent.
  const [xb, yb] = await centre(page, 'a5');
  await page.mouse.move(xb, yb, { steps: 3 });
  await page.mouse.up();
  await page.waitForFunction(() => !document.querySelector('[data-piece="h2"]').getAttribute('transform'));
  assert.equal(await moveCount(page), 0);
  await dragMouse(page, 'h2', 'e2');
  await page.waitForSelector('[data-piece="e2"]');
  await waitMoves(page, 2);
  assert.equal(await page.locator('[data-testid="moves"] [data-ply="1"]').textContent(), 'h2e2');
  await statusIs(page, /Your move/);
  await dragTouch(page, 'b0', 'c2');
  await waitMoves(page, 4);
  assert.equal(await page.locator('[data-testid="moves"] [data-ply="3"]').textContent(), 'b0c2');
  // Click-click still works.
  await statusIs(page, /Your move/);
  await move(page, 'a0', 'a1');
  await waitMoves(page, 6);
  await page.context().close();
});

test('drag and drop in Jifen opens the class chooser', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  await statusIs(page, /Your move/);
  await dragMouse(page, 'h2', 'e2');
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.click('[data-testid="class-keep"]');
  await waitMoves(page, 2);
  await page.context().close();
});

test('typed moves in Junqi: a post pair (c4c6 style) after the random set-up', async () => {
  const page = await newPage();
  await page.selectOption('[data-testid="game-select"]', 'junqi');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-testid="random-setup"]');
  assert.equal(await page.locator('[data-testid="typed-move"]').getAttribute('placeholder'), 'c4c6');
  await page.click('[data-testid="random-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  await yourMove(page);
  const legal = await page.evaluate(async () => {
    const id = location.hash.split('/game/')[1];
    return (await (await fetch(`/api/games/${id}`, { credentials: 'include' })).json()).legal || [];
  });
  const m = legal.find((x) => /^[a-e]\d+[a-e]\d+$/.test(x));
  assert.ok(m, `a move among ${legal}`);
  await page.fill('[data-testid="typed-move"]', 'a1a1');
  await page.press('[data-testid="typed-move"]', 'Enter');
  assert.match(await page.locator('[data-testid="error"]').textContent(), /not a legal move/);
  await page.fill('[data-testid="typed-move"]', m.toUpperCase());
  await page.press('[data-testid="typed-move"]', 'Enter');
  await waitMoves(page, 3);
  await page.context().close();
});

test('Junqi: a set-up is edited by swapping two pieces and sent; an illegal one cannot be sent', async () => {
  const page = await newPage();
  await page.selectOption('[data-testid="game-select"]', 'junqi');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-testid="send-setup"]');
  const letter = (post) => page.locator(`[data-post="${post}"] [data-piece]`).getAttribute('data-piece');
  assert.equal(await letter('a6'), 'Y');
  assert.equal(await letter('e6'), 'C');
  // Moving the flag out of its headquarters makes the set-up illegal: the button says why.
  await page.click('[data-post="b1"]');
  await page.click('[data-post="a6"]');
  assert.equal(await page.locator('[data-testid="send-setup"]').isDisabled(), true);
  assert.match(await page.locator('[data-testid="send-setup"]').getAttribute('title'), /flag a6/);
  // Swap back, then swap the two front corners and send.
  await page.click('[data-post="b1"]');
  await page.click('[data-post="a6"]');
  await page.click('[data-post="a6"]');
  await page.click('[data-post="e6"]');
  assert.equal(await letter('a6'), 'C');
  assert.equal(await page.locator('[data-testid="send-setup"]').isDisabled(), false);
  await page.click('[data-testid="send-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  assert.equal(await letter('a6'), 'C', 'the server placed the edited set-up');
  assert.equal(await letter('e6'), 'Y');
  await page.context().close();
});
