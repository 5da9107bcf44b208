// Browser tests of the page's extras: tab title, arrow keys, typed moves,
// sounds, quick play, the dark theme, drag and drop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base, browser, newPage, createGame, move, moveCount, waitMoves, yourMove, statusText, waitStatus, statusIs, titleIs, openRoomAndJoin, tiaoqiVsAi } from './harness.mjs';

test('the tab title tells whose move it is, and the result', async () => {
  const red = await newPage();
  const id = await createGame(red);
  await titleIs(red, /^Waiting for an opponent… — 棋苑$/);
  const black = await newPage('zh-CN');
  await black.click(`[data-testid="join-${id}"]`);
  await black.waitForURL(new RegExp(`#/game/${id}`));
  await titleIs(red, /^● Your move — 棋苑$/);
  await titleIs(black, /^对方走棋 — 棋苑$/);
  await move(red, 'h2', 'e2');
  await titleIs(red, /^Opponent's move — 棋苑$/);
  await titleIs(black, /^● 轮到你走 — 棋苑$/);
  await red.click('[data-testid="resign"]');
  await titleIs(red, /^Black wins · resignation — 棋苑$/);
  await titleIs(black, /^黑胜 · 认输 — 棋苑$/);
  // Leaving the game gives the tab its plain name back.
  await red.goto(base + '/#/');
  await titleIs(red, /^棋苑 Qiyuan$/);
  await red.context().close();
  await black.context().close();
});

test('arrow keys step through a game: ← → one move, Home and End the start and now', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await statusIs(page, /Your move/);
  await move(page, 'b0', 'c2');
  await waitMoves(page, 4);
  await statusIs(page, /Your move/);
  const cur = () => page.evaluate(() => { const c = document.querySelector('[data-testid="moves"] .cur'); return c ? Number(c.dataset.ply) : null; });
  await page.locator('[data-testid="board"]').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('ArrowLeft');
  assert.equal(await cur(), 3);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await cur(), 2);
  await page.keyboard.press('Home');
  assert.equal(await cur(), null);
  // Ply 0: the start position, the cannon back on h2.
  await page.waitForSelector('[data-piece="h2"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await cur(), 1);
  await page.waitForSelector('[data-piece="e2"]');
  await page.keyboard.press('End');
  assert.equal(await cur(), null);
  await page.waitForSelector('[data-piece="c2"]');
  // In the typed-move box the arrow keys move the caret, not the game.
  await page.click('[data-testid="typed-move"]');
  await page.keyboard.type('h0');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await cur(), null);
  await page.context().close();
});

test('typed moves: ICCS with or without a dash, checked against the legal moves with a clear message', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  const err = () => page.locator('[data-testid="error"]').textContent();
  const type = async (text) => { await page.fill('[data-testid="typed-move"]', text); await page.press('[data-testid="typed-move"]', 'Enter'); };
  await type('');
  assert.match(await err(), /Type a move first/);
  await type('hello');
  assert.match(await err(), /Not a move: write it as two squares/);
  await type('h2h8');
  assert.match(await err(), /"h2h8" is not a legal move here/);
  await type('H2-E2');
  await waitMoves(page, 2);
  assert.equal(await err(), '');
  assert.equal(await page.locator('[data-testid="moves"] [data-ply="1"]').textContent(), 'h2e2');
  await statusIs(page, /Your move/);
  await type('b0c2');
  await waitMoves(page, 4);
  await page.context().close();
  // In Chinese too.
  const zh = await newPage('zh-CN');
  await createGame(zh, { opponent: 'ai:1' });
  await zh.fill('[data-testid="typed-move"]', 'a0a5');
  await zh.click('[data-testid="typed-go"]');
  assert.match(await zh.locator('[data-testid="error"]').textContent(), /“a0a5”在此不是合法着法/);
  await zh.context().close();
});

