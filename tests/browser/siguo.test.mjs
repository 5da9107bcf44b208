// Browser tests of the four-army Junqi page (issue 38, S1-S15): the set-up
// editor of the two-army game, the board turned to the viewer's army, the
// four seats with teams and clocks, a move by clicks among the legal ones,
// the other armies' moves in words and as paths, a spectator's view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage } from './harness.mjs';

const legalOf = (page) => page.evaluate(async () => (await (await fetch(`/api/games/${location.hash.split('/game/')[1]}`, { credentials: 'include' })).json()).legal || []);
const plies = (page) => page.locator('[data-testid="moves"] [data-ply]').count();

/** A siguo room with three AI seats, the viewer in `seat` (south, east, north, west), in its set-up phase. */
async function siguoVsAi(seat = 'south') {
  const page = await newPage();
  if (seat === 'south') {
    await page.selectOption('[data-testid="game-select"]', 'siguo');
    await page.selectOption('[data-testid="opponent"]', 'ai:1');
    await page.click('[data-testid="create"]');
  } else {
    const id = await page.evaluate(async (seat) => {
      const r = await fetch('/api/games', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'siguo', opponent: 'ai:1', seat }) });
      return (await r.json()).id;
    }, seat);
    await page.goto(`${page.url().split('#')[0]}#/game/${id}`);
  }
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-testid="send-setup"]');
  return page;
}

/** The screen centre of a post on the board (read in one go: the board is drawn again on every frame). */
const centre = (page, post) => page.evaluate((post) => { const b = document.querySelector(`[data-post="${post}"]`).getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; }, post);

/** Every post's screen centre. */
const allCentres = (page) => page.locator('[data-post]').evaluateAll((els) => els.map((e) => { const b = e.getBoundingClientRect(); return [e.getAttribute('data-post'), b.x + b.width / 2, b.y + b.height / 2]; }));

test('siguo: the set-up editor of the two-army game in South\'s frame; sent, the four armies stand, South at the bottom', async () => {
  const page = await siguoVsAi();
  assert.match(await page.locator('[data-testid="setup-phase"]').textContent(), /Set-up/);
  // The standard set-up drawn in South's own frame (S4: own a1 = g1, the flag in a headquarters, own b1 = h1).
  const piece = (post) => page.locator(`[data-post="${post}"] [data-piece]`).getAttribute('data-piece');
  assert.equal(await page.locator('[data-piece]').count(), 25);
  assert.equal(await piece('g1'), 'sC');
  assert.equal(await piece('h1'), 'sF');
  assert.equal(await page.locator('[data-post="h3"] [data-piece]').count(), 0, 'camps stay empty');
  // The flag out of its headquarters cannot be sent: the button says where it went.
  await page.click('[data-post="h1"]');
  await page.click('[data-post="g6"]');
  assert.equal(await page.locator('[data-testid="send-setup"]').isDisabled(), true);
  assert.match(await page.locator('[data-testid="send-setup"]').getAttribute('title'), /flag g6/);
  await page.click('[data-post="h1"]');
  await page.click('[data-post="g6"]');
  assert.equal(await piece('h1'), 'sF');
  // Saved set-ups are offered (the two-army game's bar).
  await page.waitForSelector('[data-testid="jq-presets"]');
  // Four seats, each with its clock, the ally marked.
  assert.equal(await page.locator('[data-testid="seats"] [data-clock-seat]').count(), 4);
  assert.match(await page.locator('[data-testid="seat-n"]').textContent(), /ally/);
  await page.click('[data-testid="send-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 100, null, { timeout: 20000 });
  const pieces = await page.locator('[data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece')));
  assert.equal(pieces.filter((p) => /^s[A-WYZ]$/.test(p)).length, 25, 'one\'s own ranks shown');
  assert.equal(pieces.filter((p) => /^[enw]X$/.test(p)).length, 75, 'the other armies\' ranks hidden (S9, four dark)');
  // South's back rank is the bottom row; North at the top, East on the right, West on the left.
  const all = await allCentres(page);
  const maxY = Math.max(...all.map((p) => p[2])), minY = Math.min(...all.map((p) => p[2]));
  const maxX = Math.max(...all.map((p) => p[1])), minX = Math.min(...all.map((p) => p[1]));
  assert.ok(Math.abs((await centre(page, 'h1'))[1] - maxY) < 1, 'South at the bottom');
  assert.ok(Math.abs((await centre(page, 'h17'))[1] - minY) < 1, 'North at the top');
  assert.ok(Math.abs((await centre(page, 'q8'))[0] - maxX) < 1, 'East on the right');
  assert.ok(Math.abs((await centre(page, 'a8'))[0] - minX) < 1, 'West on the left');
  assert.equal(new Set(all.map((p) => `${Math.round(p[1])},${Math.round(p[2])}`)).size, 129, '129 posts, each in its own place');
  // Coordinates, camps, headquarters, railways and the four arcs are drawn.
  assert.equal(await page.locator('[data-camp]').count(), 20);
  assert.equal(await page.locator('[data-hq]').count(), 8);
  assert.equal(await page.locator('[data-arc]').count(), 4);
  assert.equal(await page.locator('[data-coord]').count(), 34);
  await page.context().close();
});

