// Browser tests of the Tiaoqi (Chinese checkers) page.
import { test } from 'node:test';
import { serveWeb } from './web-override.mjs';
import assert from 'node:assert/strict';
import { base, browser, newPage, createGame, move, moveCount, waitMoves, yourMove, statusText, waitStatus, statusIs, titleIs, openRoomAndJoin, tiaoqiVsAi } from './harness.mjs';

test('a two-player Tiaoqi game is played by clicking, with a jump chain', async () => {
  const [a, b] = await openRoomAndJoin('tiaoqi');
  const filled = (page, cell, colour) => page.waitForFunction(
    ([cell, colour]) => document.querySelector(`[data-cell="${cell}"]`)?.getAttribute('fill') === colour, [cell, colour]);
  // The star has 121 holes; a (south, red) moves first.
  await a.waitForFunction(() => document.querySelectorAll('[data-cell]').length === 121);
  await a.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  // A single jump: clicking the piece marks every hole it can reach.
  await a.click('[data-cell="3.1"]');
  await a.waitForSelector('[data-cell="5.5"][data-target]');
  await a.click('[data-cell="5.5"]');
  await filled(b, '5.5', '#d33');
  await b.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await b.click('[data-cell="14.1"]');
  await b.click('[data-cell="13.5"]');
  await filled(a, '13.5', '#2a4');
  // A chain of two hops from the back row: 1.1-3.1-5.7.
  await a.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await a.click('[data-cell="1.1"]');
  await a.click('[data-cell="5.7"]');
  await filled(b, '5.7', '#d33');
  await b.waitForSelector('[data-testid="moves"] >> text=1.1-3.1-5.7');
  await a.context().close();
  await b.context().close();
});

// A Tiaoqi room against the AI, from the lobby's form; the page is on the game.

const countAnimations = (page) => page.evaluate(() => {
  window.__anims = 0;
  new MutationObserver((list) => {
    for (const m of list) for (const n of m.addedNodes) if (n.classList && n.classList.contains('tq-anim')) window.__anims++;
  }).observe(document.querySelector('[data-testid="board"]'), { childList: true, subtree: true });
});

test('Tiaoqi: hovering a target draws its jump path hop by hop; moves are animated', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi');
  // The own camp and the target are marked and labelled.
  await page.waitForSelector('[data-testid="own-camp"][data-camp="a"]');
  await page.waitForSelector('[data-testid="target-camp"][data-camp="d"]');
  assert.equal(await page.locator('[data-testid="own-camp-label"]').textContent(), 'Your camp');
  await yourMove(page);
  await countAnimations(page);
  await page.click('[data-cell="3.1"]');
  await page.hover('[data-cell="5.5"]');
  const one = page.locator('[data-testid="jump-path"]');
  assert.equal(await one.getAttribute('data-path'), '3.1-5.5');
  await page.click('[data-cell="5.5"]');
  await waitMoves(page, 2);
  await yourMove(page);
  // Both the own move and the AI's answer were animated.
  await page.waitForFunction(() => window.__anims >= 2);
  // Now 1.1 has a chain of two hops over 2.1 and 4.2 to 5.7.
  await page.click('[data-cell="1.1"]');
  await page.waitForSelector('[data-cell="5.7"][data-target]');
  await page.hover('[data-cell="5.7"]');
  const path = page.locator('[data-testid="jump-path"]');
  assert.equal(await path.getAttribute('data-path'), '1.1-3.1-5.7');
  assert.equal(await path.getAttribute('data-hops'), '2');
  assert.equal((await path.getAttribute('points')).trim().split(/\s+/).length, 3);
  // Leaving the target takes the path away.
  await page.hover('[data-cell="9.5"]');
  await page.waitForSelector('[data-testid="jump-path"]', { state: 'detached' });
  await page.click('[data-cell="1.1"]');
  await page.context().close();
});

