// Screenshots of saved studies, the opening explorer and a profile's
// results by opening (issue 39, not a test): 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-col.mjs OUTDIR
import { spawn, execSync } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveWeb, webArgs } from './web-override.mjs';

const OUT = process.argv[2] || tmpdir();
mkdirSync(OUT, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'qiyuan-shots-'));
const server = spawn(process.env.QIYUAN_BIN, ['serve', '--port', '0', '--database', `sqlite://${join(dir, 'h.db')}`, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve) => server.stdout.on('data', (d) => { const m = /listening on (http:\/\/\S+)/.exec(String(d)); if (m) resolve(m[1]); }));
const call = async (method, path, token, body) => {
  const r = await fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
  return data;
};
process.on('unhandledRejection', (e) => { console.error(e); server.kill('SIGTERM'); process.exit(1); });
const reg = async (name) => (await call('POST', '/api/register', null, { username: name, password: 'secret123' })).token;
const players = [await reg('alice'), await reg('bob'), await reg('carol')];
const lines = [
  ['h2e2', 'h9g7', 'h0g2', 'i9h9'], ['h2e2', 'h9g7', 'h0g2', 'b9c7'], ['h2e2', 'b9c7', 'h0g2', 'h9g7'], ['h2e2', 'h7e7', 'h0g2', 'h9g7'],
  ['c3c4', 'c6c5', 'b0c2', 'b9c7'], ['b2e2', 'h9g7', 'b0c2', 'i9h9'], ['h2e2', 'h9g7', 'i0i1', 'i9h9'], ['g3g4', 'c6c5', 'h0g2', 'b9c7'],
];
for (const [i, moves] of lines.entries()) {
  const red = players[i % 3], black = players[(i + 1) % 3];
  const g = await call('POST', '/api/games', red, { game: 'xiangqi', clock: { initial_s: 300, increment_s: 0 }, opponent: 'open', rated: true });
  await call('POST', `/api/games/${g.id}/join`, black, {});
  for (const [k, mv] of moves.entries()) await call('POST', `/api/games/${g.id}/moves`, k % 2 ? black : red, { move: mv });
  if (i % 4 === 3) { await call('POST', `/api/games/${g.id}/draw`, red, { action: 'offer' }); await call('POST', `/api/games/${g.id}/draw`, black, { action: 'accept' }); }
  else await call('POST', `/api/games/${g.id}/resign`, i % 2 ? red : black, {});
}
const browser = await chromium.launch({ executablePath: execSync('command -v chromium').toString().trim(), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...webArgs] });
const sizes = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
let n = 0;
try {
  for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) {
    const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
    await serveWeb(ctx);
    await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); localStorage.removeItem('qy-notation'); }, lang);
    const page = await ctx.newPage();
    await page.goto(base + '/');
    await page.evaluate(async (name) => { await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: name, password: 'secret123' }), credentials: 'same-origin' }); }, `shots${n++}`);
    await page.goto(base + '/#/analysis');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.waitForSelector('[data-testid="explorer-move"]');
    await page.locator('[data-testid="explorer-move"]').first().click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="explorer-move"]').length >= 2);
    await page.fill('[data-testid="study-name"]', lang === 'zh' ? '中炮对屏风马' : 'Central cannon');
    await page.click('[data-testid="study-save"]');
    await page.waitForSelector('[data-testid="study-saved"]:not([hidden])');
    await page.click('[data-testid="my-studies"] summary');
    await page.waitForSelector('[data-testid="study-row"]');
    await page.screenshot({ path: join(OUT, `col-board-${sz}-${lang}.png`), fullPage: true });
    await page.locator('.study-side').screenshot({ path: join(OUT, `col-side-${sz}-${lang}.png`) });
    await page.click('[data-testid="study-rename"]');
    await page.locator('[data-testid="study-collection"]').screenshot({ path: join(OUT, `col-rename-${sz}-${lang}.png`) });
    await page.goto(base + '/#/user/alice');
    await page.waitForSelector('[data-testid="openings"]');
    await page.screenshot({ path: join(OUT, `col-profile-${sz}-${lang}.png`), fullPage: true });
    await ctx.close();
  }
} finally { await browser.close(); server.kill('SIGTERM'); }