test('siguo: a move by two clicks among the legal ones; the other armies\' moves in words and as paths; the seats', async () => {
  const page = await siguoVsAi();
  await page.click('[data-testid="random-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 100, null, { timeout: 20000 });
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 20000 });
  assert.match(await page.locator('[data-testid="seat-s"]').getAttribute('class'), /turn/);
  const legal = await legalOf(page);
  const mv = legal.find((m) => /^[a-q]\d+[a-q]\d+$/.test(m));
  assert.ok(mv, `a move among ${legal}`);
  const [, from, to] = /^([a-q]\d+)([a-q]\d+)$/.exec(mv);
  const before = await plies(page);
  await page.click(`[data-post="${from}"]`);
  await page.waitForSelector(`[data-target="${to}"]`);
  // Every target is a legal move of the selected piece.
  const shown = await page.locator('[data-target]').evaluateAll((els) => els.map((e) => e.getAttribute('data-target')));
  assert.deepEqual(shown.sort(), legal.filter((m) => m.startsWith(from) && /^[a-q]\d+$/.test(m.slice(from.length)) && !/\d/.test(m[from.length])).map((m) => m.slice(from.length)).sort());
  await page.click(`[data-post="${to}"]`);
  // East, North and West answer; it is South's move again.
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= n + 4, before, { timeout: 20000 });
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent), null, { timeout: 20000 });
  const words = await page.locator('[data-testid="recent-move"]').allTextContents();
  assert.equal(words.length, 3, `the three other armies' moves since one's own: ${words}`);
  assert.match(words[0], /East/);
  assert.match(words[1], /North/);
  assert.match(words[2], /West/);
  // Each drawn as a path in its army's colour, the newest solid.
  assert.equal(await page.locator('[data-testid="last-path"]').getAttribute('data-army'), 'w');
  assert.equal(await page.locator('[data-testid="recent-path"]').count(), 2);
  // One's own piece stands where it went.
  assert.match(await page.locator(`[data-post="${to}"] [data-piece]`).getAttribute('data-piece'), /^s/);
  // Resigning waits for the 20th own move (S10).
  assert.equal(await page.locator('[data-testid="resign-later"]').count(), 1);
  await page.context().close();
});

test('siguo: East\'s board is turned with East at the bottom and South on its left; a spectator sees South at the bottom and no rank', async () => {
  const page = await siguoVsAi('east');
  // East's own frame: own a1 = q7 (its left is South), the flag at own b1 = q8.
  assert.equal(await page.locator('[data-post="q8"] [data-piece]').getAttribute('data-piece'), 'eF');
  const all = await allCentres(page);
  const maxY = Math.max(...all.map((p) => p[2])), minX = Math.min(...all.map((p) => p[1])), minY = Math.min(...all.map((p) => p[2]));
  assert.ok(Math.abs((await centre(page, 'q8'))[1] - maxY) < 1, 'East at the bottom');
  assert.ok(Math.abs((await centre(page, 'h1'))[0] - minX) < 1, 'South on the left');
  assert.ok(Math.abs((await centre(page, 'a8'))[1] - minY) < 1, 'West, the ally, at the top');
  const [x7] = await centre(page, 'q7'), [x11] = await centre(page, 'q11');
  assert.ok(x7 < x11, 'own file a (rank 7) on the left');
  await page.click('[data-testid="send-setup"]');
  // South moves first: its first move may already be a clash (over an arc), so a piece or two may be gone.
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length >= 98, null, { timeout: 20000 });
  const id = page.url().split('#/game/')[1];
  const watcher = await newPage();
  await watcher.goto(`${watcher.url().split('#')[0]}#/game/${id}`);
  await watcher.waitForFunction(() => document.querySelectorAll('[data-piece]').length >= 98, null, { timeout: 20000 });
  const seen = await watcher.locator('[data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece')));
  assert.deepEqual(seen.filter((p) => !p.endsWith('X')), [], 'a spectator sees no rank');
  const w = await allCentres(watcher);
  assert.ok(Math.abs((await centre(watcher, 'h1'))[1] - Math.max(...w.map((p) => p[2]))) < 1, 'South at the bottom for a spectator');
  await watcher.context().close();
  await page.context().close();
});

