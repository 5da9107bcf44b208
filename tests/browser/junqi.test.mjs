// Browser tests of the Junqi page: the set-up phase, moves, hidden ranks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, waitMoves, yourMove } from './harness.mjs';

/** A new page with a hidden Junqi game against AI level 1 open, in its set-up phase. */
async function junqiVsAi() {
  const page = await newPage();
  await page.selectOption('[data-testid="game-select"]', 'junqi');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  return page;
}

test('Junqi: the set-up phase draws a random army, then a piece is moved by clicking; the AI\'s ranks stay hidden', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="random-setup"]');
  assert.match(await page.locator('[data-testid="setup-phase"]').textContent(), /Set-up/);
  await page.click('[data-testid="random-setup"]');
  // Red (the creator's seat when the AI is blue) moves first once both armies stand.
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  const own = await page.locator('[data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece')));
  const hidden = own.filter((c) => c === 'x' || c === 'X').length;
  assert.equal(hidden, 25, 'the other army is shown as blank discs');
  await yourMove(page);
  // Click a piece that has a target, then the target.
  const legal = await page.evaluate(async () => {
    const id = location.hash.split('/game/')[1];
    const r = await fetch(`/api/games/${id}`, { credentials: 'include' });
    return (await r.json()).legal || [];
  });
  const m = /^([a-e]\d+)([a-e]\d+)$/.exec(legal[0]);
  assert.ok(m, `a move among ${legal}`);
  await page.click(`[data-post="${m[1]}"]`);
  await page.waitForSelector(`[data-target="${m[2]}"]`);
  await page.click(`[data-post="${m[2]}"]`);
  await waitMoves(page, 3);
  await page.context().close();
});

test('typed moves in Junqi: a post pair (c4c6 style) after the random set-up', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="random-setup"]');
  assert.equal(await page.locator('[data-testid="typed-move"]').getAttribute('placeholder'), 'c4c6');
  await page.click('[data-testid="random-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  await yourMove(page);
  const legal = await page.evaluate(async () => {
    const id = location.hash.split('/game/')[1];
    return (await (await fetch(`/api/games/${id}`, { credentials: 'include' })).json()).legal || [];
  });
  const m = legal.find((x) => /^[a-e]\d+[a-e]\d+$/.test(x));
  assert.ok(m, `a move among ${legal}`);
  await page.fill('[data-testid="typed-move"]', 'a1a1');
  await page.press('[data-testid="typed-move"]', 'Enter');
  assert.match(await page.locator('[data-testid="error"]').textContent(), /not a legal move/);
  await page.fill('[data-testid="typed-move"]', m.toUpperCase());
  await page.press('[data-testid="typed-move"]', 'Enter');
  await waitMoves(page, 3);
  await page.context().close();
});

test('Junqi: a set-up is edited by swapping two pieces and sent; an illegal one cannot be sent', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="send-setup"]');
  const letter = (post) => page.locator(`[data-post="${post}"] [data-piece]`).getAttribute('data-piece');
  assert.equal(await letter('a6'), 'Y');
  assert.equal(await letter('e6'), 'C');
  // Moving the flag out of its headquarters makes the set-up illegal: the button says why.
  await page.click('[data-post="b1"]');
  await page.click('[data-post="a6"]');
  assert.equal(await page.locator('[data-testid="send-setup"]').isDisabled(), true);
  assert.match(await page.locator('[data-testid="send-setup"]').getAttribute('title'), /flag a6/);
  // Swap back, then swap the two front corners and send.
  await page.click('[data-post="b1"]');
  await page.click('[data-post="a6"]');
  await page.click('[data-post="a6"]');
  await page.click('[data-post="e6"]');
  assert.equal(await letter('a6'), 'C');
  assert.equal(await page.locator('[data-testid="send-setup"]').isDisabled(), false);
  await page.click('[data-testid="send-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  assert.equal(await letter('a6'), 'C', 'the server placed the edited set-up');
  assert.equal(await letter('e6'), 'Y');
  await page.context().close();
});

