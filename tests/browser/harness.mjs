import { before, after } from 'node:test';
import { spawn, execSync } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serveWeb, webArgs } from './web-override.mjs';

const BIN = process.env.QIYUAN_BIN || join(process.cwd(), '../../target/debug/qiyuan');
export let server, base, browser;

/** Where screenshots go (SHOTS_DIR); none are taken when it is unset. */
export const SHOTS = process.env.SHOTS_DIR || '';
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

/**
 * Screenshots of the page at desktop and phone size (the phone one whole),
 * `SHOTS/<name>-<width>.png`, when SHOTS_DIR is set; `testid`, when given, is
 * scrolled into view first. The page is left at the tests' usual size.
 */
export async function shots(page, name, testid = '') {
  if (!SHOTS) return;
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    if (testid) await page.locator(`[data-testid="${testid}"]`).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    else await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}/${name}-${w}.png`, fullPage: !testid && w < 600 });
  }
  await page.setViewportSize({ width: 900, height: 1000 });
}

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'qiyuan-browser-'));
  server = spawn(BIN, ['serve', '--port', '0', '--database', `sqlite://${join(dir, 'hall.db')}`, '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start')), 20000);
    server.stdout.on('data', (d) => {
      const m = /listening on (http:\/\/\S+)/.exec(String(d));
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const executablePath = execSync('command -v chromium').toString().trim();
  browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...webArgs],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
});

export async function newPage(locale = 'en-US') {
  const ctx = await browser.newContext({ locale, viewport: { width: 900, height: 1000 } });
  await serveWeb(ctx);
  // Sounds are off in tests unless a test turns them on.
  await ctx.addInitScript(() => { if (!localStorage.getItem('qy-sound')) localStorage.setItem('qy-sound', 'off'); });
  const page = await ctx.newPage();
  page.on('dialog', (d) => d.accept());
  page.setDefaultTimeout(15000);
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  return page;
}

export async function createGame(page, { game = 'xiangqi', opponent = 'open' } = {}) {
  await page.selectOption('[data-testid="game-select"]', game);
  await page.selectOption('[data-testid="opponent"]', opponent);
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-piece="e0"]');
  return page.url().split('#/game/')[1];
}

export async function move(page, from, to) {
  await page.click(`[data-sq="${from}"]`);
  await page.waitForSelector(`[data-target="${to}"]`);
  await page.click(`[data-sq="${to}"]`);
}

export const moveCount = (page) => page.locator('[data-testid="moves"] [data-ply]').count();

export async function waitMoves(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= n, n);
}

export const yourMove = (page) => page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));

// Counts the move animations the board starts (its layer is short-lived).
export const statusText = (page) => page.locator('[data-testid="status"]').textContent();
export const waitStatus = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="status"]').textContent), re.source);

// A move that may ask for the Jifen class: the class is kept.
export const statusIs = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="status"]').textContent), re.source);
export const titleIs = (page, re) => page.waitForFunction((src) => new RegExp(src).test(document.title), re.source);

export async function openRoomAndJoin(game) {
  const a = await newPage();
  await a.selectOption('[data-testid="game-select"]', game);
  await a.selectOption('[data-testid="opponent"]', 'open');
  await a.click('[data-testid="create"]');
  await a.waitForURL(/#\/game\//);
  const id = a.url().split('#/game/')[1];
  const b = await newPage();
  await b.click(`[data-testid="join-${id}"]`);
  await b.waitForURL(new RegExp(`#/game/${id}`));
  return [a, b, id];
}

export async function tiaoqiVsAi(page, game, level = 'ai:1') {
  await page.selectOption('[data-testid="game-select"]', game);
  await page.selectOption('[data-testid="opponent"]', level);
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
  return page.url().split('#/game/')[1];
}
