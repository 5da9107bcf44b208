// Browser tests of the hall page: lobby, Xiangqi, Jifen, Banqi, ratings, the
// result panel, the create form (see harness.mjs for the server and browser).
import { test } from 'node:test';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import assert from 'node:assert/strict';
import { base, browser, newPage, createGame, move, moveCount, waitMoves, yourMove, statusText, waitStatus, statusIs, titleIs, openRoomAndJoin, tiaoqiVsAi } from './harness.mjs';

test('two people play a short game by clicking', async () => {
  const red = await newPage();
  const id = await createGame(red);
  const black = await newPage();
  await black.click(`[data-testid="join-${id}"]`);
  await black.waitForURL(new RegExp(`#/game/${id}`));
  await red.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await move(red, 'h2', 'e2');
  await waitMoves(black, 1);
  // The last move is highlighted on the other board.
  await black.waitForSelector('[data-last="e2"]');
  await move(black, 'h9', 'g7');
  await waitMoves(red, 2);
  assert.equal(await moveCount(red), 2);
  // Switch the move list to Chinese notation.
  await red.selectOption('[data-testid="notation"]', 'chinese');
  assert.match(await red.locator('[data-testid="moves"]').textContent(), /炮二平五/);
  await red.click('[data-testid="resign"]');
  await black.waitForFunction(() => /Black wins/.test(document.querySelector('[data-testid="status"]').textContent));
  await red.context().close();
  await black.context().close();
});

test('a Jifen game shows a class change and the scores', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  // The score says whose is whose, and the target.
  const scores = await page.locator('[data-testid="scores"]').textContent();
  assert.match(scores, /Red.*0\s*:\s*0\s*Black.*first to 30/s);
  // Two legal versions of the move: keep the class or turn Idle (Shift asks which; a plain click keeps it).
  await page.click('[data-sq="h2"]');
  await page.waitForSelector('[data-target="e2"]');
  await page.click('[data-sq="e2"]', { modifiers: ['Shift'] });
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.click('[data-testid="class-*"]');
  await page.waitForSelector('[data-piece="e2"][data-class="idle"]');
  // The AI answers; then the Idle cannon moves and red scores a point.
  await waitMoves(page, 2);
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await page.click('[data-sq="e2"]');
  const target = await page.locator('[data-target]').first().getAttribute('data-target');
  await page.click(`[data-sq="${target}"]`);
  const chooser = await page.locator('[data-testid="class-chooser"]').count();
  if (chooser) await page.click('[data-testid="class-keep"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="score-red"]').textContent === '1');
  await page.context().close();
});

test('a game against AI level 1', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await move(page, 'b2', 'e2');
  await waitMoves(page, 2);
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  assert.ok((await moveCount(page)) >= 2);
  await page.context().close();
});

test('English and Chinese: default from the browser, switchable', async () => {
  const page = await newPage('zh-CN');
  assert.match(await page.locator('nav').textContent(), /大厅/);
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /Lobby/.test(document.querySelector('nav').textContent));
  assert.match(await page.locator('[data-testid="create"]').textContent(), /Create game/);
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /创建对局/.test(document.querySelector('[data-testid="create"]').textContent));
  await page.context().close();
});

