// Browser tests of issue 37, items 12 and 13: a profile speaks from its
// owner's side (Won/Drawn/Lost, 胜/和/负, with the seat played) with totals per
// game kind and no game points for kinds never played; the leaderboard has a
// tab for every points ledger; the event form is a short form with presets
// by format, a player picker and AI players named in words; the header folds
// into a ☰ menu on a phone, and the game page fits a phone; no 404 for the
// favicon. Screenshots go to /tmp/shots-i37-e/ (1440x900 and 390x844, both languages).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { base, browser } from './harness.mjs';
import { serveWeb } from './web-override.mjs';

const SHOTS = '/tmp/shots-i37-e';
mkdirSync(SHOTS, { recursive: true });
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const stamp = Date.now() % 100000;

/** A page of its own context, in `lang`, at `size`; the 404s it meets are kept in `page.missing`. */
async function pageAt(size, lang = 'en', path = '/') {
  const ctx = await browser.newContext({ locale: lang === 'zh' ? 'zh-CN' : 'en-US', viewport: size, deviceScaleFactor: 1 });
  await serveWeb(ctx);
  await ctx.addInitScript((l) => { localStorage.setItem('qy-lang', l); localStorage.setItem('qy-sound', 'off'); }, lang);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  page.on('dialog', (d) => d.accept());
  /** @type {string[]} */
  const missing = [];
  page.on('response', (r) => { if (r.status() === 404) missing.push(r.url()); });
  Object.assign(page, { missing });
  await page.goto(base + path);
  await page.waitForSelector('#view > *', { state: 'attached' });
  return page;
}

async function signUp(page, name) {
  const r = await page.request.post(base + '/api/register', { data: { username: name, password: 'secret123' } });
  assert.equal(r.status(), 200, await r.text());
}

async function call(page, path, data) {
  const r = await page.request.post(base + path, { data: data || {} });
  assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
  return r.json();
}

/**
 * A Xiangqi game between the users of pages `a` and `b` (a creates, b joins),
 * one move each, then `end` finishes it; returns the game and who sat where.
 */
async function playOut(a, b, end) {
  const g = await call(a, '/api/games', { game: 'xiangqi', opponent: 'open', rated: false });
  await call(b, `/api/games/${g.id}/join`);
  const state = await (await a.request.get(`${base}/api/games/${g.id}`)).json();
  const me = await (await a.request.get(`${base}/api/me`)).json();
  const aRed = state.seats[0].name === me.username;
  const [red, black] = aRed ? [a, b] : [b, a];
  await call(red, `/api/games/${g.id}/moves`, { move: 'h2e2' });
  await call(black, `/api/games/${g.id}/moves`, { move: 'h9g7' });
  await end({ red, black, id: g.id });
  return { id: g.id, aRed };
}

