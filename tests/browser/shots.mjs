// Screenshots of the pages, for people to look at (not a test): lobby with
// an invitation and a set-up room, an event with an invitee, a profile with
// its sessions, and Tiaoqi (a two-player game with a piece selected and the
// jump path of a target shown, a six-player game under way, a finished game
// with its finishing order, the multi-player leaderboard); desktop and
// phone, English and Chinese.
// With `games`: only the game pages (Xiangqi under way and finished with its
// result panel, Jifen contest, Banqi, Tiaoqi finished, a missing game).
// Usage: QIYUAN_BIN=... node shots.mjs OUTDIR [tiaoqi|games]   (only those)
import { spawn, execSync } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveWeb, webArgs } from './web-override.mjs';

const BIN = process.env.QIYUAN_BIN;
const OUT = process.argv[2] || tmpdir();
const ONLY = process.argv[3] || '';
mkdirSync(OUT, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'qiyuan-shots-'));
const server = spawn(BIN, ['serve', '--port', '0', '--database', `sqlite://${join(dir, 'h.db')}`, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve) => server.stdout.on('data', (d) => { const m = /listening on (http:\/\/\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
const browser = await chromium.launch({ executablePath: execSync('command -v chromium').toString().trim(), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...webArgs] });
const api = async (ctx, path, data, token) => (await ctx.request.post(base + path, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} })).json();
const get = async (ctx, path) => (await ctx.request.get(base + path)).json();
const setup = await browser.newContext();
const org = await api(setup, '/api/register', { username: 'organiser', password: 'secret123' });
const me = await api(setup, '/api/register', { username: '王小明', password: 'secret123' });
const ev = await api(setup, '/api/events', { name: 'Winter Cup 冬季杯', game: 'xiangqi', format: { kind: 'round_robin', cycles: 1 }, players: ['organiser', '王小明'] }, org.token);
await api(setup, '/api/games', { game: 'xiangqi', fen: '3k5/9/9/9/9/9/9/9/4R4/4K4 w' }, org.token);

// Plays `n` moves of seat 0 in a game against the AI (each the legal move
// that gains the most rows, a long chain first), waiting for the AI's
// answers in between.
async function playFor(id, n) {
  for (let k = 0; k < n; k++) {
    let s;
    for (let i = 0; i < 200; i++) {
      s = await get(setup, `/api/games/${id}`);
      if (s.status !== 'playing' || s.to_move === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const s2 = await (await setup.request.get(base + `/api/games/${id}`, { headers: { Authorization: `Bearer ${me.token}` } })).json();
    const moves = (s2.legal || []).filter((m) => m !== 'pass');
    const gain = (m) => { const c = m.split('-'); return Number(c[c.length - 1].split('.')[0]) - Number(c[0].split('.')[0]) + c.length / 100; };
    moves.sort((a, b) => gain(b) - gain(a));
    if (!moves.length) return;
    await api(setup, `/api/games/${id}/moves`, { move: moves[0] }, me.token);
  }
  // Let the AI seats answer the last one.
  for (let i = 0; i < 200; i++) {
    const s = await get(setup, `/api/games/${id}`);
    if (s.status !== 'playing' || s.to_move === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const tq2 = await api(setup, '/api/games', { game: 'tiaoqi', opponent: 'ai:1' }, me.token);
await playFor(tq2.id, 4);
const tq6 = ONLY === 'games' ? null : await api(setup, '/api/games', { game: 'tiaoqi-6', opponent: 'ai:1' }, me.token);
if (tq6) await playFor(tq6.id, 3);
const done = await api(setup, '/api/games', { game: 'tiaoqi', opponent: 'ai:2' }, me.token);
await playFor(done.id, 1);
await setup.request.post(base + `/api/games/${done.id}/resign`, { headers: { Authorization: `Bearer ${me.token}` } });

// Waits until seat 0 of game `id` is to move (or the game is over).
async function myTurn(id) {
  for (let i = 0; i < 100; i++) {
    const s = await get(setup, `/api/games/${id}`);
    if (s.status !== 'playing' || s.to_move === 0) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const play = async (id, mv) => { await myTurn(id); await api(setup, `/api/games/${id}/moves`, { move: mv }, me.token); await myTurn(id); };
const xq = await api(setup, '/api/games', { game: 'xiangqi', opponent: 'ai:1', clock: { initial_s: 300, increment_s: 3 } }, me.token);
for (const m of ['h2e2', 'h0g2', 'i0h0']) await play(xq.id, m);
const xqDone = await api(setup, '/api/games', { game: 'xiangqi', opponent: 'ai:1', rated: true }, me.token);
await play(xqDone.id, 'b2e2');
await setup.request.post(base + `/api/games/${xqDone.id}/resign`, { headers: { Authorization: `Bearer ${me.token}` } });
const jf = await api(setup, '/api/games', { game: 'jifen-contest', opponent: 'ai:1' }, me.token);
for (const m of ['h2e2', 'b0c2']) await play(jf.id, m);
const bq = await api(setup, '/api/games', { game: 'banqi', opponent: 'ai:1' }, me.token);
for (const m of ['a1a1', 'b2b2', 'c3c3']) { const s = await myTurn(bq.id); const s2 = await (await setup.request.get(base + `/api/games/${bq.id}`, { headers: { Authorization: `Bearer ${me.token}` } })).json(); const mv = (s2.legal || []).includes(m) ? m : (s2.legal || [])[0]; if (s && mv) await play(bq.id, mv); }
await new Promise((r) => setTimeout(r, 1500));

for (const [w, h, tag] of [[1280, 900, 'desktop'], [390, 844, 'phone']]) {
  for (const lang of ['en-US', 'zh-CN']) {
    const ctx = await browser.newContext({ locale: lang, viewport: { width: w, height: h }, ...(tag === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
    await serveWeb(ctx);
    const page = await ctx.newPage();
    await page.request.post(base + '/api/login', { data: { username: '王小明', password: 'secret123' } });
    const shot = (name) => page.screenshot({ path: join(OUT, `${name}-${tag}-${lang}.png`), fullPage: true });
    if (ONLY !== 'tiaoqi') {
      await page.goto(base + '/');
      await page.waitForSelector('[data-testid="invitations"]:not([hidden])');
      await shot('lobby');
      await page.goto(base + `/#/event/${ev.id}`);
      await page.waitForSelector('[data-testid="invited"]');
      await shot('event');
      await page.goto(base + `/#/user/${encodeURIComponent('王小明')}`);
      await page.waitForSelector('[data-testid="sessions"] button, [data-testid="sessions"] table');
      await shot('profile');
    }
    if (ONLY === 'games') {
      for (const [name, id] of [['xiangqi', xq.id], ['xiangqi-finished', xqDone.id], ['jifen', jf.id], ['banqi', bq.id], ['tiaoqi-finished', done.id]]) {
        await page.goto(base + `/#/game/${id}`);
        await page.waitForSelector('[data-testid="board"] *');
        await page.waitForTimeout(name.endsWith('finished') ? 1500 : 400);
        await shot(`game-${name}`);
      }
      await page.goto(base + '/#/game/nosuchgame');
      await page.waitForSelector('[data-testid="no-such-game"]');
      await shot('game-missing');
      await page.goto(base + '/');
      await page.waitForSelector('[data-testid="create-form"]');
      await shot('lobby-form');
      await page.goto(base + '/#/rules');
      await page.waitForSelector('[data-testid="rules"]');
      await shot('rules');
      await ctx.close();
      continue;
    }
    // Two seats: a piece selected, the longest chain's path shown.
    await page.goto(base + `/#/game/${tq2.id}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
    await page.waitForSelector('[data-testid="seat-a"]');
    const s2 = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), tq2.id);
    const chain = (s2.legal || []).filter((m) => m !== 'pass').sort((a, b) => b.split('-').length - a.split('-').length)[0];
    if (chain) {
      const c = chain.split('-');
      const tapOrClick = (sel) => (tag === 'phone' ? page.tap(sel) : page.click(sel));
      await tapOrClick(`[data-cell="${c[0]}"]`);
      if (tag === 'phone') await page.tap(`[data-cell="${c[c.length - 1]}"]`);
      else await page.hover(`[data-cell="${c[c.length - 1]}"]`);
      await page.waitForSelector('[data-testid="jump-path"]');
    }
    await shot('tiaoqi2');
    await page.goto(base + `/#/game/${tq6.id}`);
    await page.waitForSelector('[data-testid="seat-f"]');
    await shot('tiaoqi6');
    await page.goto(base + `/#/game/${done.id}`);
    await page.waitForSelector('[data-testid="finish-order"]');
    await shot('tiaoqi-finished');
    await page.goto(base + '/#/leaderboard/tiaoqi-multi');
    await page.waitForSelector('[data-testid="lb-tab-tiaoqi-multi"]');
    await shot('leaderboard-multi');
    await ctx.close();
  }
}
await browser.close();
server.kill('SIGTERM');
