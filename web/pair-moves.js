// @ts-check
// The default reading of moves as square pairs (`h2e2`, maybe with a suffix
// a game gives them): what a click means, where a selected piece may go and
// which squares the last move marks. A game whose moves are otherwise
// written brings its own hooks (kinds.js, GameModule).

/**
 * A click on `sq`: a piece of a legal move is selected, then a target
 * square makes the move; several moves between the same squares (differing
 * by a suffix) go to the chooser.
 * @param {string[]} legal
 * @param {string | null} selected
 * @param {string} sq
 * @returns {import('./kinds.js').ClickResult}
 */
export function pairClick(legal, selected, sq) {
  if (selected) {
    const cands = legal.filter((m) => m.slice(0, 4) === selected + sq);
    if (cands.length === 1) return { move: cands[0] };
    if (cands.length > 1) return { choose: cands };
  }
  return { select: legal.some((m) => m.slice(0, 2) === sq) ? sq : null };
}

/**
 * The squares the selected piece may move to.
 * @param {string[]} legal
 * @param {string | null} selected
 */
export function pairTargets(legal, selected) {
  return selected ? new Set(legal.filter((m) => m.slice(0, 2) === selected).map((m) => m.slice(2, 4))) : new Set();
}

/**
 * The two squares of a move record (none for a pass, `0000`).
 * @param {Record<string, any> | undefined} rec
 */
export function pairLast(rec) {
  return rec && rec.iccs !== '0000' ? [rec.iccs.slice(0, 2), rec.iccs.slice(2, 4)] : [];
}
