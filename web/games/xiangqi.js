// The Xiangqi family's page module: the board (with the Jifen classes) and
// the side panel (Jifen scores). app.js loads a game's module by the
// `web_module` its kind names at /api/kinds.
import { drawBoard } from '../board.js';
import { moveRows as rows } from '../movelist.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w';

/** Draws the position at `replayPly` (null: now). */
export function draw(svg, { state, replayPly, flipped, selected, targets, last, onClick, notation }) {
  const rec = state.records || [];
  const fen = replayPly == null ? state.fen : (replayPly === 0 ? (state.start_fen || START) : rec[replayPly - 1].fen);
  // The pieces one may drag: those a legal move starts from, on one's turn, at the live position.
  const mine = state.status === 'playing' && state.seat != null && (state.seats_to_move || [state.to_move]).includes(state.seat);
  const movable = new Set(replayPly == null && mine ? (state.legal || []).filter((m) => /^[a-i]\d[a-i]\d/.test(m)).map((m) => m.slice(0, 2)) : []);
  drawBoard(svg, { fen, flipped, selected, targets, last, alerts: replayPly == null ? state.alerts : [], coords: notation === 'iccs' || !notation ? 'iccs' : 'wxf', onClick, movable });
}

/** The move list: a row a round, a double turn (Jifen contest) as one entry. */
export function moveRows(state, replayPly, esc, notation) { return rows(state, replayPly, esc, notation); }

/** The side panel's line: the Jifen scores (whose is whose, and the target), if the game has them. */
export function info(state, t, ctx) {
  if (!state.scores) return '';
  const name = (i) => (ctx && state.seats && state.seats[i] ? ctx.esc(ctx.seatLabel(state.seats[i])) : '');
  return `<span class="score-side red-side" data-testid="score-red-side">${t('red')} <span class="muted">${name(0)}</span> <b data-testid="score-red">${state.scores[0]}</b></span> : <span class="score-side" data-testid="score-black-side"><b data-testid="score-black">${state.scores[1]}</b> ${t('black')} <span class="muted">${name(1)}</span></span> <span class="muted" data-testid="score-target">· ${t('score_target').replace('{n}', state.target)}</span>`;
}
