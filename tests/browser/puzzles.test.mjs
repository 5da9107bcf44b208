// Issue 40: the puzzle trainer (#/puzzles). A guest solves one (unrated), misses
// one (the solution is played out), a streak counts solved puzzles and ends at
// the first miss, the daily puzzle is the same as the server's, and a registered
// player's rating moves and draws its chart. Screenshots at both sizes in both
// languages when SHOTS_DIR is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, base, shots } from './harness.mjs';


const state = (page) => page.locator('[data-testid="pz-status"]').getAttribute('data-state');
const waitState = (page, s) => page.waitForFunction((want) => document.querySelector('[data-testid="pz-status"]')?.dataset.state === want, s);
const shownId = async (page) => {
  await page.waitForFunction(() => !!document.querySelector('[data-testid="pz-info"]')?.dataset.id);
  return page.locator('[data-testid="pz-info"]').getAttribute('data-id');
};

/** The puzzle's steps as the server sends them. */
async function steps(id) {
  const r = await fetch(`${base}/api/puzzles/${id}`);
  assert.equal(r.status, 200);
  return (await r.json()).steps;
}

/** Plays a square-pair move by clicking the board. */
async function play(page, mv) {
  await page.click(`[data-sq="${mv.slice(0, 2)}"]`);
  await page.waitForSelector(`[data-target="${mv.slice(2, 4)}"]`);
  await page.click(`[data-sq="${mv.slice(2, 4)}"]`);
}

/** Solves the puzzle on the board: every solver step, waiting for the replies. */
async function solve(page) {
  const id = await shownId(page);
  const st = await steps(id);
  for (let i = 1; i < st.length; i += 1) {
    if (!st[i].solver) continue;
    await waitState(page, 'play');
    await play(page, st[i].move);
  }
  await waitState(page, 'solved');
  return id;
}

/** A legal move of the solver's that is not the solution's next one. */
async function wrongMove(page) {
  const st = await steps(await shownId(page));
  return st[0].legal.find((m) => m !== st[1].move);
}

test('a guest solves a puzzle, misses one, and plays unrated', async () => {
  const page = await newPage('en-US');
  await page.click('[data-testid="nav-puzzles"]');
  await page.waitForURL(/#\/puzzles/);
  await page.goto(`${base}/#/puzzles/x0001`);
  await waitState(page, 'play');
  assert.match(await page.locator('[data-testid="pz-status"]').textContent(), /Your move: find the best move for Red/);
  await play(page, 'b5e5');
  await waitState(page, 'solved');
  assert.match(await page.locator('[data-testid="pz-status"]').textContent(), /Solved/);
  await page.waitForSelector('[data-testid="pz-unrated"]');
  await shots(page, 'puzzle-solved-en');

  // Next: a miss plays the solution out on the board.
  await page.click('[data-testid="pz-next"]');
  await waitState(page, 'play');
  const id = await shownId(page);
  const st = await steps(id);
  const wrong = await wrongMove(page);
  await play(page, wrong);
  await waitState(page, 'missed');
  assert.match(await page.locator('[data-testid="pz-status"]').textContent(), /Not the move/);
  await page.waitForFunction(() => /solution is on the board/.test(document.querySelector('[data-testid="pz-note"]').textContent));
  await shots(page, 'puzzle-missed-en');
  const last = st[st.length - 1].move;
  // The last move of the solution is marked on the board.
  await page.waitForSelector(`[data-piece="${last.slice(2, 4)}"]`);
  // A hint marks the piece to move.
  await page.click('[data-testid="pz-next"]');
  await waitState(page, 'play');
  const hid = await shownId(page);
  const hs = await steps(hid);
  await page.click('[data-testid="pz-hint"]');
  assert.match(await page.locator('[data-testid="pz-note"]').textContent(), /piece to move is marked/);
  await page.waitForSelector(`[data-target="${hs[1].move.slice(2, 4)}"]`);
  await page.context().close();
});

test('a streak counts solved puzzles and ends at the first miss', async () => {
  const page = await newPage('zh-CN');
  await page.goto(`${base}/#/puzzles`);
  await page.click('[data-testid="pz-mode-streak"]');
  await page.waitForURL(/#\/puzzles\/streak/);
  await waitState(page, 'play');
  assert.match(await page.locator('[data-testid="pz-streak"]').textContent(), /连胜：0/);
  await solve(page);
  assert.match(await page.locator('[data-testid="pz-streak"]').textContent(), /连胜：1/);
  await page.click('[data-testid="pz-next"]');
  await waitState(page, 'play');
  await solve(page);
  assert.match(await page.locator('[data-testid="pz-streak"]').textContent(), /连胜：2/);
  await page.click('[data-testid="pz-next"]');
  await waitState(page, 'play');
  await play(page, await wrongMove(page));
  await waitState(page, 'missed');
  assert.match(await page.locator('[data-testid="pz-status"]').textContent(), /挑战结束：连解 2 题/);
  assert.equal(await page.locator('[data-testid="pz-next"]').textContent(), '重新挑战');
  await page.waitForFunction(() => /正解已在棋盘上演示/.test(document.querySelector('[data-testid="pz-note"]').textContent));
  await shots(page, 'puzzle-streak-over-zh');
  await page.click('[data-testid="pz-next"]');
  await waitState(page, 'play');
  assert.match(await page.locator('[data-testid="pz-streak"]').textContent(), /连胜：0/);
  await page.context().close();
});

test('the daily puzzle is the server\'s, and a registered player\'s rating moves with a chart', async () => {
  const page = await newPage('en-US');
  const r = await page.evaluate(async () => (await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'solver', password: 'secret123' }) })).status);
  assert.equal(r, 200);
  const daily = await (await fetch(`${base}/api/puzzles/daily`)).json();
  await page.goto(`${base}/#/puzzles/daily`);
  await page.reload();
  await waitState(page, 'play');
  assert.equal(await shownId(page), daily.puzzle.id);
  assert.match(await page.locator('[data-testid="pz-info"]').textContent(), new RegExp(`Puzzle of ${daily.day}`));
  await solve(page);
  await page.waitForFunction(() => /Your puzzle rating: \d+ \(\+\d+\)/.test(document.querySelector('[data-testid="pz-my-rating"]')?.textContent || ''));
  // Training: a miss lowers it; the history has both, with the chart.
  await page.click('[data-testid="pz-mode-rated"]');
  await waitState(page, 'play');
  await play(page, await wrongMove(page));
  await waitState(page, 'missed');
  await page.waitForFunction(() => /\(-\d+\)/.test(document.querySelector('[data-testid="pz-my-rating"]')?.textContent || ''));
  await page.waitForSelector('[data-testid="pz-chart"] polyline');
  await page.waitForFunction(() => /solution is on the board/.test(document.querySelector('[data-testid="pz-note"]').textContent));
  assert.equal(await page.locator('[data-testid="pz-attempts"] li').count(), 2);
  await shots(page, 'puzzle-rated-en');
  // The same in Chinese.
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /习题等级分/.test(document.querySelector('[data-testid="pz-my-rating"]')?.textContent || ''));
  // The rating shown is the one after the last attempt.
  const after = await page.locator('[data-testid="pz-attempts"] li').first().textContent();
  assert.match(await page.locator('[data-testid="pz-my-rating"]').textContent(), new RegExp(`：${after.split('· ')[1].trim()}`));
  await waitState(page, 'play');
  await shots(page, 'puzzle-rated-zh');
  await page.context().close();
});