test('Junqi: a set-up is saved by name (to play if time runs out), then loaded back into the editor', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="jq-save"]');
  await page.waitForSelector('[data-testid="planned-setup"]');
  const letter = (post) => page.locator(`[data-post="${post}"] [data-piece]`).getAttribute('data-piece');
  // Swap the two front corners, name the set-up, mark it for the timeout, save.
  await page.click('[data-post="a6"]');
  await page.click('[data-post="e6"]');
  assert.equal(await letter('a6'), 'C');
  await page.fill('[data-testid="jq-preset-name"]', 'corners');
  await page.check('[data-testid="jq-on-timeout"]');
  await page.click('[data-testid="jq-save"]');
  await page.waitForFunction(() => /corners/.test(document.querySelector('[data-testid="jq-preset-note"]')?.textContent || ''));
  const saved = await page.evaluate(async () => (await (await fetch('/api/presets', { credentials: 'include' })).json()).presets);
  assert.equal(saved.length, 1);
  assert.deepEqual([saved[0].kind, saved[0].name, saved[0].on_timeout], ['junqi', 'corners', true]);
  // a6 is character 26 of red's text (back rank first), e6 the 30th.
  assert.equal(saved[0].text[25], 'C');
  assert.equal(saved[0].text[29], 'Y');
  // Swap back, then load the saved one: the corners are swapped again.
  await page.click('[data-post="a6"]');
  await page.click('[data-post="e6"]');
  assert.equal(await letter('a6'), 'Y');
  await page.waitForSelector('[data-testid="jq-preset-list"] option[value="corners"]', { state: 'attached' });
  await page.selectOption('[data-testid="jq-preset-list"]', 'corners');
  await page.click('[data-testid="jq-load"]');
  await page.waitForFunction(() => document.querySelector('[data-post="a6"] [data-piece]')?.getAttribute('data-piece') === 'C');
  assert.match(await page.locator('[data-testid="jq-preset-note"]').textContent(), /Loaded: corners/);
  // The loaded set-up is the one sent.
  await page.click('[data-testid="send-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  assert.equal(await letter('a6'), 'C');
  await page.context().close();
});

test('Junqi: the suggested set-up button has the server place an army with a plan', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="planned-setup"]');
  await page.click('[data-testid="planned-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  // The flag stands in a headquarters (b1 or d1).
  const flags = await page.locator('[data-piece="F"]').count();
  assert.equal(flags, 1);
  const flagPost = await page.locator('[data-post]:has([data-piece="F"])').getAttribute('data-post');
  assert.ok(['b1', 'd1'].includes(flagPost), flagPost);
  await page.context().close();
});

test('Junqi: in the set-up editor a piece dragged onto another swaps them', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="send-setup"]');
  const letter = (post) => page.locator(`[data-post="${post}"] [data-piece]`).getAttribute('data-piece');
  assert.equal(await letter('a6'), 'Y');
  assert.equal(await letter('c6'), 'C');
  // The board may re-render between two reads (the piece is then detached
  // and has no box for a moment): wait until it is laid out.
  const centre = async (post) => {
    const piece = page.locator(`[data-post="${post}"] [data-piece]`);
    for (let tries = 0; tries < 50; tries++) {
      await piece.waitFor({ state: 'visible' });
      const b = await piece.boundingBox();
      if (b) return [b.x + b.width / 2, b.y + b.height / 2];
      await page.waitForTimeout(20);
    }
    throw new Error(`no box for the piece on ${post}`);
  };
  const [x1, y1] = await centre('a6');
  const [x2, y2] = await centre('c6');
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, { steps: 4 });
  await page.mouse.move(x2, y2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('[data-post="a6"] [data-piece]')?.getAttribute('data-piece') === 'C');
  assert.equal(await letter('c6'), 'Y');
  // Nothing stays selected after the drop.
  await page.click('[data-post="e6"]');
  await page.click('[data-post="e6"]');
  assert.equal(await letter('a6'), 'C');
  await page.context().close();
});

// ---------------------------------------------------------------- issue 37

