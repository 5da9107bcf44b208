// Browser test of the analysis board for Jifen (issue 39): the rule set
// chosen on the board, moves with their class chosen after a click, the
// scores after each move in the status line, the contest rules' double
// turn with its pass, and the engine in the browser analysing the position.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, createGame, waitMoves } from './harness.mjs';

const status = (page) => page.locator('[data-testid="study-status"]').textContent();
async function click2(page, a, b) {
  await page.click(`[data-testid="analysis-board"] [data-sq="${a}"]`);
  await page.click(`[data-testid="analysis-board"] [data-sq="${b}"]`);
}

test('Jifen on the analysis board: classes chosen, scores, the double turn and the engine', async () => {
  const page = await newPage();
  await page.evaluate(() => { localStorage.setItem('qy-notation', 'iccs'); location.hash = '#/analysis'; });
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
  await page.selectOption('[data-testid="study-variant"]', 'jifen-match');
  await page.waitForFunction(() => location.hash.startsWith('#/analysis/jifen-match'));
  await page.waitForFunction(() => /target 100/.test(document.querySelector('[data-testid="study-status"]').textContent));
  assert.match(await status(page), /Red to move.*red 0, black 0/);
  // Match rules: a cannon move can keep its class or take another; Idle is chosen.
  await click2(page, 'h2', 'e2');
  assert.deepEqual(await page.locator('[data-testid="study-choose"] button').allTextContents(), ['h2e2', 'h2e2-', 'h2e2*']);
  await page.click('[data-testid="study-play-h2e2*"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e2"][data-class="idle"]');
  // A Normal piece moved gives the opponent a point: the cannon was Normal while it moved.
  assert.match(await status(page), /Black to move.*red 0, black 1/);
  assert.match(decodeURIComponent(await page.evaluate(() => location.hash)), /\/h2e2\*\/1$/);
  // Contest rules: red's first turn is one move; black's quiet first move gives it a second, or a pass.
  await page.selectOption('[data-testid="study-variant"]', 'jifen-contest');
  await page.waitForFunction(() => location.hash.startsWith('#/analysis/jifen-contest'));
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="h2"]');
  await click2(page, 'h2', 'e2');
  await page.waitForFunction(() => /Black to move/.test(document.querySelector('[data-testid="study-status"]').textContent));
  await click2(page, 'h9', 'g7');
  await page.waitForFunction(() => /second move/.test(document.querySelector('[data-testid="study-status"]').textContent));
  assert.match(await status(page), /Black to move.*red 1, black 1/);
  await page.click('[data-testid="engine-toggle"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="engine-line"]').length > 0, null, { timeout: 20000 });
  await page.click('[data-testid="engine-toggle"]');
  await page.click('[data-testid="study-play-0000"]');
  await page.waitForFunction(() => /Red to move/.test(document.querySelector('[data-testid="study-status"]').textContent));
  assert.deepEqual(await page.locator('[data-testid="tree-move"]').allTextContents(), ['h2e2', 'h9g7', '0000']);
  await page.context().close();
});

test('the Jifen editor: classes and scores; an Idle chariot gives no check; a won score is refused', async () => {
  const page = await newPage();
  await page.evaluate(() => { localStorage.setItem('qy-notation', 'iccs'); location.hash = '#/analysis/jifen-contest'; });
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
  await page.click('[data-testid="edit-position"]');
  await page.click('[data-testid="editor-clear"]');
  const ed = (sq) => `[data-testid="editor-board"] [data-sq="${sq}"]`;
  await page.click(ed('e9'));
  await page.click(ed('d9'));
  // An Idle chariot on d1 looks at the black general but may take nothing (J4): no check.
  await page.click('[data-testid="editor-class-idle"]');
  await page.click('[data-testid="palette-R"]');
  await page.click(ed('d1'));
  await page.waitForSelector('[data-testid="editor-board"] [data-piece="d1"][data-class="idle"]');
  // A black cannon made Small after it is put: picked up, then the class.
  await page.click('[data-testid="editor-class-normal"]');
  await page.click('[data-testid="palette-c"]');
  await page.click(ed('b7'));
  await page.click('[data-testid="palette-c"]');
  await page.click(ed('b7'));
  await page.click('[data-testid="editor-class-small"]');
  await page.waitForSelector('[data-testid="editor-board"] [data-piece="b7"][data-class="small"]');
  // A score at the target: the game would be over.
  await page.fill('[data-testid="editor-score-red"]', '100');
  await page.dispatchEvent('[data-testid="editor-score-red"]', 'change');
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForFunction(() => /target 100/.test(document.querySelector('[data-testid="editor-error"]').textContent));
  await page.fill('[data-testid="editor-score-red"]', '5');
  await page.fill('[data-testid="editor-score-black"]', '3');
  await page.dispatchEvent('[data-testid="editor-score-black"]', 'change');
  assert.equal(await page.inputValue('[data-testid="editor-fen"]'), '3k5/9/1c-7/9/9/9/9/9/3R*5/4K4 w - - 0 1 5 3 1 -');
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="d1"][data-class="idle"]');
  assert.match(await page.locator('[data-testid="study-status"]').textContent(), /Red to move.*red 5, black 3/);
  await page.context().close();
});

test("a Jifen game's page opens its rule set's analysis board with the game's moves and scores", async () => {
  const page = await newPage();
  await page.evaluate(() => localStorage.setItem('qy-notation', 'iccs'));
  await createGame(page, { game: 'jifen-match', opponent: 'ai:1' });
  await page.waitForFunction(() => /Your move/.test(document.querySelector('[data-testid="status"]').textContent));
  await page.click('[data-sq="h2"]');
  await page.click('[data-sq="e2"]');
  await waitMoves(page, 2);
  const href = await page.locator('[data-testid="study-link"]').getAttribute('href');
  assert.match(href, /^#\/analysis\/jifen-match\/.+\/h2e2\.[a-i]\d[a-i]\d[-=*+]?\/2$/);
  const red = (await page.locator('[data-testid="score-red"]').textContent()).trim();
  const black = (await page.locator('[data-testid="score-black"]').textContent()).trim();
  await page.click('[data-testid="study-link"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-testid="tree-move"].cur');
  assert.equal(await page.locator('[data-testid="tree-move"]').count(), 2);
  // The scores on the board are the game's after its two moves (the page's rules agree with the server's).
  assert.match(await page.locator('[data-testid="study-status"]').textContent(), new RegExp(`Red to move · Scores: red ${red}, black ${black} \\(target 100\\)`));
  await page.context().close();
});
