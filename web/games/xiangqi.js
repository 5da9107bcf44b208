// The Xiangqi family's page module: the board (with the Jifen classes) and
// the side panel (Jifen scores). app.js loads a game's module by the
// `web_module` its kind names at /api/kinds.
import { drawBoard } from '../board.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w';

/** Draws the position at `replayPly` (null: now). */
export function draw(svg, { state, replayPly, flipped, selected, targets, last, onClick }) {
  const rec = state.records || [];
  const fen = replayPly == null ? state.fen : (replayPly === 0 ? (state.start_fen || START) : rec[replayPly - 1].fen);
  drawBoard(svg, { fen, flipped, selected, targets, last, alerts: replayPly == null ? state.alerts : [], onClick });
}

/** The side panel's line: the Jifen scores, if the game has them. */
export function info(state, t) {
  if (!state.scores) return '';
  return `${t('score')}: <span style="color:#b5221b" data-testid="score-red">${state.scores[0]}</span> : <span data-testid="score-black">${state.scores[1]}</span> / ${state.target}`;
}
