// Screenshots of the game's ECCO opening line above the move list (not a test):
// a game against the level-1 AI, two moves each; 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-ecco.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const sizes = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
const yourMove = (page) => page.waitForFunction(() => /Your move|轮到你/.test(document.querySelector('[data-testid="status"]').textContent));
const plies = (page, n) => page.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= n, n);
async function click2(page, a, b) { await page.click(`[data-sq="${a}"]`); await page.waitForSelector(`[data-target="${b}"]`); await page.click(`[data-sq="${b}"]`); }
async function from(page, body) {
  const r = await page.request.post(base + '/api/games', { data: { game: 'xiangqi', opponent: 'ai:1', rated: false, clock: { initial_s: 300, increment_s: 0 }, ...body } });
  const id = (await r.json()).id;
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('[data-testid="board"] [data-piece]');
}
for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) {
  const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
  await serveWeb(ctx);
  await ctx.addInitScript(() => { localStorage.setItem('qy-sound', 'off'); });
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  const shot = (name) => page.screenshot({ path: join(OUT, `${name}-${sz}-${lang}.png`), fullPage: true });
  // A game in the page's notation, a few moves in.
  await from(page, {});
  await yourMove(page);
  await click2(page, 'h2', 'e2');
  await plies(page, 2);
  await yourMove(page);
  await click2(page, 'h0', 'g2');
  await plies(page, 4);
  await yourMove(page);
  await page.waitForTimeout(300);
  await page.waitForSelector('[data-testid="opening"]:not([hidden])');
  console.log(lang, sz, await page.locator('[data-testid="opening"]').textContent());
  await shot('ecco');
  await ctx.close();
}
await browser.close();
server.kill();
