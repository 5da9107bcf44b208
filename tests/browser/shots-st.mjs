// Screenshots of the explorer's engine view and the Jifen editor's game
// state (issue 39, not a test): 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-st.mjs OUTDIR
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
const lines = [['h2e2', 'h9g7'], ['h2e2', 'b9c7'], ['c3c4', 'c6c5'], ['b2e2', 'h9g7'], ['h2e2', 'h7e7'], ['g3g4', 'c6c5']];
for (const [i, moves] of lines.entries()) {
  const red = players[i % 3], black = players[(i + 1) % 3];
  const g = await call('POST', '/api/games', red, { game: 'xiangqi', clock: { initial_s: 300, increment_s: 0 }, opponent: 'open', rated: true });
  await call('POST', `/api/games/${g.id}/join`, black, {});
  for (const [k, mv] of moves.entries()) await call('POST', `/api/games/${g.id}/moves`, k % 2 ? black : red, { move: mv });
  await call('POST', `/api/games/${g.id}/resign`, i % 2 ? red : black, {});
}
const browser = await chromium.launch({ executablePath: execSync('command -v chromium').toString().trim(), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...webArgs] });
const sizes = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
try {
  for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) {
    const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
    await serveWeb(ctx);
    await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); localStorage.removeItem('qy-notation'); }, lang);
    const page = await ctx.newPage();
    await page.goto(base + '/#/analysis');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.waitForSelector('[data-testid="explorer-engine-best"]', { timeout: 60000 });
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="explorer-eval"]')].every((c) => !/…/.test(c.textContent)), null, { timeout: 60000 });
    await page.screenshot({ path: join(OUT, `st-explorer-${sz}-${lang}.png`), fullPage: true });
    await page.locator('[data-testid="explorer"]').screenshot({ path: join(OUT, `st-explorer-panel-${sz}-${lang}.png`) });
    // The Jifen contest editor with its game state, an impossible one refused.
    await page.goto(base + '/#/analysis/jifen-contest');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.click('[data-testid="edit-position"]');
    await page.check('[data-testid="editor-side-second"]');
    await page.fill('[data-testid="editor-move-number"]', '1');
    await page.dispatchEvent('[data-testid="editor-move-number"]', 'change');
    await page.check('[data-testid="editor-side-first"]');
    await page.check('[data-testid="editor-second"]');
    await page.click('[data-testid="editor-analyse"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-error"]').textContent.length > 0);
    await page.screenshot({ path: join(OUT, `st-editor-${sz}-${lang}.png`), fullPage: true });
    await page.locator('.editor-side').screenshot({ path: join(OUT, `st-editor-side-${sz}-${lang}.png`) });
    await ctx.close();
  }
} finally { await browser.close(); server.kill('SIGTERM'); }