test('a profile says Won / Drawn / Lost from its owner\'s side with the seat, totals per game, and no points of a game never played', async () => {
  const a = await pageAt(DESKTOP, 'en');
  const b = await pageAt(DESKTOP, 'en');
  const [na, nb] = [`ann${stamp}`, `bo${stamp}`];
  await signUp(a, na);
  await signUp(b, nb);
  // a wins (b resigns), a and b agree a draw, a resigns.
  const won = await playOut(a, b, async ({ id }) => { await call(b, `/api/games/${id}/resign`); });
  const drawn = await playOut(a, b, async ({ id }) => {
    await call(a, `/api/games/${id}/draw`, { action: 'offer' });
    await call(b, `/api/games/${id}/draw`, { action: 'accept' });
  });
  const lost = await playOut(a, b, async ({ id }) => { await call(a, `/api/games/${id}/resign`); });
  await a.goto(`${base}/#/user/${na}`);
  await a.waitForSelector('[data-testid="totals"]');
  const row = (id) => a.locator(`[data-testid="history-row"]:has(a[href="#/game/${id}"])`);
  const colour = (aRed) => (aRed ? 'as Red' : 'as Black');
  assert.match(await row(won.id).textContent(), new RegExp(`Won\\s*· ${colour(won.aRed)}`));
  assert.match(await row(drawn.id).textContent(), new RegExp(`Drawn\\s*· ${colour(drawn.aRed)}`));
  assert.match(await row(lost.id).textContent(), new RegExp(`Lost\\s*· ${colour(lost.aRed)}`));
  const history = await a.locator('[data-testid="history"]').textContent();
  assert.doesNotMatch(history, /Red wins|Black wins/, 'the result is the owner\'s, not a colour\'s');
  assert.deepEqual(await a.locator('[data-testid="totals-xiangqi"] td').allTextContents(), ['Xiangqi', '1', '1', '1', '3']);
  // Only Xiangqi was played: no game points line at all (none of a ledger never touched).
  assert.equal(await a.locator('[data-testid$="-points"]').count(), 0);
  await a.screenshot({ path: `${SHOTS}/profile-en-1440.png`, fullPage: true });
  // The same in Chinese: 胜 / 和 / 负 and 执红 / 执黑.
  await a.click('[data-testid="lang"]');
  await a.waitForSelector('[data-testid="history-outcome"] >> text=胜');
  assert.match(await row(won.id).textContent(), new RegExp(`胜\\s*· ${won.aRed ? '执红' : '执黑'}`));
  assert.match(await row(drawn.id).textContent(), /和\s*· 执[红黑]/);
  assert.match(await row(lost.id).textContent(), /负\s*· 执[红黑]/);
  assert.match(await a.locator('[data-testid="totals"]').textContent(), /各棋种战绩|胜.*和.*负/s);
  await a.screenshot({ path: `${SHOTS}/profile-zh-1440.png`, fullPage: true });
  await a.setViewportSize(PHONE);
  await a.screenshot({ path: `${SHOTS}/profile-zh-390.png`, fullPage: true });
  // The other side of the same games.
  await b.goto(`${base}/#/user/${nb}`);
  await b.waitForSelector('[data-testid="totals"]');
  assert.match(await b.locator(`[data-testid="history-row"]:has(a[href="#/game/${won.id}"])`).textContent(), /Lost/);
  await a.context().close();
  await b.context().close();
});

