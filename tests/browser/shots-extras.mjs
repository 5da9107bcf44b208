// Screenshots of the page extras (not a test): the lobby's quick play and
// the theme switch, a game page with the typed-move box, the sound switch
// and a typed-move error, light and dark; 1280x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-extras.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const sizes = { desk: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) for (const theme of ['light', 'dark']) {
  const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
  await serveWeb(ctx);
  await ctx.addInitScript(([th]) => { localStorage.setItem('qy-theme', th); localStorage.setItem('qy-sound', 'off'); }, [theme]);
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="quick-play"]');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, `lobby-${sz}-${lang}-${theme}.png`) });
  await page.click('[data-testid="play-computer"]');
  await page.waitForSelector('[data-piece="e0"]');
  await page.fill('[data-testid="typed-move"]', 'h2e2');
  await page.press('[data-testid="typed-move"]', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= 2);
  await page.waitForFunction(() => /Your move|轮到你走/.test(document.querySelector('[data-testid="status"]').textContent));
  await page.fill('[data-testid="typed-move"]', 'h2h8');
  await page.press('[data-testid="typed-move"]', 'Enter');
  await page.click('[data-sq="b0"]');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, `game-${sz}-${lang}-${theme}.png`), fullPage: true });
  // The end: the result panel (and the tab title).
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('.result-panel');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(OUT, `result-${sz}-${lang}-${theme}.png`), fullPage: true });
  // The other boards in this theme: Banqi, Tiaoqi and Junqi against the AI (desktop, English only).
  if (sz === 'desk' && lang === 'en') for (const game of ['banqi', 'tiaoqi', 'junqi']) {
    await page.goto(base + '/#/');
    await page.waitForSelector('[data-testid="create-form"]');
    await page.selectOption('[data-testid="game-select"]', game);
    await page.selectOption('[data-testid="opponent"]', game === 'banqi' ? 'open' : 'ai:1');
    await page.click('[data-testid="create"]');
    await page.waitForURL(/#\/game\//);
    await page.waitForTimeout(1200);
    await page.screenshot({ path: join(OUT, `${game}-${sz}-${lang}-${theme}.png`), fullPage: true });
  }
  await ctx.close();
}
await browser.close();
server.kill('SIGTERM');