test('a rated game moves the rating: title on the leaderboard, chart on the profile', async () => {
  const page = await newPage();
  const name = `rated${Date.now() % 100000}`;
  const r = await page.request.post(base + '/api/register', { data: { username: name, password: 'secret123' } });
  assert.equal(r.status(), 200);
  const { token } = await r.json();
  const auth = { Authorization: `Bearer ${token}` };
  const g = await (await page.request.post(base + '/api/games', { headers: auth, data: { game: 'xiangqi', opponent: 'ai:1', rated: true } })).json();
  assert.equal((await page.request.post(base + `/api/games/${g.id}/resign`, { headers: auth })).status(), 200);
  // Rated against AI level 1's fixed rating (850): 1000 - 40 * 0.70 = 972, still 草民.
  // Ratings are applied by a background task once the game has ended: wait for it.
  for (let i = 0; i < 50; i++) {
    const lb = await page.request.get(base + '/api/leaderboard/xiangqi');
    if ((await lb.text()).includes(name)) break;
    await page.waitForTimeout(200);
  }
  await page.goto(base + '/#/leaderboard/xiangqi');
  await page.waitForSelector(`[data-testid="leaderboard"] >> text=${name}`);
  assert.match(await page.locator('[data-testid="leaderboard"] [data-testid="rank-title"]').first().textContent(), /草民 Commoner · 972/);
  await page.goto(base + `/#/user/${name}`);
  await page.waitForSelector('[data-testid="rating-chart"]');
  await page.context().close();
});

// Player a opens a room of `game` for anyone from the lobby's form; player b
// joins it from the lobby. Both pages end on the game.

test('a Banqi game shows 32 face-down pieces and a flip turns one over', async () => {
  const [a, b] = await openRoomAndJoin('banqi');
  const faceDown = (page, n) => page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid="face-down"]').length === n, n);
  await faceDown(a, 32);
  await faceDown(b, 32);
  // The server draws who flips first; that player clicks a face-down piece.
  const myMove = (p) => p.evaluate(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  let mover = null;
  for (let i = 0; i < 75 && !mover; i++) {
    if (await myMove(a)) mover = a;
    else if (await myMove(b)) mover = b;
    else await a.waitForTimeout(200);
  }
  assert.ok(mover, 'one of the players is to move');
  await mover.click('[data-sq="a1"]');
  await faceDown(a, 31);
  await faceDown(b, 31);
  // The flipped piece is shown with its identity on both boards.
  assert.equal(await a.locator('[data-sq="a1"] [data-piece]').count(), 1);
  // The move list says what happened, in words.
  await a.waitForSelector('[data-testid="moves"] [data-ply="1"] >> text=flip a1');
  await a.context().close();
  await b.context().close();
});

test('an invitation waits in the lobby until accepted; set-up rooms are marked; sessions on the profile', async () => {
  const org = await newPage();
  const inv = await newPage();
  const stamp = Date.now() % 100000;
  const reg = async (page, username) => {
    const r = await page.request.post(base + '/api/register', { data: { username, password: 'secret123' } });
    assert.equal(r.status(), 200);
    return { Authorization: `Bearer ${(await r.json()).token}` };
  };
  const orgAuth = await reg(org, `org${stamp}`);
  const name = `inv${stamp}`;
  await reg(inv, name);
  const ev = await (await org.request.post(base + '/api/events', {
    headers: orgAuth,
    data: { name: `Cup ${stamp}`, game: 'xiangqi', format: { kind: 'round_robin', cycles: 1 }, players: [`org${stamp}`, name] },
  })).json();
  assert.deepEqual(ev.invited, [name]);
  // A room from a set-up position, listed with its mark.
  const setup = await org.request.post(base + '/api/games', { headers: orgAuth, data: { game: 'xiangqi', fen: '3k5/9/9/9/9/9/9/9/4R4/4K4 w' } });
  assert.equal(setup.status(), 201);
  await inv.goto(base + '/');
  await inv.waitForSelector(`[data-testid="invitations"] >> text=Cup ${stamp}`);
  await inv.waitForSelector('[data-testid="setup-mark"]');
  await inv.screenshot({ path: join(tmpdir(), 'qiyuan-invitation.png'), fullPage: true });
  await inv.click('[data-testid="invitations"] button[data-yes]');
  await inv.waitForSelector('[data-testid="invitations"]', { state: 'hidden' });
  const after = await (await inv.request.get(base + `/api/events/${ev.id}`)).json();
  assert.deepEqual(after.players, [`org${stamp}`, name]);
  // One's own sessions, this one marked.
  await inv.goto(base + `/#/user/${name}`);
  await inv.waitForSelector('[data-testid="sessions"] >> text=this device');
  await org.context().close();
  await inv.context().close();
});

