// What the screenshot scripts (shots-*.mjs, not tests) share: a hall on a
// fresh database with its HTTP API, chromium, and a fresh page at desktop and
// phone size in English and Chinese.
import { spawn, execSync } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveWeb, webArgs } from './web-override.mjs';

/** The folder the screenshots go to: the script's first argument. */
export const OUT = process.argv[2] || tmpdir();
mkdirSync(OUT, { recursive: true });

/** The path of screenshot `name` in OUT. */
export const shotPath = (name) => join(OUT, name);

/**
 * Starts the hall (QIYUAN_BIN) on a fresh database. Resolves to its address,
 * the server process, `call(method, path, token, body)` (throws on an error
 * status) and `reg(name)` (registers, resolves to the token).
 */
export async function startHall() {
  const dir = mkdtempSync(join(tmpdir(), 'qiyuan-shots-'));
  const server = spawn(process.env.QIYUAN_BIN, ['serve', '--port', '0', '--database', `sqlite://${join(dir, 'h.db')}`, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise((resolve) => server.stdout.on('data', (d) => { const m = /listening on (http:\/\/\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
  process.on('unhandledRejection', (e) => { console.error(e); server.kill('SIGTERM'); process.exit(1); });
  const call = async (method, path, token, body) => {
    const r = await fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const data = await r.json().catch(() => null);
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
    return data;
  };
  const reg = async (name) => (await call('POST', '/api/register', null, { username: name, password: 'secret123' })).token;
  return { server, base, call, reg };
}

/**
 * Plays each line (ICCS moves) as a rated Xiangqi game between the players in
 * turn, then ends it: a resignation, or an agreed draw for every game whose
 * index is `drawEvery - 1` modulo `drawEvery` (none when 0).
 */
export async function playLines(call, players, lines, drawEvery = 0) {
  for (const [i, moves] of lines.entries()) {
    const red = players[i % players.length], black = players[(i + 1) % players.length];
    const g = await call('POST', '/api/games', red, { game: 'xiangqi', clock: { initial_s: 300, increment_s: 0 }, opponent: 'open', rated: true });
    await call('POST', `/api/games/${g.id}/join`, black, {});
    for (const [k, mv] of moves.entries()) await call('POST', `/api/games/${g.id}/moves`, k % 2 ? black : red, { move: mv });
    if (drawEvery && i % drawEvery === drawEvery - 1) {
      await call('POST', `/api/games/${g.id}/draw`, red, { action: 'offer' });
      await call('POST', `/api/games/${g.id}/draw`, black, { action: 'accept' });
    } else await call('POST', `/api/games/${g.id}/resign`, i % 2 ? red : black, {});
  }
}

/** Debian's chromium, headless, with the page's files from QIYUAN_WEB when set. */
export function launch() {
  return chromium.launch({ executablePath: execSync('command -v chromium').toString().trim(), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...webArgs] });
}

/**
 * Calls `shoot(page, size, lang)` on a fresh page at each size ('desk'
 * 1440x900, 'phone' 390x844) in each language ('en', 'zh'): sound off, the
 * language chosen, the default notation.
 */
export async function eachView(browser, shoot) {
  const sizes = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
  for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) {
    const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
    await serveWeb(ctx);
    await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); localStorage.removeItem('qy-notation'); }, lang);
    const page = await ctx.newPage();
    await shoot(page, sz, lang);
    await ctx.close();
  }
}

/** Clicks a header link, through the ☰ menu where a phone folds the header into one. */
export async function nav(page, sel) {
  if (!(await page.locator(sel).first().isVisible()) && (await page.locator('[data-testid="menu"]').isVisible())) await page.click('[data-testid="menu"]');
  await page.click(sel);
}
