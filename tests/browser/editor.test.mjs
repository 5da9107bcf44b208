// Browser test of the position editor on the analysis board (issue 39):
// pieces put from the palette by click and by drag, moved and dragged off
// the board, the side to move chosen; an illegal position is refused with
// its reason (generals facing, a piece where it can never stand, too many
// of a kind, the side not to move in check); a legal one opens on the board
// and the engine analyses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage } from './harness.mjs';

const ed = (sq) => `[data-testid="editor-board"] [data-sq="${sq}"]`;
const fen = (page) => page.inputValue('[data-testid="editor-fen"]');
const board = async (page) => (await fen(page)).split(' ')[0];
async function refused(page, re) {
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="editor-error"]').textContent.length > 0);
  assert.match(await page.locator('[data-testid="editor-error"]').textContent(), re);
  assert.ok(await page.locator('[data-testid="editor"]').isVisible(), 'still editing');
}

test('the editor builds a position, refuses illegal ones with the reason and analyses a legal one', async () => {
  const page = await newPage();
  await page.evaluate(() => { location.hash = '#/analysis'; });
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
  await page.click('[data-testid="edit-position"]');
  await page.waitForSelector('[data-testid="editor"] [data-piece="e0"]');
  // Cleared: the two generals alone face each other.
  await page.click('[data-testid="editor-clear"]');
  assert.equal(await fen(page), '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1');
  await refused(page, /generals face each other/);
  // A red advisor on e5: no advisor ever stands there.
  await page.click('[data-testid="palette-A"]');
  await page.click(ed('e5'));
  assert.equal(await board(page), '4k4/9/9/9/4A4/9/9/9/9/4K4');
  await refused(page, /Red’s advisor on e5 stands on a point it can never reach/);
  // The same piece clicked again takes it off.
  await page.click(ed('e5'));
  assert.equal(await board(page), '4k4/9/9/9/9/9/9/9/9/4K4');
  // Three red chariots, by click and by drag from the palette.
  await page.click('[data-testid="palette-R"]');
  await page.click(ed('a1'));
  await page.click(ed('b1'));
  await page.dragAndDrop('[data-testid="palette-R"]', ed('c1'));
  assert.equal(await board(page), '4k4/9/9/9/9/9/9/9/RRR6/4K4');
  await refused(page, /Red has 3 × chariot; a side has at most 2/);
  // The eraser takes two off.
  await page.click('[data-testid="palette-erase"]');
  await page.click(ed('b1'));
  await page.click(ed('c1'));
  // Nothing picked: the black general is dragged from e9 to d9, and the
  // chariot from a1 to d1 (a click, then a click).
  await page.click('[data-testid="palette-erase"]');
  const svg = page.locator('[data-testid="editor-board"]');
  const at = async (sq) => { await page.locator(ed(sq)).scrollIntoViewIfNeeded(); const b = await page.locator(ed(sq)).boundingBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const [x1, y1] = await at('e9'), [x2, y2] = await at('d9');
  await page.mouse.move(x1, y1); await page.mouse.down(); await page.mouse.move(x1 - 10, y1 + 5, { steps: 3 }); await page.mouse.move(x2, y2, { steps: 5 }); await page.mouse.up();
  await page.click(ed('a1'));
  await page.click(ed('d1'));
  await page.click(ed('e0'));
  await page.click(ed('f0'));
  assert.equal(await board(page), '3k5/9/9/9/9/9/9/9/3R5/5K3');
  // Red to move with black in check: the side not to move is in check.
  await refused(page, /side not to move is in check/);
  // A red soldier put on i5 and dragged off the board is gone.
  await page.click('[data-testid="palette-P"]');
  await page.click(ed('i5'));
  await page.click('[data-testid="palette-P"]');
  const [x3, y3] = await at('i5');
  const box = await svg.boundingBox();
  await page.mouse.move(x3, y3); await page.mouse.down(); await page.mouse.move(x3 + 10, y3, { steps: 3 }); await page.mouse.move(box.x + box.width + 60, y3, { steps: 5 }); await page.mouse.up();
  assert.equal(await board(page), '3k5/9/9/9/9/9/9/9/3R5/5K3');
  // Black to move, in check: legal; it opens on the board and the engine analyses it.
  await page.check('[data-testid="editor-side-second"]');
  assert.equal(await fen(page), '3k5/9/9/9/9/9/9/9/3R5/5K3 b - - 0 1');
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="d1"]');
  assert.equal(await page.locator('[data-testid="editor"]').count(), 0);
  assert.match(decodeURIComponent(await page.evaluate(() => location.hash)), /#\/analysis\/xiangqi\/3k5\/9\/9\/9\/9\/9\/9\/9\/3R5\/5K3 b - - 0 1\/\/0/);
  assert.match(await page.locator('[data-testid="study-status"]').textContent(), /Black to move/);
  await page.click('[data-testid="engine-toggle"]');
  await page.waitForSelector('[data-testid="engine-line"]', { timeout: 20000 });
  // Black's only way out of check: the general steps to e9.
  assert.match(await page.locator('[data-testid="engine-line"]').first().textContent(), /d9e9/);
  await page.context().close();
});
