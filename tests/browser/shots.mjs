// Screenshots of the pages this stop changed, for people to look at (not a
// test): lobby with an invitation and a set-up room, an event with an
// invitee, a profile with its sessions; desktop and phone, English and
// Chinese. Usage: QIYUAN_BIN=... node shots.mjs OUTDIR
import { spawn, execSync } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const BIN = process.env.QIYUAN_BIN;
const OUT = process.argv[2] || tmpdir();
mkdirSync(OUT, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'qiyuan-shots-'));
const server = spawn(BIN, ['serve', '--port', '0', '--database', `sqlite://${join(dir, 'h.db')}`, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve) => server.stdout.on('data', (d) => { const m = /listening on (http:\/\/\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
const browser = await chromium.launch({ executablePath: execSync('command -v chromium').toString().trim(), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const api = async (ctx, path, data, token) => (await ctx.request.post(base + path, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} })).json();
const setup = await browser.newContext();
const org = await api(setup, '/api/register', { username: 'organiser', password: 'secret123' });
await api(setup, '/api/register', { username: '王小明', password: 'secret123' });
const ev = await api(setup, '/api/events', { name: 'Winter Cup 冬季杯', game: 'xiangqi', format: { kind: 'round_robin', cycles: 1 }, players: ['organiser', '王小明'] }, org.token);
await api(setup, '/api/games', { game: 'xiangqi', fen: '3k5/9/9/9/9/9/9/9/4R4/4K4 w' }, org.token);
const tq = await api(setup, '/api/games', { game: 'tiaoqi-6', opponent: 'ai:1' }, org.token);
for (const [w, h, tag] of [[1280, 900, 'desktop'], [390, 844, 'phone']]) {
  for (const lang of ['en-US', 'zh-CN']) {
    const ctx = await browser.newContext({ locale: lang, viewport: { width: w, height: h } });
    const page = await ctx.newPage();
    await page.request.post(base + '/api/login', { data: { username: '王小明', password: 'secret123' } });
    await page.goto(base + '/');
    await page.waitForSelector('[data-testid="invitations"]:not([hidden])');
    await page.screenshot({ path: join(OUT, `lobby-${tag}-${lang}.png`), fullPage: true });
    await page.goto(base + `/#/event/${ev.id}`);
    await page.waitForSelector('[data-testid="invited"]');
    await page.screenshot({ path: join(OUT, `event-${tag}-${lang}.png`), fullPage: true });
    await page.goto(base + `/#/user/${encodeURIComponent('王小明')}`);
    await page.waitForSelector('[data-testid="sessions"] button, [data-testid="sessions"] table');
    await page.screenshot({ path: join(OUT, `profile-${tag}-${lang}.png`), fullPage: true });
    await page.goto(base + `/#/game/${tq.id}`);
    await page.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
    await page.screenshot({ path: join(OUT, `tiaoqi-${tag}-${lang}.png`), fullPage: true });
    await ctx.close();
  }
}
await browser.close();
server.kill('SIGTERM');