test('the leaderboard has a tab for every rating family and every points ledger of the kinds served', async () => {
  const page = await pageAt(DESKTOP, 'en');
  const kinds = (await (await page.request.get(base + '/api/kinds')).json()).kinds;
  const ledgers = kinds.filter((k) => k.settlement);
  assert.ok(ledgers.length > 0, 'some kind settles points');
  await page.click('[data-testid="nav-leaderboard"]');
  await page.waitForSelector('#lb');
  for (const k of kinds) assert.equal(await page.locator(`[data-testid="lb-tab-${k.id}"]`).count(), 1, k.id);
  for (const k of ledgers) {
    const tab = page.locator(`[data-testid="lb-tab-${k.settlement}-points"]`);
    assert.match(await tab.textContent(), / points$/);
    await tab.click();
    await page.waitForURL(new RegExp(`#/leaderboard/${k.settlement}-points$`));
    await page.waitForFunction(() => !/…/.test(document.getElementById('lb').textContent));
    assert.equal(await page.locator('#lb .err').count(), 0);
    assert.match(await page.locator('a.cur').textContent(), / points$/);
  }
  await page.screenshot({ path: `${SHOTS}/leaderboard-points-en-1440.png` });
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('a.cur >> text=/积分$/');
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/leaderboard-points-zh-390.png` });
  await page.context().close();
});

test('the event form: presets show only their fields, players are picked by name, AIs are named in words, tie-breaks in the page\'s language', async () => {
  const page = await pageAt(DESKTOP, 'en');
  const names = [`pick${stamp}a`, `pick${stamp}b`, `pick${stamp}c`];
  for (const n of names.slice(1)) {
    const r = await page.request.post(base + '/api/register', { data: { username: n, password: 'secret123' } });
    assert.equal(r.status(), 200);
  }
  await page.context().clearCookies();
  await signUp(page, names[0]);
  await page.goto(base + '/#/events');
  await page.waitForSelector('[data-testid="event-form"]');
  const shown = (field) => page.locator(`#ev-create [data-field="${field}"]`).isVisible();
  // Round robin (the first preset): no Swiss, group or bracket fields.
  assert.equal(await page.isChecked('[data-testid="preset-round_robin"]'), true);
  for (const f of ['rounds', 'groups', 'advance', 'bracket', 'baku', 'seeding']) assert.equal(await shown(f), false, f);
  // Advanced options are folded.
  assert.equal(await page.locator('[data-testid="tie-break-1"]').isVisible(), false);
  await page.check('[data-testid="preset-three_stage"]');
  for (const f of ['groups', 'advance', 'bracket']) assert.equal(await shown(f), true, f);
  assert.equal(await shown('rounds'), false);
  await page.check('[data-testid="preset-swiss"]');
  assert.equal(await shown('rounds'), true);
  assert.equal(await shown('groups'), false);
  await page.click('[data-testid="more-options"] summary');
  assert.equal(await shown('baku'), true);
  assert.equal(await shown('seeding'), false);
  // Tie-breaks by name, never by identifier.
  const options = (await page.locator('[data-testid="tie-break-1"] option').allTextContents()).join(' | ');
  assert.match(options, /Buchholz less the lowest/);
  assert.doesNotMatch(options, /_/);
  await page.selectOption('[data-testid="tie-break-1"]', 'buchholz_cut1');
  // The picker: names found as one types, chosen with a click; AIs by level.
  await page.fill('[data-testid="players-search"]', `PICK${stamp}`);
  await page.waitForSelector('[data-testid="players-suggestions"] [data-pick]');
  const offered = await page.locator('[data-testid="players-suggestions"] [data-pick]').allTextContents();
  assert.deepEqual(offered, names);
  await page.click(`[data-testid="players-suggestions"] [data-pick="${names[1]}"]`);
  await page.fill('[data-testid="players-search"]', `pick${stamp}c`);
  await page.waitForSelector(`[data-testid="players-suggestions"] [data-pick="${names[2]}"]`);
  await page.keyboard.press('Enter');
  await page.selectOption('[data-testid="players-ai-level"]', '3');
  await page.click('[data-testid="players-add-ai"]');
  await page.click('[data-testid="players-add-ai"]');
  const chips = await page.locator('[data-testid="players-chip"]').allTextContents();
  assert.deepEqual(chips.map((c) => c.replace('×', '').trim()), [names[1], names[2], 'AI level 3', 'AI level 3']);
  // A chip goes with its ×.
  await page.locator('[data-testid="players-chip"]').nth(1).locator('button').click();
  assert.equal(await page.locator('[data-testid="players-chip"]').count(), 3);
  await page.fill('#ev-create [name="name"]', 'Picker cup');
  await page.fill('#ev-create [name="rounds"]', '2');
  await page.screenshot({ path: `${SHOTS}/event-form-en-1440.png`, fullPage: true });
  await page.click('[data-testid="create-event"]');
  await page.waitForFunction(() => /#\/event\//.test(location.hash) || document.querySelector('#ev-err')?.textContent);
  assert.equal(await page.locator('#ev-err').count() ? await page.locator('#ev-err').textContent() : '', '');
  const id = page.url().split('#/event/')[1];
  const ev = await (await page.request.get(`${base}/api/events/${id}`)).json();
  assert.deepEqual(ev.format, { kind: 'swiss', rounds: 2, accelerated: false });
  assert.deepEqual(ev.invited.length + ev.players.length >= 2, true);
  await page.waitForSelector('[data-testid="event-players"]');
  assert.doesNotMatch(await page.locator('[data-testid="event"]').textContent(), /ai:\d/);
  await page.context().close();
});

test('an event of AIs shows them by name in standings and pairings, and tie-breaks in words, in both languages', async () => {
  const page = await pageAt(DESKTOP, 'zh');
  await signUp(page, `org${stamp}`);
  await page.goto(base + '/#/events');
  await page.waitForSelector('[data-testid="event-form"]');
  // The Chinese form: presets and their words.
  assert.match(await page.locator('.presets').textContent(), /单循环.*淘汰赛.*瑞士制/s);
  for (const n of ['1', '2', '5']) {
    await page.selectOption('[data-testid="players-ai-level"]', n);
    await page.click('[data-testid="players-add-ai"]');
  }
  assert.deepEqual((await page.locator('[data-testid="players-chip"]').allTextContents()).map((c) => c.replace('×', '').trim()), ['电脑 1级', '电脑 2级', '电脑 5级']);
  await page.check('[data-testid="start-now"]');
  await page.screenshot({ path: `${SHOTS}/event-form-zh-1440.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/event-form-zh-390.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.click('[data-testid="create-event"]');
  await page.waitForURL(/#\/event\//);
  await page.waitForSelector('[data-testid="standings"]');
  const text = await page.locator('main').textContent();
  assert.doesNotMatch(text, /ai:\d/);
  assert.match(await page.locator('[data-testid="standings"]').textContent(), /电脑 1级/);
  assert.match(await page.locator('[data-testid="tie-break-order"]').textContent(), /小分/);
  await page.screenshot({ path: `${SHOTS}/event-zh-1440.png`, fullPage: true });
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="standings"] >> text=AI level 1');
  assert.match(await page.locator('[data-testid="tie-break-order"]').textContent(), /Sonneborn-Berger/);
  assert.doesNotMatch(await page.locator('[data-testid="tie-break-order"]').textContent(), /[\u4e00-\u9fff]/, 'no Chinese in the English page');
  await page.screenshot({ path: `${SHOTS}/event-en-1440.png`, fullPage: true });
  await page.context().close();
});

test('the team-event form: a picker per team, people found by name and AIs by level', async () => {
  const page = await pageAt(PHONE, 'zh');
  const [cap, mate] = [`cap${stamp}`, `mate${stamp}`];
  await signUp(page, mate);
  await page.context().clearCookies();
  await signUp(page, cap);
  await page.goto(base + '/#/team-events');
  await page.waitForSelector('[data-testid="team-event-form"]');
  assert.equal(await page.locator('.team-row').count(), 2, 'two teams to start with');
  await page.fill('[data-testid="team-0-name"]', '红队');
  await page.fill('[data-testid="team-0-players-search"]', mate.slice(0, 6));
  await page.click(`[data-testid="team-0-players-suggestions"] [data-pick="${mate}"]`);
  await page.fill('[data-testid="team-1-name"]', '蓝队');
  await page.selectOption('[data-testid="team-1-players-ai-level"]', '4');
  await page.click('[data-testid="team-1-players-add-ai"]');
  assert.deepEqual((await page.locator('[data-testid="team-1-players-chip"]').allTextContents()).map((c) => c.replace('×', '').trim()), ['电脑 4级']);
  await page.screenshot({ path: `${SHOTS}/team-event-form-zh-390.png`, fullPage: true });
  await page.click('[data-testid="create-team-event"]');
  await page.waitForURL(/#\/team-event\//);
  const id = page.url().split('#/team-event/')[1];
  const ev = await (await page.request.get(`${base}/api/team-events/${id}`)).json();
  assert.deepEqual(ev.teams.map((tm) => [tm.name, tm.players]), [['红队', [mate]], ['蓝队', ['ai:4']]]);
  await page.waitForSelector('[data-testid="team-event"]');
  assert.match(await page.locator('[data-testid="team-event"]').textContent(), /电脑 4级/);
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${SHOTS}/team-event-zh-1440.png`, fullPage: true });
  await page.context().close();
});

test('on a phone the header is one line with a ☰ menu that opens and closes', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await pageAt(PHONE, lang);
    const header = await page.locator('header').boundingBox();
    assert.ok(header.height < 60, `one line: ${header.height}px`);
    assert.equal(await page.locator('[data-testid="menu"]').isVisible(), true);
    assert.equal(await page.locator('[data-testid="nav-tv"]').isVisible(), false, 'the links are folded');
    await page.screenshot({ path: `${SHOTS}/header-${lang}-390.png` });
    await page.click('[data-testid="menu"]');
    assert.equal(await page.getAttribute('[data-testid="menu"]', 'aria-expanded'), 'true');
    assert.equal(await page.locator('[data-testid="nav-tv"]').isVisible(), true);
    assert.equal(await page.locator('[data-testid="lang"]').isVisible(), true);
    await page.screenshot({ path: `${SHOTS}/menu-open-${lang}-390.png` });
    await page.click('[data-testid="nav-leaderboard"]');
    await page.waitForURL(/#\/leaderboard/);
    assert.equal(await page.locator('[data-testid="nav-tv"]').isVisible(), false, 'a choice closes the menu');
    await page.context().close();
  }
  // On a desktop there is no ☰: every link shows.
  const wide = await pageAt(DESKTOP, 'zh');
  assert.equal(await wide.locator('[data-testid="menu"]').isVisible(), false);
  assert.equal(await wide.locator('[data-testid="nav-tv"]').isVisible(), true);
  assert.ok((await wide.locator('header').boundingBox()).height < 60);
  await wide.screenshot({ path: `${SHOTS}/lobby-zh-1440.png` });
  await wide.context().close();
});

