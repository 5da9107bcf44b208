// Screenshots of the review after a game and the position editor (issue 39,
// not a test): a short game with a hanging chariot reviewed, ply 3 shown
// from the graph; the editor with a refused position and its reason;
// 1440x900 and 390x844, en and zh.
// Usage: QIYUAN_BIN=... [QIYUAN_WEB=...] node shots-review.mjs OUTDIR
import { join } from 'node:path';
import { serveWeb } from './web-override.mjs';
import { OUT, startHall, launch } from './shots-kit.mjs';

const { server, base } = await startHall();
const browser = await launch();
const sizes = { desk: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };

async function player() {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 1000 } });
  await serveWeb(ctx);
  await ctx.addInitScript(() => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', 'en'); });
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  return page;
}
const plies = (p, n) => p.waitForFunction((k) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= k, n);
async function mv(p, a, b) { await p.click(`[data-sq="${a}"]`); await p.waitForSelector(`[data-target="${b}"]`); await p.click(`[data-sq="${b}"]`); }

try {
  // The game: red and black in two contexts; red leaves a chariot to the cannon, then resigns.
  const red = await player();
  await red.selectOption('[data-testid="game-select"]', 'xiangqi');
  await red.selectOption('[data-testid="opponent"]', 'open');
  await red.click('[data-testid="create"]');
  await red.waitForURL(/#\/game\//);
  const id = red.url().split('#/game/')[1];
  const black = await player();
  await black.click(`[data-testid="join-${id}"]`);
  await black.waitForSelector('[data-piece="e0"]');
  await red.waitForSelector('[data-piece="e0"]');
  await mv(red, 'h0', 'g2'); await plies(black, 1);
  await mv(black, 'h9', 'g7'); await plies(red, 2);
  await mv(red, 'i0', 'h0'); await plies(black, 3);
  await mv(black, 'h7', 'h0'); await plies(red, 4);
  await mv(red, 'g2', 'h0'); await plies(black, 5);
  await mv(black, 'i9', 'h9'); await plies(red, 6);
  await red.click('[data-testid="resign"]');
  await red.waitForSelector('[data-testid="result-panel"]');
  for (const [sz, viewport] of Object.entries(sizes)) for (const lang of ['en', 'zh']) {
    const ctx = await browser.newContext({ viewport, locale: lang === 'zh' ? 'zh-CN' : 'en-US', isMobile: sz === 'phone', hasTouch: sz === 'phone' });
    await serveWeb(ctx);
    await ctx.addInitScript((l) => { localStorage.setItem('qy-sound', 'off'); localStorage.setItem('qy-lang', l); localStorage.removeItem('qy-notation'); }, lang);
    const page = await ctx.newPage();
    page.on('dialog', (d) => d.accept());
    await page.goto(`${base}/#/game/${id}`);
    await page.waitForSelector('[data-testid="analyse"]');
    await page.click('[data-testid="analyse"]');
    await page.waitForSelector('[data-testid="analysis"]', { timeout: 60000 });
    await page.locator('[data-testid="graph-ply-3"]').click({ force: true });
    await page.waitForSelector('[data-testid="moves"] .cur[data-ply="3"]');
    await page.screenshot({ path: join(OUT, `review-${sz}-${lang}.png`), fullPage: true });
    await page.locator('[data-testid="analysis"]').screenshot({ path: join(OUT, `review-panel-${sz}-${lang}.png`) });
    // The editor: a few pieces, an elephant where none can stand, refused.
    await page.evaluate(() => { location.hash = '#/analysis'; });
    await page.waitForSelector('[data-testid="edit-position"]');
    await page.click('[data-testid="edit-position"]');
    await page.click('[data-testid="editor-clear"]');
    const put = async (letter, sqs) => { await page.click(`[data-testid="palette-${letter}"]`); for (const s of sqs) await page.click(`[data-testid="editor-board"] [data-sq="${s}"]`); };
    await put('R', ['a0', 'd4']);
    await put('C', ['e2']);
    await put('B', ['e5']);
    await put('a', ['d9', 'e8']);
    await put('n', ['c6']);
    await put('p', ['e6', 'g4']);
    await page.click('[data-testid="editor-analyse"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="editor-error"]').textContent.length > 0);
    await page.screenshot({ path: join(OUT, `editor-${sz}-${lang}.png`), fullPage: true });
    // Jifen (contest): an Idle chariot, a Small cannon, scores.
    await page.click('[data-testid="editor-cancel"]');
    await page.selectOption('[data-testid="study-variant"]', 'jifen-contest');
    await page.waitForFunction(() => location.hash.startsWith('#/analysis/jifen-contest'));
    await page.waitForSelector('[data-testid="edit-position"]');
    await page.click('[data-testid="edit-position"]');
    await page.click('[data-testid="editor-clear"]');
    await put('P', ['e5', 'c4']);
    await put('n', ['g7']);
    await page.click('[data-testid="editor-class-idle"]');
    await put('R', ['a1']);
    await page.click('[data-testid="editor-class-small"]');
    await put('c', ['b5']);
    await page.fill('[data-testid="editor-score-red"]', '12');
    await page.fill('[data-testid="editor-score-black"]', '9');
    await page.dispatchEvent('[data-testid="editor-score-black"]', 'change');
    await page.screenshot({ path: join(OUT, `editor-jifen-${sz}-${lang}.png`), fullPage: true });
    await page.click('[data-testid="editor-analyse"]');
    await page.waitForSelector('[data-testid="analysis-board"] [data-piece="a1"]');
    await page.screenshot({ path: join(OUT, `board-jifen-${sz}-${lang}.png`), fullPage: true });
    await ctx.close();
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
