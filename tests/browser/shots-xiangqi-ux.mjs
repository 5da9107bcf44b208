// Screenshots of issue 37's Xiangqi and Jifen items (not a test): a game
// in the page's notation with the FEN box, the draw claim with its reason,
// the Jifen legend and score badge, the mated general and the low-time
// warning; 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-xiangqi-ux.mjs OUTDIR
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
  await shot('notation');
  // The claim at 120 quiet plies.
  await from(page, { fen: '4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80' });
  await yourMove(page);
  await click2(page, 'a1', 'a2');
  await page.waitForSelector('[data-testid="claim"]');
  await page.waitForTimeout(300);
  await shot('claim');
  // Jifen: the legend open, a score change.
  await from(page, { game: 'jifen-simple' });
  await yourMove(page);
  await page.click('[data-testid="class-legend"] summary');
  await page.click('[data-sq="h2"]');
  await page.waitForSelector('[data-target="e2"]');
  await page.click('[data-sq="e2"]', { modifiers: ['Shift'] });
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.waitForTimeout(200);
  await shot('jifen-chooser');
  await page.click('[data-testid="class-*"]');
  await plies(page, 2);
  await yourMove(page);
  await click2(page, 'e2', 'e1');
  await plies(page, 4);
  await page.waitForTimeout(300);
  await shot('jifen');
  // Checkmate: the ring stays.
  await from(page, { fen: '3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1' });
  await yourMove(page);
  await click2(page, 'a1', 'a9');
  await plies(page, 2);
  await yourMove(page);
  await click2(page, 'b0', 'b8');
  await plies(page, 4);
  await yourMove(page);
  await click2(page, 'a9', 'a7');
  await page.waitForSelector('[data-mated]');
  await page.waitForTimeout(300);
  await shot('mate');
  // Low time.
  await from(page, { clock: { initial_s: 8, increment_s: 0 } });
  await yourMove(page);
  await click2(page, 'h2', 'e2');
  await plies(page, 2);
  await page.waitForSelector('[data-testid="low-time"]:not([hidden])', { timeout: 12000 });
  await shot('lowtime');
  await ctx.close();
}
await browser.close();
server.kill('SIGTERM');