async function jifenMove(page, from, to) {
  await move(page, from, to);
  await page.waitForFunction(() => document.querySelector('[data-testid="class-chooser"]') || document.querySelector('[data-testid="status"]').textContent.length);
  if (await page.locator('[data-testid="class-keep"]').count()) await page.click('[data-testid="class-keep"]');
}

test('Jifen contest: a double turn is one entry of two moves in its own column', async () => {
  // Records as the server sent them in a contest game: red's single first
  // turn, then black's double turn (a move, then a capture).
  const page = await newPage();
  const html = await page.evaluate(async () => {
    const { moveRows } = await import('/static/movelist.js');
    const state = { game: 'jifen-contest', records: [
      { iccs: 'h2e2', wxf: 'C2.5', fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1 0 1 1 -', scores: [0, 1] },
      { iccs: 'h7h2', wxf: 'C8+5', fen: 'rnbakabnr/9/1c7/p1p1p1p1p/9/9/P1P1P1P1P/1C2C2c1/9/RNBAKABNR b - - 0 1 1 1 2 -', scores: [1, 1] },
      { iccs: 'h2b2', wxf: 'C8.2', fen: 'rnbakabnr/9/1c7/p1p1p1p1p/9/9/P1P1P1P1P/1c2C4/9/RNBAKABNR w - - 0 2 2 1 1 x', scores: [2, 1] },
      { iccs: 'e2e6', wxf: 'C5+4', fen: 'rnbakabnr/9/1c7/p1p1C1p1p/9/9/P1P1P1P1P/1c7/9/RNBAKABNR b - - 0 2 2 2 1 x', scores: [2, 2] },
    ] };
    return moveRows(state, null, (s) => String(s), 'iccs');
  });
  await page.setContent(`<table data-testid="moves">${html}</table>`);
  const rows = page.locator('tr');
  assert.equal(await rows.count(), 2);
  const black = rows.nth(0).locator('td.turn[data-side="1"]');
  assert.equal(await black.getAttribute('data-testid'), 'double-turn');
  assert.deepEqual(await black.locator('[data-ply]').evaluateAll((e) => e.map((x) => x.dataset.ply)), ['2', '3']);
  assert.match(await rows.nth(0).locator('td.turn[data-side="0"]').textContent(), /^h2e2/);
  assert.match(await rows.nth(1).locator('td.turn[data-side="0"]').textContent(), /^e2e6/);
  // A live game against the AI: every row is Red's turn then Black's, never a move in the wrong column.
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="create-form"]');
  await createGame(page, { game: 'jifen-contest', opponent: 'ai:1' });
  await jifenMove(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await waitStatus(page, /Your move/);
  const live = await page.$$eval('[data-testid="moves"] tr', (rs) => rs.map((r) => [...r.querySelectorAll('td.turn')].map((td) => td.dataset.side).join('')));
  for (const c of live) assert.ok(c === '01' || c === '0', `columns ${c}`);
  await page.context().close();
});

test('the Jifen class chooser can be cancelled with Escape or a click beside it', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  // The chooser opens on every move once the box asks for it.
  await page.check('[data-testid="class-chooser-toggle"]');
  await move(page, 'h2', 'e2');
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="class-chooser"]', { state: 'detached' });
  await move(page, 'h2', 'e2');
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.mouse.click(5, 400);
  await page.waitForSelector('[data-testid="class-chooser"]', { state: 'detached' });
  assert.equal(await moveCount(page), 0, 'nothing was played');
  assert.equal(await page.locator('[data-piece="h2"]').count(), 1);
  await page.uncheck('[data-testid="class-chooser-toggle"]');
  await page.context().close();
});

