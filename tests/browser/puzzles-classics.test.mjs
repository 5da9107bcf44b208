// Issue 40: the 排局 tab of #/puzzles lists the classic composed endgames
// (name, result, a small board and the FEN) and starts a game against the
// computer from one: the game page shows that position, the player to move.
// Screenshots at both sizes in both languages when SHOTS_DIR is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, base, shots } from './harness.mjs';


test('the 排局 tab lists the classics and starts a game against the computer from one', async () => {
  const r = await fetch(`${base}/api/puzzles/classics?variant=xiangqi`);
  assert.equal(r.status, 200);
  const list = (await r.json()).classics;
  assert.ok(list.length >= 1);
  const c = list.find((x) => x.id === 'qixing-juhui');
  assert.ok(c, 'qixing-juhui listed');

  const page = await newPage('en-US');
  await page.goto(`${base}/#/puzzles`);
  await page.click('[data-testid="pz-mode-classics"]');
  await page.waitForSelector('[data-testid="pz-classic-qixing-juhui"]');
  assert.equal(await page.locator('[data-testid="pz-classics"] > li').count(), list.length);
  const card = page.locator('[data-testid="pz-classic-qixing-juhui"]');
  assert.match(await card.textContent(), /七星聚会/);
  assert.match(await card.textContent(), /Gathering of the Seven Stars/);
  await page.waitForFunction(() => /Red to move: a draw with correct play/.test(document.querySelector('[data-testid="pz-classic-qixing-juhui"] [data-testid="pz-classic-result"]').textContent));
  assert.ok(await card.locator('[data-piece]').count() > 0, 'a small board is drawn');
  // The puzzle controls are out of the way in this tab.
  assert.equal(await page.locator('[data-testid="pz-hint"]').isVisible(), false);
  assert.equal(await page.evaluate(() => location.hash), '#/puzzles/classics');
  await shots(page, 'classics-en');
  await page.click('[data-testid="lang"]');
  await page.waitForFunction(() => /红方先行，正着成和/.test(document.querySelector('[data-testid="pz-classic-qixing-juhui"] [data-testid="pz-classic-result"]')?.textContent || ''));
  await shots(page, 'classics-zh');
  await page.click('[data-testid="lang"]');
  await page.waitForSelector('[data-testid="pz-classic-play-qixing-juhui"]');

  // Start from it at level 2.
  await page.selectOption('[data-testid="pz-classic-level"]', '2');
  await page.click('[data-testid="pz-classic-play-qixing-juhui"]');
  await page.waitForFunction(() => /^#\/game\//.test(location.hash));
  const id = await page.evaluate(() => location.hash.split('/')[2]);
  // The board shows the classic's pieces on their squares: the black rook
  // and general on e9/f9, Red's rooks on g0/h0, its cannon on h2.
  for (const sq of ['e9', 'f9', 'g0', 'h0', 'h2', 'd8', 'f7', 'i4', 'b2', 'e2', 'd1', 'f1', 'e7', 'e0']) {
    await page.waitForSelector(`#board [data-piece="${sq}"], [data-testid="board"] [data-piece="${sq}"]`);
  }
  assert.equal(await page.locator('[data-testid="board"] [data-piece]').count(), 14);
  const g = await page.evaluate(async (gid) => (await fetch(`/api/games/${gid}`)).json(), id);
  assert.match(JSON.stringify(g), /ai:2|"level":2|AI level 2|电脑 2级/);
  await page.close();
});