test('typed moves in Jifen (the class kept, or the mark typed), Banqi (a lone square flips) and Tiaoqi (4.2-5.6)', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  // No class typed: the piece keeps its class, no chooser (issue 37, item 9).
  await page.fill('[data-testid="typed-move"]', 'h2e2');
  await page.press('[data-testid="typed-move"]', 'Enter');
  await waitMoves(page, 2);
  assert.equal(await page.locator('[data-testid="class-chooser"]').count(), 0);
  assert.equal(await page.locator('[data-piece="e2"]').getAttribute('data-class'), 'normal');
  await page.context().close();

  const [a, b] = await openRoomAndJoin('banqi');
  await a.waitForFunction(() => document.querySelectorAll('[data-testid="face-down"]').length === 32);
  const myMove = (p) => p.evaluate(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  let mover = null;
  for (let i = 0; i < 75 && !mover; i++) {
    if (await myMove(a)) mover = a; else if (await myMove(b)) mover = b; else await a.waitForTimeout(200);
  }
  assert.ok(mover);
  const other = mover === a ? b : a;
  // The other page may not have the started game yet (its socket is a
  // moment behind the mover's): wait until it shows the opponent's move.
  await other.waitForFunction(() => /Opponent's move/.test(document.querySelector('[data-testid="status"]').textContent));
  await other.fill('[data-testid="typed-move"]', 'a1');
  await other.press('[data-testid="typed-move"]', 'Enter');
  assert.match(await other.locator('[data-testid="error"]').textContent(), /not your move/);
  await mover.fill('[data-testid="typed-move"]', 'a1');
  await mover.press('[data-testid="typed-move"]', 'Enter');
  await mover.waitForSelector('[data-testid="moves"] [data-ply="1"] >> text=flip a1');
  await a.context().close();
  await b.context().close();

  const tq = await newPage();
  await tiaoqiVsAi(tq, 'tiaoqi');
  await yourMove(tq);
  assert.equal(await tq.locator('[data-testid="typed-move"]').getAttribute('placeholder'), '4.2-5.6');
  await tq.fill('[data-testid="typed-move"]', '3.1-9.9');
  await tq.press('[data-testid="typed-move"]', 'Enter');
  assert.match(await tq.locator('[data-testid="error"]').textContent(), /"3.1-9.9" is not a legal move here/);
  await tq.fill('[data-testid="typed-move"]', '3.1-5.5');
  await tq.press('[data-testid="typed-move"]', 'Enter');
  await tq.waitForSelector('[data-testid="moves"] >> text=3.1-5.5');
  await tq.context().close();
});

test('sounds: a move, a capture and the end are played when on; the switch is kept; off plays nothing', async () => {
  const page = await newPage();
  assert.equal(await page.evaluate(() => localStorage.getItem('qy-sound')), 'off');
  await createGame(page, { opponent: 'ai:1' });
  assert.match(await page.locator('[data-testid="sound"]').textContent(), /Sound off/);
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  assert.equal(await page.evaluate(() => (window.__qySounds || []).length), 0);
  await page.click('[data-testid="sound"]');
  assert.match(await page.locator('[data-testid="sound"]').textContent(), /Sound on/);
  assert.equal(await page.evaluate(() => localStorage.getItem('qy-sound')), 'on');
  await page.evaluate(() => { window.__qySounds = []; });
  await statusIs(page, /Your move/);
  // The central cannon takes the pawn on e6 (the AI may have moved it: then a quiet move).
  await page.fill('[data-testid="typed-move"]', 'e2e6');
  await page.press('[data-testid="typed-move"]', 'Enter');
  const took = (await page.locator('[data-testid="error"]').textContent()) === '';
  if (!took) { await page.fill('[data-testid="typed-move"]', 'b0c2'); await page.press('[data-testid="typed-move"]', 'Enter'); }
  await waitMoves(page, 4);
  await page.waitForFunction(() => (window.__qySounds || []).length >= 2);
  const sounds = await page.evaluate(() => window.__qySounds);
  // A move that gives check sounds the check instead (issue 37, item 11).
  assert.ok([took ? 'capture' : 'move', 'check'].includes(sounds[0]), `${sounds}`);
  await statusIs(page, /Your move/);
  await page.click('[data-testid="resign"]');
  await page.waitForFunction(() => (window.__qySounds || []).includes('end'));
  // Kept across a reload.
  await page.reload();
  await page.waitForSelector('[data-testid="sound"]');
  assert.match(await page.locator('[data-testid="sound"]').textContent(), /Sound on/);
  await page.context().close();
});

test('quick play: a pool button per Xiangqi clock, the other games folded away; "play the computer" starts against AI level 3', async () => {
  const page = await newPage();
  await page.waitForSelector('[data-testid="pool-xiangqi-5+3"]');
  for (const c of ['1+0', '3+2', '5+3', '10+5', '15+10']) assert.equal(await page.locator(`[data-testid="pool-xiangqi-${c}"] .pool-clock`).textContent(), c);
  assert.match(await page.locator('[data-testid="pool-xiangqi-5+3"] .pool-w').textContent(), /^\d+ waiting$/);
  assert.match(await page.locator('[data-testid="pool-xiangqi-5+3"] .pool-p').textContent(), /^\d+ playing$/);
  assert.equal(await page.locator('[data-testid="pools-more"] [data-pool^="xiangqi-"]').count(), 0);
  assert.ok(await page.locator('[data-testid="pools-more"] [data-pool]').count() > 0);
  await page.click('[data-testid="play-computer"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-piece="e0"]');
  await page.waitForFunction(() => /AI level 3/.test(document.querySelector('.board-wrap').textContent));
  await statusIs(page, /Your move/);
  await page.context().close();
  // Chinese labels.
  const zh = await newPage('zh-CN');
  assert.match(await zh.locator('[data-testid="quick-play"]').textContent(), /快速开局.*人机对战/s);
  await zh.waitForSelector('[data-testid="pool-xiangqi-5+3"]');
  assert.match(await zh.locator('[data-testid="pool-xiangqi-5+3"] .pool-w').textContent(), /^\d+人等待$/);
  assert.match(await zh.locator('[data-testid="pool-xiangqi-5+3"] .pool-p').textContent(), /^\d+人在下$/);
  await zh.context().close();
});

test('a dark theme: the header switch turns the page dark, kept across reloads, in both languages', async () => {
  const page = await newPage();
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const cardBg = () => page.evaluate(() => getComputedStyle(document.querySelector('.card')).backgroundColor);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  assert.equal(await bg(), 'rgb(244, 239, 228)');
  assert.match(await page.locator('[data-testid="theme"]').textContent(), /Dark/);
  await page.click('[data-testid="theme"]');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await bg(), 'rgb(22, 19, 15)');
  assert.equal(await cardBg(), 'rgb(36, 32, 26)');
  assert.match(await page.locator('[data-testid="theme"]').textContent(), /Light/);
  assert.equal(await page.evaluate(() => localStorage.getItem('qy-theme')), 'dark');
  await page.reload();
  await page.waitForSelector('[data-testid="create-form"]');
  assert.equal(await bg(), 'rgb(22, 19, 15)');
  // The game page too, and the label in Chinese.
  await createGame(page, { opponent: 'ai:1' });
  assert.equal(await bg(), 'rgb(22, 19, 15)');
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /浅色/.test(document.querySelector('[data-testid="theme"]').textContent));
  await page.click('[data-testid="theme"]');
  assert.equal(await bg(), 'rgb(244, 239, 228)');
  assert.match(await page.locator('[data-testid="theme"]').textContent(), /深色/);
  await page.context().close();
});

