// Screenshots of what players do besides moving (not a test): a challenge's
// waiting page with its invite link, the tray's challenge card and badge, a
// takeback request beside the chat, a premove, the "My games" page;
// 1280x900 and 390x844, en and zh (dark too on the desktop).
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-social.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch, nav } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const sizes = { desk: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const runs = [];
for (const sz of Object.keys(sizes)) for (const lang of ['en', 'zh']) runs.push([sz, lang, 'light']);
runs.push(['desk', 'en', 'dark'], ['desk', 'zh', 'dark']);

async function open(sz, lang, theme) {
  const ctx = await browser.newContext({ viewport: sizes[sz], locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
  await serveWeb(ctx);
  await ctx.addInitScript(([th]) => { localStorage.setItem('qy-theme', th); localStorage.setItem('qy-sound', 'off'); }, [theme]);
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  return page;
}
const shot = async (page, name, tag) => { await page.waitForTimeout(300); await page.screenshot({ path: join(OUT, `${name}-${tag}.png`), fullPage: true }); };

for (const [sz, lang, theme] of runs) {
  const tag = `${sz}-${lang}-${theme}`;
  const a = await open(sz, lang, theme), b = await open(sz, lang, theme);
  const bName = await b.evaluate(async () => (await (await fetch('/api/me')).json()).username);
  await a.fill('[data-testid="challenge-name"]', bName);
  await a.click('[data-testid="create"]');
  await a.waitForSelector('[data-testid="challenge-wait"]');
  await shot(a, 'challenge-wait', tag);
  await b.reload();
  await b.waitForSelector('[data-testid^="challenge-card-"]');
  await shot(b, 'lobby-challenges', tag);
  await b.click('[data-testid^="challenge-accept-"]');
  await b.waitForSelector('[data-piece="e0"]');
  await a.waitForFunction(() => document.querySelector('[data-testid="takeback"]') === null && !!document.querySelector('[data-testid="resign"]'));
  await a.click('[data-sq="h2"]'); await a.click('[data-sq="e2"]');
  await b.waitForFunction(() => document.querySelectorAll('[data-testid="moves"] [data-ply]').length === 1);
  await b.fill('[data-testid="chat-input"]', lang === 'zh' ? '你好，请多指教' : 'Hello, good luck!');
  await b.click('[data-testid="chat-send"]');
  await a.waitForSelector('[data-testid="chat-line"]');
  await a.fill('[data-testid="chat-input"]', lang === 'zh' ? '等一下，我走错了' : 'Oops, wrong piece');
  await a.click('[data-testid="chat-send"]');
  await a.click('[data-testid="takeback"]');
  await b.waitForSelector('[data-testid="takeback-offer"]');
  await b.waitForFunction(() => document.querySelectorAll('[data-testid="chat-line"]').length === 2);
  await shot(b, 'takeback-offer', tag);
  await b.click('[data-testid="accept-takeback"]');
  await a.waitForSelector('[data-testid="takeback-done"]');
  await shot(a, 'takeback-done-chat', tag);
  // Black queues a premove while red thinks.
  await b.click('[data-sq="h7"]'); await b.click('[data-sq="e7"]');
  await b.waitForSelector('[data-testid="premove"]:not([hidden])');
  await shot(b, 'premove', tag);
  await a.click('[data-sq="b2"]'); await a.click('[data-sq="e2"]');
  await b.waitForFunction(() => document.querySelectorAll('[data-testid="moves"] [data-ply]').length === 2);
  await a.waitForFunction(() => /Your move|轮到你走/.test(document.querySelector('[data-testid="status"]').textContent));
  await nav(a, '[data-testid="nav-my"]');
  await a.waitForSelector('[data-testid="my-turn-count"]');
  await shot(a, 'my-games', tag);
  await a.context().close();
  await b.context().close();
}
await browser.close();
server.kill('SIGTERM');
