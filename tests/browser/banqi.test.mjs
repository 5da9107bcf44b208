// Browser tests of the Banqi page (issue 37): a turn lost on time reads as
// such in the move list, and before ply 40 (when resigning is closed, B11)
// the page says why and offers to leave, saying what leaving costs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage } from './harness.mjs';

/** A Banqi game against AI level 1 with `clock` (seconds a move), opened in `page`. */
async function banqiVsAi(page, seconds) {
  const id = await page.evaluate(async (s) => {
    const r = await fetch('/api/games', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ game: 'banqi', opponent: 'ai:1', clock: { initial_s: s } }) });
    return (await r.json()).id;
  }, seconds);
  assert.ok(id, 'a game');
  await page.goto(`${page.url().split('#')[0]}#/game/${id}`);
  await page.waitForSelector('[data-testid="face-down"]');
  return id;
}

test('Banqi: a turn lost on time reads "timed out" in the move list (B12), in English and Chinese', async () => {
  const page = await newPage();
  // Two seconds a move: the person makes its first move (else the game
  // is aborted, not lost), then never again, and loses on the third mark.
  const id = await banqiVsAi(page, 2);
  await page.evaluate(async (id) => {
    for (let i = 0; i < 100; i++) {
      const s = await (await fetch(`/api/games/${id}`, { credentials: 'include' })).json();
      if ((s.legal || []).length) {
        await fetch(`/api/games/${id}/moves`, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: s.legal[0] }) });
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }, id);
  await page.waitForSelector('[data-testid="result-panel"]', { timeout: 40000 });
  const cells = await page.locator('[data-testid="moves"] [data-ply]').allTextContents();
  assert.equal(cells.filter((c) => c === 'timed out').length, 3, JSON.stringify(cells));
  assert.ok(!cells.some((c) => /flip 00|0000/.test(c)), cells.join('|'));
  assert.equal(await page.locator('[data-testid="result-head"]').textContent().then((s) => s.startsWith('You lost')), true);
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="moves"] [data-ply]')].filter((c) => c.textContent === '超时').length === 3);
  await page.context().close();
});

test('Banqi: before ply 40 resigning is closed and the page says why; Leave says what it costs and goes back to the lobby', async () => {
  const page = await newPage();
  await banqiVsAi(page, 30);
  await page.waitForSelector('[data-testid="leave"]');
  assert.equal(await page.locator('[data-testid="resign-later"]').isDisabled(), true);
  assert.equal(await page.locator('[data-testid="resign"]').count(), 0);
  const plies = await page.locator('[data-testid="moves"] [data-ply]').count();
  assert.equal(await page.locator('[data-testid="resign-why"]').textContent(), `Resigning and draw offers open at ply 40 (${40 - plies} more to go): a game is not given up in its first moves (B11).`);
  const about = await page.locator('[data-testid="leave-about"]').textContent();
  assert.match(about, /each of your turns runs out after 30 s/);
  assert.match(about, /third timeout loses the game \(B12\)/);
  assert.match(about, /10 Banqi points/);
  // Leaving asks first, with the same words; then the lobby.
  let asked = '';
  page.removeAllListeners('dialog');
  page.on('dialog', (d) => { asked = d.message(); d.accept(); });
  await page.click('[data-testid="leave"]');
  await page.waitForSelector('[data-testid="create-form"]');
  assert.equal(asked, about);
  assert.doesNotMatch(page.url(), /#\/game\//);
  await page.goBack();
  await page.waitForSelector('[data-testid="leave"]');
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="leave"] >> text=离开对局');
  assert.match(await page.locator('[data-testid="resign-why"]').textContent(), /第40步起才可认输或求和/);
  assert.match(await page.locator('[data-testid="leave-about"]').textContent(), /第三次超时判负/);
  await page.context().close();
});
