// Screenshots of issue 37's Junqi, Tiaoqi and Banqi items (for people to
// look at, not a test): Junqi in its set-up and after a resignation (every
// rank shown, the result from the viewer's side), a three-player Tiaoqi game
// with the moves since one's own and its result, Banqi before ply 40 (Leave)
// with a timed-out turn. Desktop and phone, English and Chinese.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-i37d.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch } from './shots-kit.mjs';

const { server, base } = await startHall();
// Only the parts named (junqi, tiaoqi3, tiaoqi2, banqi), comma-separated; all by default.
const ONLY = (process.argv[3] || 'junqi,tiaoqi3,tiaoqi2,banqi').split(',');
const browser = await launch();
const SIZES = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };

async function page(size, lang) {
  const ctx = await browser.newContext({ viewport: SIZES[size], deviceScaleFactor: 1, isMobile: size === 'phone', hasTouch: size === 'phone' });
  await serveWeb(ctx);
  await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); }, lang);
  const p = await ctx.newPage();
  p.on('dialog', (d) => d.accept());
  p.setDefaultTimeout(20000);
  await p.goto(base + '/');
  await p.waitForSelector('[data-testid="create-form"]');
  return p;
}
async function create(p, game, opponent) {
  await p.selectOption('[data-testid="game-select"]', game);
  await p.selectOption('[data-testid="opponent"]', opponent);
  await p.click('[data-testid="create"]');
  await p.waitForURL(/#\/game\//);
  return p.url().split('#/game/')[1];
}
const legalOf = (p) => p.evaluate(async () => (await (await fetch(`/api/games/${location.hash.split('/game/')[1]}`, { credentials: 'include' })).json()));
const shot = (p, name) => p.screenshot({ path: join(OUT, `${name}.png`), fullPage: false });

for (const lang of ['en', 'zh']) for (const size of ['desk', 'phone']) {
  const tag = `${size}-${lang}`;
  // Junqi: set-up, then a few moves and a resignation.
  let p;
  if (ONLY.includes('junqi')) {
  p = await page(size, lang);
  await create(p, 'junqi', 'ai:1');
  await p.waitForSelector('[data-testid="send-setup"]');
  await p.waitForTimeout(300);
  await shot(p, `junqi-setup-${tag}`);
  await p.click('[data-testid="planned-setup"]');
  await p.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  for (let i = 0; i < 3; i++) {
    await p.waitForFunction(() => { const s = document.querySelector('[data-testid="status"]'); return s && /Your move|轮到你/.test(s.textContent); });
    const s = await legalOf(p);
    const m = s.legal.find((x) => /^[a-e]\d+[a-e]\d+$/.test(x));
    const n = s.records.length;
    await p.evaluate(([id, mv]) => fetch(`/api/games/${id}/moves`, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: mv }) }), [s.id, m]);
    await p.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= n + 2, n);
  }
  await shot(p, `junqi-play-${tag}`);
  await p.click('[data-testid="resign"]');
  await p.waitForSelector('[data-testid="result-panel"]');
  await p.waitForTimeout(500);
  await shot(p, `junqi-over-${tag}`);
  if (size === 'phone') { await p.evaluate(() => document.querySelector('[data-testid="result-panel"]').scrollIntoView()); await shot(p, `junqi-over-panel-${tag}`); }
  await p.context().close();
  }

  // Tiaoqi, three players: two moves of ours, the AIs answer; then resign.
  if (ONLY.includes('tiaoqi3')) {
  p = await page(size, lang);
  await create(p, 'tiaoqi-3', 'ai:1');
  await p.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
  for (let i = 0; i < 2; i++) {
    await p.waitForFunction(() => { const s = document.querySelector('[data-testid="status"]'); return s && /Your move|轮到你/.test(s.textContent); });
    const s = await legalOf(p);
    const m = s.legal.filter((x) => x !== 'pass').sort((a, b) => Number(b.split('-').pop().split('.')[0]) - Number(a.split('-').pop().split('.')[0]))[0];
    const n = s.records.length;
    await p.evaluate(([id, mv]) => fetch(`/api/games/${id}/moves`, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: mv }) }), [s.id, m]);
    await p.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= n + 3, n);
  }
  await p.waitForTimeout(600);
  await shot(p, `tiaoqi3-play-${tag}`);
  await p.click('[data-testid="resign"]');
  await p.waitForTimeout(1500);
  await shot(p, `tiaoqi3-after-resign-${tag}`);
  await p.context().close();
  }

  // Tiaoqi two players resigned: the result panel.
  if (ONLY.includes('tiaoqi2')) {
  p = await page(size, lang);
  await create(p, 'tiaoqi', 'ai:1');
  await p.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
  await p.click('[data-testid="resign"]');
  await p.waitForSelector('[data-testid="result-panel"]');
  await p.evaluate(() => document.querySelector('[data-testid="result-panel"]').scrollIntoView());
  await shot(p, `tiaoqi2-over-${tag}`);
  await p.context().close();
  }

  // Banqi: before ply 40, the Leave button and why resigning waits.
  if (ONLY.includes('banqi')) {
  p = await page(size, lang);
  await create(p, 'banqi', 'ai:1');
  await p.waitForSelector('[data-testid="leave"]');
  await p.evaluate(() => document.querySelector('[data-testid="leave"]').scrollIntoView({ block: 'center' }));
  await shot(p, `banqi-leave-${tag}`);
  await p.context().close();
  }
}
await browser.close();
server.kill('SIGTERM');
