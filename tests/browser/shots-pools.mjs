// Screenshots of finding a game (not a test): the lobby's pools (one
// waiting, the other games unfolded), a challenge card in the challenged
// user's tray and the challenger's pending one, a waiting room with its
// Cancel button, a "declined" notice, and the pool wait in the tray on
// another page; 1280x800 and 390x844, en and zh (dark too on the desktop).
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-pools.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch, nav } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const sizes = { desk: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const runs = [];
for (const sz of Object.keys(sizes)) for (const lang of ['en', 'zh']) runs.push([sz, lang, 'light']);
runs.push(['desk', 'zh', 'dark']);
let n = 0;

async function open(sz, lang, theme, user) {
  const ctx = await browser.newContext({ viewport: sizes[sz], locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
  await serveWeb(ctx);
  await ctx.addInitScript(([th]) => { localStorage.setItem('qy-theme', th); localStorage.setItem('qy-sound', 'off'); }, [theme]);
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  if (user) await page.request.post(base + '/api/register', { data: { username: user, password: 'secret123' } });
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  await page.waitForSelector('[data-testid^="pool-"]');
  return page;
}
const shot = async (page, name, tag, full = false) => { await page.waitForTimeout(400); await page.screenshot({ path: join(OUT, `${name}-${tag}.png`), fullPage: full }); };

for (const [sz, lang, theme] of runs) {
  const tag = `${sz}-${lang}-${theme}`;
  const aName = `${lang === 'zh' ? '王小明' : 'alice'}${n}`, bName = `${lang === 'zh' ? '李娜' : 'bob'}${n++}`;
  const a = await open(sz, lang, theme, aName), b = await open(sz, lang, theme, bName);
  // The lobby: waiting in a pool, the other games unfolded.
  await a.click('[data-testid="pool-xiangqi-5+3"]');
  await a.click('[data-testid="pools-more"] > summary');
  await a.waitForTimeout(2500);
  await shot(a, 'pools', tag);
  await shot(a, 'pools-full', tag, true);
  // Elsewhere the tray shows the wait.
  await nav(a, 'a[href="#/rules"]');
  await a.waitForSelector('[data-testid="pool-wait"]');
  await shot(a, 'pool-wait-tray', tag);
  await a.click('[data-testid="pool-wait-cancel"]');
  // A challenge: its waiting room, then pending in the challenger's tray; the challenged's card.
  await a.goto(base + '/#/');
  await a.waitForSelector('[data-testid="create-form"]');
  await a.fill('[data-testid="challenge-name"]', bName);
  await a.click('[data-testid="create"]');
  await a.waitForSelector('[data-testid="challenge-wait"]');
  await shot(a, 'waiting-room', tag);
  await b.waitForSelector('[data-testid^="challenge-card-"]');
  await shot(b, 'challenge-card', tag);
  await a.click('a[href="#/"]');
  await a.waitForSelector('[data-testid^="challenge-out-"]');
  await shot(a, 'challenge-pending', tag);
  await b.click('[data-testid^="challenge-decline-"]');
  await a.waitForSelector('[data-testid="notice"]');
  await shot(a, 'challenge-declined', tag);
  // My games with an open waiting room to cancel.
  await a.fill('[data-testid="challenge-name"]', '');
  await a.selectOption('[data-testid="opponent"]', 'open');
  await a.click('[data-testid="create"]');
  await a.waitForSelector('[data-testid="cancel-room"]');
  await nav(a, '[data-testid="nav-my"]');
  await a.waitForSelector('[data-testid^="cancel-room-"]');
  await shot(a, 'my-games-waiting', tag);
  // Withdrawn again, so that the next pass can open one.
  await a.click('[data-testid^="cancel-room-"]');
  await a.waitForSelector('[data-testid^="cancel-room-"]', { state: 'detached' });
  await a.context().close();
  await b.context().close();
}
await browser.close();
server.kill('SIGTERM');
