// Browser test of the analysis board for Jifen (issue 39): the rule set
// chosen on the board, moves with their class chosen after a click, the
// scores after each move in the status line, the contest rules' double
// turn with its pass, and the engine in the browser analysing the position;
// the editor's classes, scores and the game's state beyond the board.
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
  // A cleared board lost its pieces to captures: the capture flag is set (contest rules hang on it).
  assert.equal(await page.inputValue('[data-testid="editor-fen"]'), '3k5/9/1c-7/9/9/9/9/9/3R*5/4K4 w - - 0 1 5 3 1 x');
  assert.equal(await page.isChecked('[data-testid="editor-captured"]'), true);
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="d1"][data-class="idle"]');
  assert.match(await page.locator('[data-testid="study-status"]').textContent(), /Red to move.*red 5, black 3/);
  await page.context().close();
});

test('the Jifen editor sets the game state beyond the board: capture flag, double turn, counters; impossible states are refused with the reason', async () => {
  const page = await newPage();
  await page.evaluate(() => { localStorage.setItem('qy-notation', 'iccs'); location.hash = '#/analysis/jifen-contest'; });
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="e0"]');
  const fen = () => page.inputValue('[data-testid="editor-fen"]');
  const refused = async (re) => {
    await page.click('[data-testid="editor-analyse"]');
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="editor-error"]').textContent), re.source);
  };
  const setNumber = async (id, v) => { await page.fill(`[data-testid="${id}"]`, String(v)); await page.dispatchEvent(`[data-testid="${id}"]`, 'change'); };
  await page.click('[data-testid="edit-position"]');
  // The full board, black to move at move 3, no capture yet: black's quiet move gives a second (J14).
  await page.check('[data-testid="editor-side-second"]');
  await setNumber('editor-move-number', 3);
  await setNumber('editor-quiet-plies', 4);
  assert.equal(await fen(), 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 4 3 0 0 1 -');
  // Red's first turn has no second move; a second move with a capture behind it does not exist; the move limit ends the game.
  await page.check('[data-testid="editor-side-first"]');
  await setNumber('editor-move-number', 1);
  await page.check('[data-testid="editor-second"]');
  await refused(/first turn is a single move/);
  await page.check('[data-testid="editor-captured"]');
  await refused(/only in contest rules before the first capture/);
  await page.uncheck('[data-testid="editor-captured"]');
  await page.uncheck('[data-testid="editor-second"]');
  await setNumber('editor-quiet-plies', 300);
  await refused(/300 moves without a capture/);
  await setNumber('editor-quiet-plies', 4);
  // A piece taken off the board means a capture has happened: said until the flag is set.
  await page.click('[data-testid="palette-erase"]');
  await page.click('[data-testid="editor-board"] [data-sq="a3"]');
  await refused(/Pieces are missing/);
  await page.check('[data-testid="editor-captured"]');
  assert.match(await fen(), /\/2P1P1P1P\/.* w - - 4 1 0 0 1 x$/);
  await page.click('[data-testid="palette-P"]');
  await page.click('[data-testid="editor-board"] [data-sq="a3"]');
  await page.click('[data-testid="palette-P"]');
  await page.uncheck('[data-testid="editor-captured"]');
  // A class other than Normal before any capture (J8): refused until the flag is set.
  await page.click('[data-testid="editor-class-idle"]');
  await page.click('[data-testid="editor-board"] [data-sq="a0"]');
  await page.click('[data-testid="editor-class-idle"]');
  await page.waitForSelector('[data-testid="editor-board"] [data-piece="a0"][data-class="idle"]');
  await refused(/only from the first capture on/);
  await page.click('[data-testid="editor-board"] [data-sq="a0"]');
  await page.click('[data-testid="editor-class-normal"]');
  await page.check('[data-testid="editor-side-second"]');
  await setNumber('editor-move-number', 3);
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="h9"]');
  assert.match(await status(page), /Black to move/);
  await click2(page, 'h9', 'g7');
  await page.waitForFunction(() => /second move/.test(document.querySelector('[data-testid="study-status"]').textContent));

  // The same position after a capture earlier in the game: one move a turn, and the moved piece may change class (J8).
  await page.click('[data-testid="edit-position"]');
  await page.click('[data-testid="editor-start"]');
  await page.check('[data-testid="editor-side-second"]');
  await setNumber('editor-move-number', 3);
  await page.check('[data-testid="editor-captured"]');
  assert.match(await fen(), / b - - \d+ 3 0 0 1 x$/);
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForSelector('[data-testid="analysis-board"] [data-piece="h9"]');
  await click2(page, 'h9', 'g7');
  assert.deepEqual(await page.locator('[data-testid="study-choose"] button').allTextContents(), ['h9g7', 'h9g7-', 'h9g7+', 'h9g7*']);
  await page.click('[data-testid="study-play-h9g7"]');
  await page.waitForFunction(() => /Red to move/.test(document.querySelector('[data-testid="study-status"]').textContent));

  // The second move of a double turn set in the editor: a pass is offered.
  await page.click('[data-testid="edit-position"]');
  await page.click('[data-testid="editor-start"]');
  await page.check('[data-testid="editor-side-second"]');
  await setNumber('editor-move-number', 3);
  await page.check('[data-testid="editor-second"]');
  assert.match(await fen(), / b - - \d+ 3 0 0 2 -$/);
  await page.click('[data-testid="editor-analyse"]');
  await page.waitForSelector('[data-testid="study-play-0000"]');
  assert.match(await status(page), /second move/);
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
