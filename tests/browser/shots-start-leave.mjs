// Screenshots of starting and leaving (not a test): the create form with
// days per move and a rating range; the lobby with a bot's room and a room
// outside one's rating; a game's first-move countdown and Abort button; the
// aborted result; "opponent left" with its claim buttons; a correspondence
// game's clocks; a profile with the bot action and a bot's badge.
// 1280x800 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-start-leave.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const sizes = { desk: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
let n = 0;

async function open(sz, lang, user) {
  const ctx = await browser.newContext({ viewport: sizes[sz], locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
  await serveWeb(ctx);
  await ctx.addInitScript(() => { localStorage.setItem('qy-sound', 'off'); });
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  if (user) await page.request.post(base + '/api/register', { data: { username: user, password: 'secret123' } });
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  return page;
}
const shot = async (page, name, tag, full = false) => { await page.waitForTimeout(400); await page.screenshot({ path: join(OUT, `${name}-${tag}.png`), fullPage: full }); };
const move = async (page, from, to) => { await page.click(`[data-sq="${from}"]`); await page.waitForSelector(`[data-target="${to}"]`); await page.click(`[data-sq="${to}"]`); };
const moves = (page, k) => page.waitForFunction((k) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= k, k);

for (const sz of Object.keys(sizes)) for (const lang of ['en', 'zh']) {
  const tag = `${sz}-${lang}`;
  const i = n++;
  // A bot's room and a room kept to ratings 1500–1800, seen by a newcomer.
  const bot = await open(sz, lang, `robo${i}`);
  await bot.request.post(base + '/api/account/bot');
  await bot.request.post(base + '/api/games', { data: { game: 'xiangqi', opponent: 'open', clock: { initial_s: 180, increment_s: 2 } } });
  const seeker = await open(sz, lang, `seeker${i}`);
  await seeker.request.post(base + '/api/games', { data: { game: 'xiangqi', opponent: 'open', days: 3, rating_range: { min: 1500, max: 1800 } } });
  const a = await open(sz, lang, `alice${i}`);
  await a.selectOption('[data-testid="clock-type"]', 'days');
  await a.fill('[data-testid="range-min"]', '900');
  await a.fill('[data-testid="range-max"]', '1400');
  await a.waitForSelector('tr.out-of-range');
  await shot(a, 'lobby', tag, true);
  // The bot's profile.
  await a.goto(`${base}/#/user/robo${i}`);
  await a.waitForSelector('[data-testid="bot-badge"]');
  await shot(a, 'profile-bot', tag);
  // One's own new account: the bot action.
  await a.goto(`${base}/#/user/alice${i}`);
  await a.waitForSelector('[data-testid="make-bot"]');
  await shot(a, 'profile-own', tag);
  // A correspondence game (joined, one move each).
  await a.goto(base + '/#/');
  await a.waitForSelector('[data-testid="create-form"]');
  await a.selectOption('[data-testid="clock-type"]', 'days');
  await a.selectOption('[data-testid="days"]', '2');
  await a.click('[data-testid="create"]');
  await a.waitForURL(/#\/game\//);
  const cid = a.url().split('#/game/')[1];
  const b = await open(sz, lang);
  await b.goto(`${base}/#/game/${cid}`);
  await b.click('[data-testid="join"]');
  await a.waitForSelector('[data-testid="first-move"]');
  await shot(a, 'game-first-move', tag);
  await move(a, 'h2', 'e2');
  await moves(b, 1);
  await move(b, 'h9', 'g7');
  await moves(a, 2);
  await shot(a, 'game-days', tag);
  // A game aborted by its button.
  await b.goto(base + '/#/');
  await b.waitForSelector('[data-testid="create-form"]');
  await b.click('[data-testid="create"]');
  await b.waitForURL(/#\/game\//);
  const gid = b.url().split('#/game/')[1];
  await a.goto(`${base}/#/game/${gid}`);
  await a.click('[data-testid="join"]');
  await b.waitForSelector('[data-testid="abort"]');
  await b.click('[data-testid="abort"]');
  await a.waitForSelector('[data-testid="result-head"]');
  await shot(a, 'game-aborted', tag);
  // One minute a side: the opponent's page closes during their move.
  await a.goto(base + '/#/');
  await a.waitForSelector('[data-testid="create-form"]');
  await a.fill('[data-testid="minutes"]', '1');
  await a.fill('[data-testid="increment"]', '0');
  await a.click('[data-testid="create"]');
  await a.waitForURL(/#\/game\//);
  const lid = a.url().split('#/game/')[1];
  await b.goto(`${base}/#/game/${lid}`);
  await b.click('[data-testid="join"]');
  await move(a, 'h2', 'e2');
  await moves(b, 1);
  await move(b, 'h9', 'g7');
  await moves(a, 2);
  await move(a, 'b0', 'c2');
  await moves(b, 3);
  await b.context().close();
  await a.waitForSelector('[data-testid="claim-countdown"]', { timeout: 20000 }).catch(() => {});
  await shot(a, 'game-left-countdown', tag);
  await a.waitForSelector('[data-testid="claim-win"]', { timeout: 20000 });
  await shot(a, 'game-left-claim', tag);
  for (const p of [bot, seeker, a]) await p.context().close();
}
await browser.close();
server.kill('SIGTERM');