test('the result panel speaks the UI\'s language only, with rematch and new game; profiles translate the reason', async () => {
  const page = await newPage();
  const id = await createGame(page, { opponent: 'ai:1' });
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="result-panel"]');
  const panel = page.locator('[data-testid="result-panel"]');
  assert.match(await page.locator('[data-testid="result-head"]').textContent(), /You lost · Black wins/);
  assert.equal(await page.locator('[data-testid="result-reason"]').textContent(), 'resignation');
  assert.doesNotMatch(await panel.textContent(), /[\u4e00-\u9fff]/, 'no Chinese in the English UI');
  assert.doesNotMatch(await statusText(page), /[\u4e00-\u9fff]/);
  await page.waitForSelector('[data-testid="rematch"]');
  await page.waitForSelector('[data-testid="new-game"]');
  // No rating line in an unrated game.
  assert.equal(await page.locator('[data-testid="rating-change"]').count(), 0);
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="result-reason"] >> text=认输');
  assert.doesNotMatch(await page.locator('[data-testid="result-panel"]').textContent(), /[a-z]{4,}/, 'no English in the Chinese UI');
  // New game: back to the form, set for the same game.
  await page.click('[data-testid="new-game"]');
  await page.waitForSelector('[data-testid="create-form"]');
  assert.equal(await page.inputValue('[data-testid="opponent"]'), 'ai:1');
  const me = await page.evaluate(async () => (await fetch('/api/me')).json());
  await page.goto(base + `/#/user/${me.username}`);
  await page.waitForSelector(`a[href="#/game/${id}"]`);
  assert.match(await page.locator('[data-testid="history-reason"]').first().textContent(), /认输/);
  await page.context().close();
});

test('a rated game\'s result panel shows the rating change, and the badges beside the names are fresh', async () => {
  const page = await newPage();
  const name = `rc${Date.now() % 100000}`;
  await page.request.post(base + '/api/register', { data: { username: name, password: 'secret123' } });
  await page.goto(base + '/');
  await page.waitForSelector('[data-testid="rated"]:not([disabled])');
  await page.check('[data-testid="rated"]');
  const id = await createGame(page, { opponent: 'ai:1' });
  await page.waitForSelector('.board-wrap [data-testid="rank-title"] >> text=1000');
  // Whether or not the server has the endpoint yet, the page gets a made-up answer here.
  let asked = 0;
  await page.route(`**/api/games/${id}/ratings`, (route) => {
    asked++;
    const changes = asked < 2 ? [] : [{ seat: 0, username: name, family: 'xiangqi', before: 1000, after: 970, title: '草民', title_en: 'Commoner' }];
    return route.fulfill({ json: { rated: true, changes } });
  });
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="rating-change"]');
  assert.match(await page.locator('[data-testid="rating-change"]').textContent(), new RegExp(`${name}: 1000 → 970 \\(−30\\)`));
  assert.ok(asked >= 2, 'empty changes are asked again');
  // The badge beside the name follows the new rating (the server's, once computed:
  // 972 against level 1's 850).
  await page.waitForSelector('.board-wrap [data-testid="rank-title"] >> text=972', { timeout: 20000 });
  await page.context().close();
});

test('Rematch from the result panel starts the next game against the AI', async () => {
  const page = await newPage();
  const id = await createGame(page, { opponent: 'ai:1' });
  await page.click('[data-testid="resign"]');
  await page.click('[data-testid="rematch"]');
  await page.waitForFunction((id) => /#\/game\//.test(location.hash) && !location.hash.endsWith(id), id);
  await page.waitForSelector('[data-testid="board"] [data-piece]');
  assert.equal(await page.locator('[data-testid="result-panel"]').count(), 0);
  await page.context().close();
});

test('a missing ratings endpoint shows no rating line', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await page.route('**/api/games/*/ratings', (route) => route.fulfill({ status: 404, json: { error: 'no such route' } }));
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="result-panel"]');
  await page.waitForTimeout(500);
  assert.equal(await page.locator('[data-testid="rating-change"]').count(), 0);
  await page.context().close();
});