test('on a phone the game page shows the board full width with the status and the move list on screen', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await pageAt(PHONE, lang);
    await page.waitForSelector('[data-testid="create-form"]');
    await page.selectOption('[data-testid="game-select"]', 'xiangqi');
    await page.selectOption('[data-testid="opponent"]', 'ai:1');
    await page.click('[data-testid="create"]');
    await page.waitForURL(/#\/game\//);
    await page.waitForSelector('[data-piece="h2"]');
    await page.click('[data-sq="h2"]');
    await page.click('[data-sq="e2"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="moves"] [data-ply]').length >= 2);
    const board = await page.locator('[data-testid="board"]').boundingBox();
    assert.ok(board.width >= 360, `the board fills the width: ${board.width}px`);
    const status = await page.locator('[data-testid="status"]').boundingBox();
    const moves = await page.locator('[data-testid="moves"]').boundingBox();
    assert.ok(status.y + status.height <= PHONE.height, `the status is on screen: ${status.y}`);
    assert.ok(moves.y + 20 <= PHONE.height, `the move list starts on screen: ${moves.y}`);
    assert.ok(status.y < moves.y, 'the status comes before the moves');
    await page.screenshot({ path: `${SHOTS}/game-${lang}-390.png` });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: `${SHOTS}/game-${lang}-1440.png` });
    await page.context().close();
  }
});

test('no 404 on loading the page: the favicon is linked and /favicon.ico answers', async () => {
  const page = await pageAt(DESKTOP, 'en');
  await page.waitForSelector('[data-testid="create-form"]');
  await page.waitForTimeout(300);
  assert.deepEqual(page.missing, []);
  assert.equal(await page.getAttribute('link[rel="icon"]', 'href'), '/static/favicon.svg');
  for (const path of ['/favicon.ico', '/static/favicon.svg']) {
    const r = await page.request.get(base + path);
    assert.equal(r.status(), 200, path);
    assert.match(r.headers()['content-type'], /image\/svg\+xml/);
  }
  await page.context().close();
});
