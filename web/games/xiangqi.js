// @ts-check
// The Xiangqi family's page module: the board (with the Jifen classes) and
// the side panel (Jifen scores). app.js loads a game's module by the
// `web_module` its kind names at /api/kinds.
import { drawBoard, parseBoard } from './xiangqi-board.js';
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

/** The board and piece themes (board-theme.js) dress this board. */
export const themes = true;

/** The seats are the colours: the creator of a game picks one. */
export const colourChoice = true;

/** The lobby's one-click starts open plain Xiangqi. */
export const quickPlay = 'xiangqi';

/** The engine (engine-worker.js) analyses these games; `start` when a game names no position. */
export const analysis = { start: START + ' - - 0 1' };

/**
 * Premoves (premove.js): whether `sq` holds a piece of the viewer's (red is seat 0).
 * @param {Record<string, any>} state
 * @param {string} sq
 */
export function ownPiece(state, sq) {
  const p = parseBoard(state.fen)[sq];
  return !!p && (p.letter === p.letter.toUpperCase()) === (state.seat === 0);
}

/** A Jifen move may end in the piece's class after it (`h2e2=`, `-`, `+`, `*`). */
const CLASS = /^[=*+-]$/;

/**
 * A typed move: the square pair, maybe with a class (`h2e2*`); without one,
 * every class version of the move goes to the chooser.
 * @param {string} raw
 * @param {string[]} legal
 */
export function typed(raw, legal) {
  const versions = legal.filter((x) => x.startsWith(raw) && CLASS.test(x.slice(raw.length)));
  if (legal.includes(raw)) return { moves: versions.length ? [raw, ...versions] : [raw] };
  const m = /^([a-i]\d{1,2})-?([a-i]\d{1,2})([=*+-]?)$/.exec(raw);
  if (!m) return null;
  const pair = m[1] + m[2];
  if (m[3] && legal.includes(pair + m[3])) return { moves: [pair + m[3]] };
  const cands = legal.filter((x) => x === pair || (x.startsWith(pair) && CLASS.test(x.slice(pair.length))));
  return cands.length ? { moves: cands } : { illegal: true };
}

export const typedExample = 'h2e2';

/** The chooser after a Jifen move asks for the class the piece ends with. */
export const chooser = {
  title: 'choose_class',
  /** @param {string} m @param {(k: string) => string} t */
  label: (m, t) => ({ '': t('keep'), '=': t('normal'), '-': t('small'), '+': t('royal'), '*': t('idle') })[m.slice(4)] ?? m,
  /** @param {string} m */
  testid: (m) => `class-${m.length > 4 ? m[4] : 'keep'}`,
};