test('a draw offer arrives with a message; the offerer sees it pending, then declined', async () => {
  const red = await newPage();
  const id = await createGame(red);
  const black = await newPage();
  await black.click(`[data-testid="join-${id}"]`);
  await waitStatus(red, /Your move/);
  const redName = await red.evaluate(async () => (await (await fetch('/api/me')).json()).username);
  await red.click('[data-testid="offer-draw"]');
  await red.waitForSelector('[data-testid="draw-pending"]');
  await black.waitForSelector('[data-testid="draw-offer"]');
  assert.match(await black.locator('[data-testid="draw-offer"]').textContent(), new RegExp(`${redName} offers a draw`));
  await black.click('[data-testid="decline-draw"]');
  await red.waitForSelector('[data-testid="draw-declined"]');
  assert.match(await red.locator('[data-testid="draw-declined"]').textContent(), /declined/);
  await black.waitForSelector('[data-testid="draw-offer"]', { state: 'detached' });
  await red.context().close();
  await black.context().close();
});

test('coordinates on the boards follow the flip and the notation', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  const bottomLeft = () => page.evaluate(() => {
    const xs = [...document.querySelectorAll('[data-testid="coords"] text')].filter((t) => /^[a-i]$/.test(t.textContent));
    return xs.sort((a, b) => a.getBBox().x - b.getBBox().x)[0].textContent;
  });
  assert.equal(await page.locator('[data-testid="coords"] text').count(), 19);
  assert.equal(await bottomLeft(), 'a');
  await page.click('[data-testid="flip"]');
  assert.equal(await bottomLeft(), 'i');
  await page.click('[data-testid="flip"]');
  await page.selectOption('[data-testid="notation"]', 'wxf');
  await page.waitForSelector('[data-testid="coords"][data-style="wxf"]');
  // Red's file 1 is its rightmost (file i); Black's 1 is file a.
  const pos = (c) => page.locator(`[data-coord="${c}"]`).boundingBox();
  assert.ok((await pos('red-1')).x > (await pos('red-9')).x);
  assert.ok((await pos('black-1')).x < (await pos('black-9')).x);
  await page.selectOption('[data-testid="notation"]', 'iccs');
  await page.context().close();
});

test('Banqi: coordinates, "30 s a move", a Turn-board button, timeout marks explained, a rules section', async () => {
  const page = await newPage();
  await createGame(page, { game: 'banqi', opponent: 'ai:1' }).catch(() => {});
  await page.waitForSelector('[data-testid="face-down"]');
  assert.equal(await page.locator('[data-testid="coords"] text').count(), 12);
  assert.equal(await page.locator('[data-testid="clock-rule"]').textContent(), '30 s a move');
  assert.equal(await page.locator('[data-testid="flip"]').textContent(), 'Turn board');
  assert.match(await page.locator('[data-testid="timeout-marks-about"]').textContent(), /third mark loses/);
  assert.equal(await page.locator('[data-testid="claim"]').count(), 0);
  // Before ply 40 neither resigning nor a draw offer (B11), and the page says so.
  assert.equal(await page.locator('[data-testid="offer-draw"]').count(), 0);
  assert.equal(await page.locator('[data-testid="resign-later"]').isDisabled(), true);
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="flip"] >> text=转换视角');
  assert.equal(await page.locator('[data-testid="clock-rule"]').textContent(), '每步30秒');
  await page.goto(base + '/#/rules');
  await page.waitForSelector('[data-testid="rules"] >> text=翻翻棋');
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="rules"] h3 >> text=Banqi');
  assert.match(await page.locator('[data-testid="rules"]').textContent(), /timeout mark/);
  await page.context().close();
});