test('Junqi (issue 37): file letters and rank numbers, headquarters, camps and railways drawn apart, with a legend', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="send-setup"]');
  const box = (sel) => page.locator(sel).boundingBox();
  for (const f of 'abcde') assert.equal(await page.locator(`[data-coord="file-${f}"]`).textContent(), f);
  for (let r = 1; r <= 12; r++) assert.equal(await page.locator(`[data-coord="rank-${r}"]`).textContent(), String(r));
  // Red (the creator) sees its own back rank at the bottom, file a on the left.
  assert.ok((await box('[data-coord="file-a"]')).x < (await box('[data-coord="file-e"]')).x);
  assert.ok((await box('[data-coord="rank-1"]')).y > (await box('[data-coord="rank-12"]')).y);
  // The rank number sits level with its posts.
  const r1 = await box('[data-coord="rank-1"]'), b1 = await box('[data-post="b1"]');
  assert.ok(Math.abs((r1.y + r1.height / 2) - (b1.y + b1.height / 2)) < 8);
  // Four headquarters and ten camps, each its own shape; railways as track.
  assert.deepEqual((await page.locator('[data-hq]').evaluateAll((els) => els.map((e) => e.getAttribute('data-hq')))).sort(), ['b1', 'b12', 'd1', 'd12']);
  assert.equal(await page.locator('[data-hq]').first().evaluate((e) => e.tagName), 'path');
  assert.equal(await page.locator('circle[data-camp]').count(), 10);
  assert.match(await page.locator('[data-post="b12"]').textContent(), /HQ/);
  assert.ok(await page.locator('[data-testid="railways"] line').count() > 20);
  await page.click('[data-testid="random-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  assert.match(await page.locator('[data-testid="jq-legend"]').textContent(), /railway.*camp.*headquarters/);
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="jq-legend"] >> text=大本营');
  // Camps start empty (Q3): their name shows.
  assert.equal(await page.locator('[data-post="c9"]').textContent(), '行营');
  await page.context().close();
});

test('Junqi (issue 37): after a resignation every enemy rank shows, and the result is the viewer\'s: You lost, with the reason in words', async () => {
  const page = await junqiVsAi();
  await page.waitForSelector('[data-testid="random-setup"]');
  await page.click('[data-testid="random-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  await yourMove(page);
  const hidden = () => page.locator('[data-piece="x"], [data-piece="X"]').count();
  assert.equal(await hidden(), 25, 'hidden while the game is played');
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="result-panel"]');
  await page.waitForFunction(() => !document.querySelector('[data-piece="x"], [data-piece="X"]'));
  // Both armies, every rank: 25 blue pieces by their names.
  const blue = await page.locator('[data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece')).filter((c) => /[a-z]/.test(c)));
  assert.equal(blue.length, 25);
  assert.equal(blue.filter((c) => c === 'f').length, 1, 'the enemy flag shows');
  assert.match(await page.locator('[data-testid="jq-revealed"]').textContent(), /both armies are shown/);
  assert.equal(await page.locator('[data-testid="result-head"]').textContent(), 'You lost · Blue wins');
  assert.match(await page.locator('[data-testid="result-panel"]').getAttribute('class'), /\blost\b/);
  assert.match(await page.locator('[data-testid="result-explanation"]').textContent(), /^Red \(guest-[0-9a-f]+\) resigned\.$/);
  assert.doesNotMatch(await page.locator('[data-testid="result-panel"]').textContent(), /Seat 1|seat 1/);
  // A spectator sees every rank too.
  const id = page.url().split('#/game/')[1];
  const other = await newPage();
  await other.goto(`${page.url().split('#')[0]}#/game/${id}`);
  await other.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  assert.equal(await other.locator('[data-piece="x"], [data-piece="X"]').count(), 0);
  assert.equal(await other.locator('[data-testid="result-head"]').textContent(), 'Blue wins');
  await other.context().close();
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="result-head"] >> text=你输了 · 蓝方胜');
  assert.match(await page.locator('[data-testid="result-explanation"]').textContent(), /^红方（guest-[0-9a-f]+）认输。$/);
  await page.context().close();
});

test('Junqi (issue 37): on a phone the set-up instructions and the send button are in sight without scrolling', async () => {
  const page = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.selectOption('[data-testid="game-select"]', 'junqi');
  await page.selectOption('[data-testid="opponent"]', 'ai:1');
  await page.click('[data-testid="create"]');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('[data-testid="send-setup"]');
  await page.waitForTimeout(200);
  const inView = async (sel) => {
    const b = await page.locator(sel).boundingBox();
    return b && b.y >= 0 && b.y + b.height <= 844;
  };
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  assert.ok(await inView('[data-testid="setup-phase"]'), 'the instructions');
  assert.ok(await inView('[data-testid="send-setup"]'), 'the send button');
  // The instructions come before the board; the button stays in sight while the board scrolls by.
  assert.ok((await page.locator('[data-testid="setup-phase"]').boundingBox()).y < (await page.locator('[data-testid="board"]').boundingBox()).y);
  await page.locator('[data-post="a1"]').scrollIntoViewIfNeeded();
  assert.ok(await inView('[data-testid="send-setup"]'), 'the send button, scrolled to the back rank');
  await page.click('[data-testid="send-setup"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-piece]').length === 50);
  await page.context().close();
});