// The centre of a point on the board, in page pixels.
const centre = async (page, sq) => { const b = await page.locator(`[data-sq="${sq}"]`).boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };

async function dragMouse(page, from, to) {
  const [x0, y0] = await centre(page, from), [x1, y1] = await centre(page, to);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
  await page.mouse.move(x1, y1, { steps: 4 });
  await page.mouse.up();
}

// A finger's drag, as the pointer events a touch screen sends.
async function dragTouch(page, from, to) {
  const [x0, y0] = await centre(page, from), [x1, y1] = await centre(page, to);
  await page.evaluate(([x0, y0, x1, y1]) => {
    const svg = document.querySelector('[data-testid="board"]');
    const ev = (type, x, y) => svg.dispatchEvent(new PointerEvent(type, { bubbles: true, cancelable: true, pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, button: 0, buttons: type === 'pointerup' ? 0 : 1 }));
    ev('pointerdown', x0, y0);
    for (let i = 1; i <= 6; i++) ev('pointermove', x0 + (x1 - x0) * i / 6, y0 + (y1 - y0) * i / 6);
    ev('pointerup', x1, y1);
  }, [x0, y0, x1, y1]);
}

test('drag and drop on the Xiangqi board, with a mouse and with a finger; a drop on an illegal point puts the piece back', async () => {
  const page = await newPage();
  await createGame(page, { opponent: 'ai:1' });
  await statusIs(page, /Your move/);
  // The piece follows the pointer while it is held.
  const [x0, y0] = await centre(page, 'h2');
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + 30, y0 - 40, { steps: 3 });
  assert.match(await page.locator('[data-piece="h2"]').getAttribute('transform'), /translate/);
  await page.waitForSelector('[data-target="e2"]');
  // Let go on a point it cannot reach: back on h2, nothing sent.
  const [xb, yb] = await centre(page, 'a5');
  await page.mouse.move(xb, yb, { steps: 3 });
  await page.mouse.up();
  await page.waitForFunction(() => !document.querySelector('[data-piece="h2"]').getAttribute('transform'));
  assert.equal(await moveCount(page), 0);
  await dragMouse(page, 'h2', 'e2');
  await page.waitForSelector('[data-piece="e2"]');
  await waitMoves(page, 2);
  assert.equal(await page.locator('[data-testid="moves"] [data-ply="1"]').textContent(), 'h2e2');
  await statusIs(page, /Your move/);
  await dragTouch(page, 'b0', 'c2');
  await waitMoves(page, 4);
  assert.equal(await page.locator('[data-testid="moves"] [data-ply="3"]').textContent(), 'b0c2');
  // Click-click still works.
  await statusIs(page, /Your move/);
  await move(page, 'a0', 'a1');
  await waitMoves(page, 6);
  await page.context().close();
});