test('siguo: a set-up is saved under four-army Junqi by name and loaded back, in the army\'s own frame', async () => {
  const page = await siguoVsAi('west');
  await page.waitForSelector('[data-testid="jq-save"]');
  const piece = (post) => page.locator(`[data-post="${post}"] [data-piece]`).getAttribute('data-piece');
  // West's own frame (S4): own a6 = f11, own e6 = f7 (its left is North).
  assert.equal(await piece('f11'), 'wY');
  assert.equal(await piece('f7'), 'wC');
  await page.click('[data-post="f11"]');
  await page.click('[data-post="f7"]');
  assert.equal(await piece('f11'), 'wC');
  await page.fill('[data-testid="jq-preset-name"]', 'wings');
  await page.click('[data-testid="jq-save"]');
  await page.waitForFunction(() => /wings/.test(document.querySelector('[data-testid="jq-preset-note"]')?.textContent || ''));
  const saved = await page.evaluate(async () => (await (await fetch('/api/presets', { credentials: 'include' })).json()).presets);
  assert.deepEqual(saved.map((p) => [p.kind, p.name]), [['siguo', 'wings']]);
  assert.equal(saved[0].text[25], 'C', 'the text is in the own frame: own a6 is character 26');
  await page.click('[data-post="f11"]');
  await page.click('[data-post="f7"]');
  assert.equal(await piece('f11'), 'wY');
  await page.waitForSelector('[data-testid="jq-preset-list"] option[value="wings"]', { state: 'attached' });
  await page.selectOption('[data-testid="jq-preset-list"]', 'wings');
  await page.click('[data-testid="jq-load"]');
  await page.waitForFunction(() => document.querySelector('[data-post="f11"] [data-piece]')?.getAttribute('data-piece') === 'wC');
  await page.context().close();
});

test('siguo: an army that is out is greyed with its pieces gone; taking the last enemy flag wins for the team, in words', async () => {
  const page = await newPage();
  // West is already out (S15's armies-out field); South's 军长 stands beside East's flag.
  const fen = 'sFh1,sJp8,sGg2,nFh17,nPg16,eFq8,eTm9 s w 0 1';
  const id = await page.evaluate(async (fen) => {
    const r = await fetch('/api/games', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'siguo', opponent: 'ai:1', fen }) });
    return (await r.json()).id;
  }, fen);
  await page.goto(`${page.url().split('#')[0]}#/game/${id}`);
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]')?.textContent || ''));
  assert.match(await page.locator('[data-testid="seat-w"]').getAttribute('class'), /\bout\b/);
  assert.match(await page.locator('[data-testid="out-mark-w"]').textContent(), /out/);
  assert.equal(await page.locator('[data-block="w"]').getAttribute('fill'), '#d6d2ca', 'West\'s block greyed');
  assert.equal(await page.locator('[data-army="w"]').count(), 0, 'no West piece on the board');
  assert.match(await page.locator('[data-post="q8"] [data-piece]').getAttribute('data-piece'), /^e/);
  await page.click('[data-post="p8"]');
  await page.waitForSelector('[data-target="q8"]');
  await page.click('[data-post="q8"]');
  await page.waitForFunction(() => /South & North win/.test(document.querySelector('#result')?.textContent || ''), null, { timeout: 15000 });
  const result = await page.locator('#result').textContent();
  assert.match(result, /East is out: its flag was taken\./);
  assert.match(await page.locator('[data-testid="recent-moves"]').textContent(), /p8→q8: takes the flag East is out: its flag was taken\./);
  assert.match(await page.locator('[data-testid="out-mark-e"]').textContent(), /its flag was taken/);
  assert.equal(await page.locator('[data-army="e"]').count(), 0, 'East\'s pieces gone');
  await page.context().close();
});
