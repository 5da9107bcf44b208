// Browser tests of the event pages: a team event (H7, H9) created from the form,
// see it listed, its teams, every round's matches board by board, and the
// standings with every tie-break column and the CSV link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, base } from './harness.mjs';

test('a team event is created from the form and its page shows teams, boards and the H7 standings', async () => {
  const page = await newPage();
  // Guests may not enter AI players in events: sign up (the session cookie comes with the answer).
  const r = await page.request.post(base + '/api/register', { data: { username: `captain${Date.now() % 100000}`, password: 'secret123' } });
  assert.equal(r.status(), 200);
  await page.reload();
  await page.click('a[href="#/team-events"]');
  await page.waitForSelector('[data-testid="team-event-form"]');
  await page.fill('#te-create [name="name"]', 'Spring league');
  await page.selectOption('#te-create [name="game"]', 'xiangqi');
  // Two teams to start with, a third added; players by the picker (AIs by level), in board order.
  await page.click('[data-testid="add-team"]');
  const teams = [['Red Army', 1, 2], ['Blue Army', 3, 4], ['Green Army', 5, 6]];
  for (const [i, [name, ...levels]] of teams.entries()) {
    await page.fill(`[data-testid="team-${i}-name"]`, name);
    for (const level of levels) {
      await page.selectOption(`[data-testid="team-${i}-players-ai-level"]`, String(level));
      await page.click(`[data-testid="team-${i}-players-add-ai"]`);
    }
  }
  assert.deepEqual((await page.locator('[data-testid="team-0-players-chip"]').allTextContents()).map((c) => c.replace('×', '').trim()), ['AI level 1', 'AI level 2']);
  await page.click('[data-testid="create-team-event"]');
  await page.waitForFunction(() => /team-event\//.test(location.hash) || document.querySelector('#te-err')?.textContent);
  assert.equal(await page.locator('#te-err').count() ? await page.locator('#te-err').textContent() : '', '');
  await page.waitForSelector('[data-testid="team-standings"]');
  const heads = await page.locator('[data-testid="team-standings"] th').allTextContents();
  assert.deepEqual(heads, ['Place', 'Team', 'Match points (场分)', 'Game points (总局分)', 'Game wins', 'Direct', 'Fouls']);
  assert.equal(await page.locator('[data-testid="team-standings"] tr').count(), 4, 'a row per team');
  // Three teams: a round robin of three rounds, one match each and a bye; two boards a match.
  assert.equal(await page.locator('[data-testid="match"]').count(), 3);
  assert.match(await page.locator('[data-testid="match"]').first().textContent(), /Board 1.*Board 2/s);
  assert.match(await page.locator('[data-testid="team-event"]').textContent(), /Red Army/);
  assert.match(await page.locator('[data-testid="team-event"]').textContent(), /1\. AI level 1 · 2\. AI level 2/);
  assert.doesNotMatch(await page.locator('main').textContent(), /ai:\d/, 'AIs are named in words');
  assert.equal(await page.locator('[data-testid="team-event-status"]').textContent(), 'In progress');
  // The first round's games have started: their results link to the games.
  await page.waitForSelector('[data-testid="board-result"]');
  const href = await page.locator('[data-testid="board-result"]').first().getAttribute('href');
  assert.match(href, /^#\/game\//);
  assert.equal(await page.locator('[data-testid="csv"]').getAttribute('href'), `/api/team-events/${page.url().split('/team-event/')[1]}/standings.csv`);
  // Listed on the team events page.
  await page.click('a[href="#/team-events"]');
  await page.waitForSelector('[data-testid="team-event-list"] a');
  assert.match(await page.locator('[data-testid="team-event-list"]').textContent(), /Spring league.*3 teams × 2 boards/s);
  await page.context().close();
});

test('the team events page speaks Chinese too', async () => {
  const page = await newPage('zh-CN');
  await page.click('a[href="#/team-events"]');
  await page.waitForSelector('[data-testid="team-event-form"]');
  assert.match(await page.locator('main, body').first().textContent(), /新建团体赛/);
  await page.context().close();
});

test('a tied team title shows its armageddon play-off and then the decided order (H8)', async () => {
  const ann = await newPage();
  const ben = await newPage();
  const stamp = Date.now() % 100000;
  const names = [`ann${stamp}`, `ben${stamp}`];
  for (const [p, name] of [[ann, names[0]], [ben, names[1]]]) {
    const r = await p.request.post(base + '/api/register', { data: { username: name, password: 'secret123' } });
    assert.equal(r.status(), 200);
  }
  const created = await ann.request.post(base + '/api/team-events', { data: { game: 'xiangqi', name: 'Derby', teams: [{ name: 'Reds', players: [names[0]] }, { name: 'Blues', players: [names[1]] }] } });
  assert.equal(created.status(), 201);
  const id = (await created.json()).id;
  const accepted = await ben.request.post(`${base}/api/team-events/${id}/accept`, { data: {} });
  assert.equal(accepted.status(), 200);
  const pageOf = (name) => (name === names[0] ? ann : ben);
  async function drawBoard(board) {
    for (const [who, action] of [[board.red, 'offer'], [board.black, 'accept']]) {
      const r = await pageOf(who).request.post(`${base}/api/games/${board.game_id}/draw`, { data: { action } });
      assert.equal(r.status(), 200, await r.text());
    }
  }
  const ev = await accepted.json();
  await drawBoard(ev.rounds[0].matches[0].boards[0]);
  await ann.reload();
  await ann.goto(`${base}/#/team-event/${id}`);
  await ann.waitForSelector('[data-testid="team-playoff"]');
  assert.match(await ann.locator('[data-testid="team-playoff"]').textContent(), /Play-off for place 1.*armageddon/s);
  assert.match(await ann.locator('[data-testid="needs-playoff"]').textContent(), /Place 1 may not be shared/);
  const now = await (await ann.request.get(`${base}/api/team-events/${id}`)).json();
  const board = now.playoffs[0].rounds[0].matches[0].boards[0];
  await drawBoard(board);
  await ann.waitForSelector('[data-testid="playoff-order"]', { timeout: 10000 });
  const blackTeam = board.black === names[0] ? 'Reds' : 'Blues';
  assert.match(await ann.locator('[data-testid="playoff-order"]').textContent(), new RegExp(`^1\\. ${blackTeam}`));
  const first = await ann.locator('[data-testid="team-standings"] tr').nth(1).textContent();
  assert.match(first, new RegExp(`^1${blackTeam}`), 'the play-off winner ranks first, unshared');
  await ann.setViewportSize({ width: 390, height: 844 });
  await ann.screenshot({ path: '/tmp/qiyuan-team-playoff-phone.png', fullPage: true });
  await ann.context().close();
  await ben.context().close();
});

test('a Swiss with Baku acceleration is created from the form; its page shows the FIDE tie-break columns and exports CSV and TRF', async () => {
  const page = await newPage();
  const r = await page.request.post(base + '/api/register', { data: { username: `arbiter${Date.now() % 100000}`, password: 'secret123' } });
  assert.equal(r.status(), 200);
  await page.reload();
  await page.goto(base + '/#/events');
  await page.waitForSelector('[data-testid="event-form"]');
  await page.fill('#ev-create [name="name"]', 'Open Swiss');
  await page.selectOption('#ev-create [name="game"]', 'xiangqi');
  await page.check('[data-testid="preset-swiss"]');
  await page.fill('#ev-create [name="rounds"]', '3');
  await page.click('[data-testid="more-options"] summary');
  await page.check('[data-testid="baku"]');
  for (let level = 1; level <= 6; level++) {
    await page.selectOption('[data-testid="players-ai-level"]', String(level));
    await page.click('[data-testid="players-add-ai"]');
  }
  await page.selectOption('[data-testid="tie-break-1"]', 'buchholz_cut1');
  await page.selectOption('[data-testid="tie-break-2"]', 'fide_sonneborn_berger');
  await page.check('[data-testid="start-now"]');
  await page.click('[data-testid="create-event"]');
  await page.waitForFunction(() => /#\/event\//.test(location.hash) || document.querySelector('#ev-err')?.textContent);
  assert.equal(await page.locator('#ev-err').count() ? await page.locator('#ev-err').textContent() : '', '');
  const id = page.url().split('#/event/')[1];
  const ev = await (await page.request.get(`${base}/api/events/${id}`)).json();
  assert.deepEqual(ev.format, { kind: 'swiss', rounds: 3, accelerated: true });
  await page.waitForSelector('[data-testid="standings"]');
  assert.match(await page.locator('[data-testid="event"]').textContent(), /Swiss \(FIDE Dutch\) · Baku acceleration/);
  const heads = (await page.locator('[data-testid="standings"] th').allTextContents()).join(' | ');
  assert.match(heads, /Buchholz Cut 1|BH-C1/i, heads);
  assert.equal(await page.locator('[data-testid="csv"]').getAttribute('href'), `/api/events/${id}/standings.csv`);
  assert.equal(await page.locator('[data-testid="trf"]').getAttribute('href'), `/api/events/${id}/tournament.trf`);
  const trf = await page.request.get(`${base}/api/events/${id}/tournament.trf`);
  assert.equal(trf.status(), 200);
  assert.match(await trf.text(), /^012 Open Swiss/m);
  await page.screenshot({ path: '/tmp/qiyuan-swiss-event.png', fullPage: true });
  await page.context().close();
});