test('the create form: checked minutes, target only for Jifen, colour choice, why Rated is off for guests', async () => {
  const page = await newPage();
  await page.selectOption('[data-testid="game-select"]', 'xiangqi');
  assert.equal(await page.locator('[data-testid="target"]').isVisible(), false);
  await page.selectOption('[data-testid="game-select"]', 'jifen-match');
  assert.equal(await page.locator('[data-testid="target"]').isVisible(), true);
  await page.selectOption('[data-testid="game-select"]', 'xiangqi');
  for (const [v, re] of [['', /Enter the minutes/], ['0', /at least 1 minute/], ['999', /At most 180 minutes/]]) {
    await page.fill('[data-testid="minutes"]', v);
    await page.click('[data-testid="create"]');
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="create-error"]').textContent), re.source);
    assert.doesNotMatch(page.url(), /#\/game\//);
  }
  // A guest: Rated is off, and the page says why.
  assert.equal(await page.locator('[data-testid="rated"]').isDisabled(), true);
  assert.match(await page.locator('[data-testid="rated-why"]').textContent(), /Guests play unrated games only/);
  // Black against the AI: the page's own seat is black (at the bottom).
  await page.fill('[data-testid="minutes"]', '5');
  await page.selectOption('[data-testid="seat-select"]', 'black');
  const id = await createGame(page, { opponent: 'ai:1' });
  const s = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), id);
  assert.equal(s.seats[1].kind, 'user');
  await page.waitForSelector('#bot-name >> text=Black');
  // Guests wear no rating badge.
  await page.waitForTimeout(300);
  assert.equal(await page.locator('#bot-name [data-testid="rank-title"]').count(), 0);
  await page.context().close();
});

test('a link to a game that does not exist says so, opens no socket; leaving a game closes its socket', async () => {
  const page = await newPage();
  const sockets = [];
  page.on('websocket', (ws) => { if (/\/api\/games\//.test(ws.url())) { const e = { url: ws.url(), closed: false }; ws.on('close', () => { e.closed = true; }); sockets.push(e); } });
  await page.goto(base + '/#/game/nosuchgame');
  await page.waitForSelector('[data-testid="no-such-game"]');
  assert.match(await page.locator('[data-testid="no-such-game"]').textContent(), /No such game/);
  assert.equal(await page.locator('[data-testid="board"]').count(), 0);
  await page.waitForTimeout(1500);
  assert.equal(sockets.length, 0, 'no socket for a missing game');
  await page.goto(base + '/');
  await createGame(page, { opponent: 'ai:1' });
  await page.waitForFunction(() => true);
  assert.equal(sockets.length, 1);
  await page.click('nav a[href="#/"]');
  await page.waitForSelector('[data-testid="create-form"]');
  await page.waitForTimeout(2500);
  assert.ok(sockets[0].closed, 'the socket closed on leaving');
  assert.equal(sockets.length, 1, 'and nothing reconnects');
  await page.context().close();
});

test('the pieces are drawn in the page\'s own font, not the visitor\'s', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  const r = await page.evaluate(async () => {
    await document.fonts.ready;
    await document.fonts.load('bold 20px "Qiyuan Pieces"', '帅');
    const face = [...document.fonts].find((f) => f.family.replace(/"/g, '') === 'Qiyuan Pieces');
    const text = document.querySelector('[data-piece="e0"] text');
    return { status: face && face.status, check: document.fonts.check('bold 20px "Qiyuan Pieces"', '帅将车马炮'), family: getComputedStyle(text).fontFamily, glyph: text.textContent };
  });
  assert.equal(r.status, 'loaded');
  assert.ok(r.check);
  assert.match(r.family, /^"?Qiyuan Pieces"?/);
  assert.equal(r.glyph, '帅');
  // The font the browser really drew the general with (this machine has CJK fonts of its own).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-piece="e0"] text' });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  assert.deepEqual(fonts.map((f) => f.familyName), ['Qiyuan Pieces'], JSON.stringify(fonts));
  const font = await page.request.get(base + '/static/pieces.woff2');
  assert.equal(font.status(), 200);
  // A subset of the page's own characters (about 120 glyphs, 21 KB), not a whole CJK font (megabytes).
  assert.ok((await font.body()).length < 40000);
  await page.context().close();
});