test('Tiaoqi on a phone: the board fits, the first tap on a target shows its path, the second plays it', async () => {
  const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await serveWeb(ctx);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  await tiaoqiVsAi(page, 'tiaoqi-6');
  const box = await page.locator('[data-testid="board"]').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the board fits the width: ${JSON.stringify(box)}`);
  // Holes are far enough apart to be hit by a finger.
  const a = await page.locator('[data-cell="5.5"]').boundingBox(), b = await page.locator('[data-cell="5.6"]').boundingBox();
  assert.ok(b.x - a.x >= 24, `holes ${b.x - a.x}px apart`);
  await yourMove(page);
  await page.tap('[data-cell="3.1"]');
  await page.tap('[data-cell="5.5"]');
  await page.waitForSelector('[data-testid="jump-path"][data-path="3.1-5.5"]');
  await page.waitForSelector('[data-testid="tap-again"]');
  assert.equal(await moveCount(page), 0);
  await page.tap('[data-cell="5.5"]');
  await page.waitForFunction(() => document.querySelector('[data-cell="5.5"]').getAttribute('fill') === '#d33');
  await ctx.close();
});

test('a three-seat Tiaoqi game lists every seat with its distance left', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi-3');
  for (const l of ['a', 'c', 'e']) {
    const seat = page.locator(`[data-testid="seat-${l}"]`);
    assert.match(await seat.textContent(), l === 'a' ? /\(you\)/ : l === 'c' ? /Computer \(Yellow\)/ : /Computer \(Blue\)/);
    assert.equal(await page.locator(`[data-testid="to-go-${l}"]`).textContent(), '140');
  }
  assert.equal(await page.locator('[data-testid="seats"] [data-clock-seat]').count(), 3);
  assert.equal(await page.locator('[data-testid="seat-b"]').count(), 0);
  await yourMove(page);
  await page.click('[data-cell="3.1"]');
  await page.click('[data-cell="5.5"]');
  // Two rows gained; c and e answer, then it is a's turn again.
  await page.waitForFunction(() => document.querySelector('[data-testid="to-go-a"]').textContent === '138');
  await waitMoves(page, 3);
  await yourMove(page);
  for (const l of ['c', 'e']) assert.ok(Number(await page.locator(`[data-testid="to-go-${l}"]`).textContent()) < 140);
  assert.match(await page.locator('[data-testid="seat-a"]').getAttribute('class'), /turn/);
  // The move list names each move's mover.
  assert.equal(await page.locator('[data-testid="moves"] td[data-ply="2"] .tq-swatch').textContent(), 'c');
  // Replaying the first move shows the board after it.
  await page.click('[data-testid="moves"] td[data-ply="1"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="to-go-c"]').textContent === '140');
  assert.equal(await page.locator('[data-cell="5.5"]').getAttribute('fill'), '#d33');
  await page.context().close();
});

test('Tiaoqi: the finishing order once the game is over, in English and Chinese', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi');
  await yourMove(page);
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="finish-order"]');
  assert.match(await page.locator('[data-testid="finish-place-1"]').textContent(), /1st\s*d\s*Computer \(Green\)/);
  assert.match(await page.locator('[data-testid="finish-place-2"]').textContent(), /2nd\s*a.*\(you\)/);
  assert.match(await page.locator('[data-testid="status"]').textContent(), /^Computer \(Green\) wins$/);
  // Issue 37: the result from the viewer's side, in words with colours and names.
  assert.equal(await page.locator('[data-testid="result-head"]').textContent(), 'You lost · Computer (Green) wins');
  assert.match(await page.locator('[data-testid="result-panel"]').getAttribute('class'), /\blost\b/);
  assert.match(await page.locator('[data-testid="result-explanation"]').textContent(), /^Red \(guest-[0-9a-f]+\) resigned\.$/);
  assert.doesNotMatch(await page.locator('[data-testid="result-panel"]').textContent(), /Seat 1|seat 1|AI 1|target score/);
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="finish-order"] >> text=名次');
  assert.match(await page.locator('[data-testid="finish-place-1"]').textContent(), /第1名\s*d\s*电脑（绿）/);
  assert.equal(await page.locator('[data-testid="result-head"]').textContent(), '你输了 · 电脑（绿）胜');
  assert.match(await page.locator('[data-testid="result-explanation"]').textContent(), /^红方（guest-[0-9a-f]+）认输。$/);
  await page.context().close();
});

// ---------------------------------------------------------------- issue 37

test('Tiaoqi (issue 37): two AIs are told apart by colour, every move since one\'s own is drawn, older ones fainter', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi-3');
  await yourMove(page);
  // Before a's first move: nothing to draw yet.
  assert.equal(await page.locator('[data-testid="last-path"], [data-testid="recent-path"]').count(), 0);
  await page.click('[data-cell="3.1"]');
  await page.click('[data-cell="5.5"]');
  await waitMoves(page, 3);
  await yourMove(page);
  // c's and e's moves since a's own: e's the newest, c's fainter before it.
  const paths = await page.locator('polyline[data-ply]').evaluateAll((els) => els.map((e) => ({ testid: e.dataset.testid, ply: Number(e.dataset.ply), op: Number(e.getAttribute('stroke-opacity')), stroke: e.getAttribute('stroke') })));
  assert.deepEqual(paths.map((p) => [p.testid, p.ply]), [['recent-path', 2], ['last-path', 3]]);
  assert.ok(paths[0].op < paths[1].op, 'the older move is fainter');
  assert.deepEqual(paths.map((p) => p.stroke), ['#db2', '#27c'], 'each in its mover\'s colour (c yellow, e blue)');
  // Its start and end holes are ringed.
  assert.equal(await page.locator('[data-recent]').count(), 2);
  // Names: two AIs of the same level read differently.
  const names = await page.locator('[data-testid="seats"] .tq-name').allTextContents();
  assert.ok(names.some((n) => /Computer \(Yellow\)/.test(n)) && names.some((n) => /Computer \(Blue\)/.test(n)), names.join('|'));
  // Replaying the position after ply 2 (c's move): only what came since a's move then.
  await page.click('[data-testid="moves"] td[data-ply="2"]');
  await page.waitForFunction(() => document.querySelectorAll('polyline[data-ply]').length === 1);
  assert.equal(await page.locator('polyline[data-ply]').getAttribute('data-ply'), '2');
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /电脑（黄）/.test(document.querySelector('[data-testid="seats"]')?.textContent || ''));
  await page.context().close();
});

test('Tiaoqi (issue 13): the seat list shows whole names and rank titles, at desktop and phone sizes', async () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    const page = await newPage();
    await page.setViewportSize(viewport);
    await tiaoqiVsAi(page, 'tiaoqi-3');
    await page.waitForSelector('[data-testid="seats"] .rank-title');
    // Nothing in a seat's name cell is cut: its content fits its box.
    const cut = await page.locator('[data-testid="seats"] .tq-name').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis').map((e) => e.textContent));
    assert.deepEqual(cut, [], `${viewport.width}px`);
    for (const title of await page.locator('[data-testid="seats"] .rank-title').all()) {
      const [t, n] = [await title.boundingBox(), await title.evaluate((e) => e.closest('.tq-name').getBoundingClientRect().toJSON())];
      assert.ok(t.x >= n.x - 1 && t.x + t.width <= n.x + n.width + 1, `${viewport.width}px: a title inside its cell`);
    }
    await page.context().close();
  }
});

test('Tiaoqi: the server\'s progress (dead-game countdown, places, out) is shown per seat', async () => {
  // The module renders a state as the server sends it; this one is made up.
  const page = await newPage();
  const html = await page.evaluate(async () => {
    const m = await import('/static/games/tiaoqi.js');
    const i18n = await import('/static/i18n.js');
    const state = {
      id: 'x', game: 'tiaoqi-4', status: 'playing', seat: 0, to_move: 1, records: [],
      fen: 'd/dd/ddd/dddd/cccc........./ccc........./cc........./c........./........./........../.........../............/............./aaaa/aaa/aa/a c acd',
      seats: [{ kind: 'user', name: 'me' }, { kind: 'ai', level: 2 }, { kind: 'ai', level: 3 }, { kind: 'ai', level: 4 }],
      progress: { seats: [{ to_go: 140, countdown: 4, place: null, out: false }, { to_go: 140, countdown: 2, place: null, out: false }, { to_go: 20, countdown: null, place: 1, out: false }, { to_go: null, countdown: null, place: null, out: true }], dead_game: true, quiet_left: null },
    };
    const ctx = { t: i18n.t, esc: (s) => String(s), seatLabel: (s) => (s.kind === 'ai' ? `AI ${s.level}` : s.name), titleSlot: () => '', replayPly: null, fen: state.fen };
    return { seats: m.seats(state, ctx), info: m.info(state, i18n.t, ctx), quiet: m.info({ ...state, progress: { ...state.progress, dead_game: false, quiet_left: 3 } }, i18n.t, ctx) };
  });
  await page.setContent(`<div id="s">${html.seats}</div><div id="i">${html.info}</div><div id="q">${html.quiet}</div>`);
  assert.match(await page.locator('[data-testid="countdown-a"]').textContent(), /4 moves left/);
  assert.match(await page.locator('[data-testid="countdown-c"]').textContent(), /2 moves left/);
  assert.equal(await page.locator('[data-testid="place-mark-d"]').textContent(), '1st');
  assert.equal(await page.locator('[data-testid="out-mark-f"]').textContent(), 'out');
  assert.equal(await page.locator('[data-testid="to-go-d"]').textContent(), '20');
  assert.match(await page.locator('#i [data-testid="dead-game"]').textContent(), /Dead game/);
  assert.match(await page.locator('#q [data-testid="quiet-left"]').textContent(), /3 rounds/);
  await page.context().close();
});

test('the leaderboard page reaches the multi-player Tiaoqi board', async () => {
  const page = await newPage();
  await page.click('[data-testid="nav-leaderboard"]');
  await page.click('[data-testid="lb-tab-tiaoqi-multi"]');
  await page.waitForURL(/#\/leaderboard\/tiaoqi-multi/);
  await page.waitForFunction(() => !/…/.test(document.getElementById('lb').textContent));
  assert.equal(await page.locator('#lb .err').count(), 0);
  assert.match(await page.locator('a.cur').textContent(), /3-6 players/);
  const r = await page.request.get(base + '/api/leaderboard/tiaoqi-multi');
  assert.equal(r.status(), 200);
  await page.context().close();
});

test('Tiaoqi: a player who resigns a three-seat game is out, and the others play on', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi-3');
  await yourMove(page);
  await page.click('[data-cell="3.1"]');
  await page.click('[data-cell="5.5"]');
  await waitMoves(page, 3);
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="out-mark-a"]');
  assert.match(await page.locator('[data-testid="seat-a"]').getAttribute('class'), /\bout\b/);
  // Level-1 AI seats may finish the game within the same second.
  assert.match(await page.locator('[data-testid="status"]').textContent(), /You are out|wins/);
  assert.equal(await page.locator('[data-testid="resign"]').count(), 0);
  // a's pieces left the board; c and e still have their ten each.
  await page.waitForFunction(() => ![...document.querySelectorAll('[data-cell]')].some((c) => c.getAttribute('fill') === '#d33'));
  assert.equal(await page.locator('[data-testid="to-go-a"]').textContent(), '—');
  assert.ok(Number(await page.locator('[data-testid="to-go-c"]').textContent()) > 0);
  // The record names who resigned.
  const last = page.locator('[data-testid="moves"] td[data-ply]', { hasText: 'resign' });
  assert.equal(await last.locator('.tq-swatch').textContent(), 'a');
  // Out of the game, a sees at most one round of moves drawn (c's and e's latest), never the whole game since.
  await waitMoves(page, 8);
  assert.ok(await page.locator('polyline[data-ply]').count() <= 2);
  await page.context().close();
});

// ---------------------------------------------------------------- issue 18: the game page

test('Tiaoqi: row numbers on the star, no draw offer, no claim', async () => {
  const page = await newPage();
  await tiaoqiVsAi(page, 'tiaoqi');
  await yourMove(page);
  assert.equal(await page.locator('[data-testid="coords"] [data-coord]').count(), 15);
  assert.equal(await page.locator('[data-testid="offer-draw"]').count(), 0);
  assert.equal(await page.locator('[data-testid="claim"]').count(), 0);
  assert.equal(await page.locator('[data-testid="pgn"]').isVisible(), false);
  await page.waitForSelector('[data-testid="resign"]');
  await page.context().close();
});