test('drag and drop in Jifen with Shift held opens the class chooser', async () => {
  const page = await newPage();
  await createGame(page, { game: 'jifen-simple', opponent: 'ai:1' });
  await statusIs(page, /Your move/);
  await page.keyboard.down('Shift');
  await dragMouse(page, 'h2', 'e2');
  await page.keyboard.up('Shift');
  await page.waitForSelector('[data-testid="class-chooser"]');
  await page.click('[data-testid="class-keep"]');
  await waitMoves(page, 2);
  await page.context().close();
});

test('board and piece themes: chosen on the game page, drawn at once, kept after a reload', async () => {
  const page = await newPage();
  await createGame(page, { game: 'xiangqi', opponent: 'ai:1' });
  await page.waitForSelector('[data-testid="board-theme"]');
  assert.equal(await page.locator('[data-testid="board-bg"]').getAttribute('fill'), '#e9c98f', 'wood by default');
  await page.selectOption('[data-testid="board-theme"]', 'green');
  await page.waitForFunction(() => document.querySelector('[data-testid="board-bg"]').getAttribute('fill') === '#cfe3c0');
  await page.selectOption('[data-testid="piece-theme"]', 'solid');
  // Solid pieces: the disc takes the side's colour (red's general on e0).
  await page.waitForFunction(() => document.querySelector('[data-piece="e0"] circle[data-face]')?.getAttribute('data-face') === '#b5221b');
  await page.reload();
  await page.waitForSelector('[data-testid="board-bg"]');
  assert.equal(await page.locator('[data-testid="board-bg"]').getAttribute('fill'), '#cfe3c0');
  assert.equal(await page.locator('[data-testid="board-theme"]').inputValue(), 'green');
  assert.equal(await page.locator('[data-testid="piece-theme"]').inputValue(), 'solid');
  await page.context().close();
});
