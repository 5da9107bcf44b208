// Screenshots of Tiaoqi on the analysis board (issue 39, not a test): a
// 3-player position a few moves in with the engine's paths and lines, and a
// 6-player start with the loader open; 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-tiaoqi-study.mjs OUTDIR
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
const browser = await chromium.launch({ executablePath: execSync('command -v chromium').toString().trim(), args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...webArgs] });
const sizes = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
try {
  for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) {
    const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
    await serveWeb(ctx);
    await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); }, lang);
    const page = await ctx.newPage();
    await page.goto(base + '/#/analysis/tiaoqi-3/.%2F..%2F...%2F....%2Fcccc.....eeee%2Fccc......eee%2Fcc.......ee%2Fc........e%2F.........%2F..........%2F...........%2F............%2F.............%2Faaaa%2Faaa%2Faa%2Fa%20a%20ace/3.1-5.5,11.1-9.1,11.11-9.9,1.1-5.7,12.2-10.2,12.11-10.9,4.3-6.6/5');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length === 7);
    await page.click('[data-testid="engine-toggle"]');
    await page.waitForFunction(() => /(depth|深度) [5-9]/.test(document.querySelector('[data-testid="engine-depth"]').textContent), null, { timeout: 60000 });
    await page.click('[data-testid="engine-toggle"]');
    await page.screenshot({ path: join(OUT, `tq-study-${sz}-${lang}.png`), fullPage: true });
    await page.evaluate(() => { location.hash = '#/analysis/tiaoqi-6'; });
    await page.waitForSelector('[data-testid="analysis-board"][data-variant="tiaoqi-6"]');
    await page.click('[data-cell="4.1"]');
    await page.screenshot({ path: join(OUT, `tq-study6-${sz}-${lang}.png`), fullPage: true });
    await ctx.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
