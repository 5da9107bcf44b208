// Screenshots of the analysis board (issue 39, not a test): an imported game
// with a side line and comments, the move shown in the middle of the tree,
// the engine's lines and evaluation bar, the export open, a bad file's error; 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-study.mjs OUTDIR
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
const PGN = '[Event "练习"]\n[Red "甲"]\n[Black "乙"]\n{中炮对屏风马的常见开局}\n1. 炮二平五 {中炮} 马８进７ (1... 炮８平５ {顺炮} 2. 马二进三 马８进７) (1... 卒７进１ 2. 兵三进一) 2. 马二进三 车９平８ 3. 车一平二 马２进３ 4. 兵七进一 卒７进１ 5. 车二进六 {过河车} 炮８平９ 6. 车二平三 炮９退１ *\n';
try {
  for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) {
    const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
    await serveWeb(ctx);
    await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); localStorage.removeItem('qy-notation'); }, lang);
    const page = await ctx.newPage();
    await page.goto(base + '/#/analysis');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
    await page.screenshot({ path: join(OUT, `study-empty-${sz}-${lang}.png`), fullPage: true });
    await page.fill('[data-testid="paste"]', PGN);
    await page.click('[data-testid="paste-load"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tree-move"]').length > 10);
    for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight');
    await page.click('[data-testid="engine-toggle"]');
    await page.waitForFunction(() => /(depth|深度) ([6-9]|\d\d)/.test(document.querySelector('[data-testid="engine-depth"]').textContent), null, { timeout: 60000 });
    await page.click('[data-testid="engine-toggle"]');
    await page.click('[data-testid="export"]');
    await page.screenshot({ path: join(OUT, `study-tree-${sz}-${lang}.png`), fullPage: true });
    // A bad file: the error names the line.
    await page.click('[data-testid="study-load"] summary');
    await page.fill('[data-testid="paste"]', '1. h2e2 h9g7\n2. h2h9\n');
    await page.click('[data-testid="paste-load"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="study-error"]').textContent.length > 20);
    await page.screenshot({ path: join(OUT, `study-error-${sz}-${lang}.png`), fullPage: true });
    await ctx.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
