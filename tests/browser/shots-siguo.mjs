// Screenshots of four-army Junqi (not a test): the set-up editor, the game
// after a move with every army's latest path, and a spectator's view.
// 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-siguo.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const sizes = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
const only = process.env.SHOTS_ONLY || '';

async function open(sz, lang) {
  const ctx = await browser.newContext({ viewport: sizes[sz], locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
  await serveWeb(ctx);
  await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); }, lang);
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  return page;
}
const shot = async (page, name, tag, full = false) => { await page.waitForTimeout(300); await page.screenshot({ path: join(OUT, `siguo-${name}-${tag}.png`), fullPage: full }); };
const legalOf = (page) => page.evaluate(async () => (await (await fetch(`/api/games/${location.hash.split('/game/')[1]}`, { credentials: 'include' })).json()).legal || []);

for (const sz of Object.keys(sizes)) for (const lang of ['en', 'zh']) {
  const tag = `${sz}-${lang}`;
  if (only && !tag.includes(only)) continue;
  const page = await open(sz, lang);
  await page.selectOption('[data-testid="game-select"]', 'siguo');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-testid="send-setup"]');
  await shot(page, 'setup', tag, sz === 'phone');
  await page.click('[data-testid="send-setup"]');
  // The other armies set up; the game begins with South's move.
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 100, null, { timeout: 20000 });
  await page.waitForFunction(() => /Your move|轮到你/.test(document.querySelector('[data-testid="status"]').textContent));
  await shot(page, 'start', tag);
  const legal = await legalOf(page);
  const mv = legal.find((m) => m.startsWith('g2') || m.startsWith('k2')) || legal[0];
  const [, from, to] = /^([a-q]\d+)([a-q]\d+)$/.exec(mv);
  await page.click(`[data-post="${from}"]`);
  await page.waitForSelector(`[data-target="${to}"]`);
  await shot(page, 'selected', tag);
  await page.click(`[data-post="${to}"]`);
  await page.waitForFunction(() => /Your move|轮到你/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 20000 });
  await shot(page, 'round', tag, sz === 'phone');
  // Another round or two.
  for (let k = 0; k < 3; k++) {
    const l2 = await legalOf(page);
    if (!l2.length) break;
    const m2 = l2[Math.floor(l2.length / 2)];
    const [, a, b] = /^([a-q]\d+)([a-q]\d+)$/.exec(m2);
    const n = await page.locator('[data-testid="moves"] [data-ply]').count();
    await page.click(`[data-post="${a}"]`);
    await page.click(`[data-post="${b}"]`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length > n + 1, n, { timeout: 20000 });
    await page.waitForFunction(() => /Your move|轮到你|over|结束/.test(document.querySelector('[data-testid="status"]').textContent + document.body.textContent), null, { timeout: 20000 });
  }
  await shot(page, 'later', tag, sz === 'phone');
  await page.context().close();
  // West out already; South takes East's flag: the team's win.
  const end = await open(sz, lang);
  const id = await end.evaluate(async () => (await (await fetch('/api/games', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'siguo', opponent: 'ai:1', fen: 'sFh1,sJp8,sGg2,sDi6,nFh17,nPg16,nSi12,eFq8,eTm9,eGl9 s w 0 1' }) })).json()).id);
  await end.goto(`${base}/#/game/${id}`);
  await end.waitForSelector('[data-post="p8"] [data-piece]');
  await shot(end, 'west-out', tag);
  await end.click('[data-post="p8"]');
  await end.click('[data-post="q8"]');
  await end.waitForSelector('#result .result-panel, #result [data-testid]');
  await shot(end, 'won', tag, sz === 'phone');
  await end.context().close();
}
await browser.close();
server.kill('SIGTERM');
