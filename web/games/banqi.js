// @ts-check
// Banqi's page module: the 4×8 board with face-down discs, the captured
// pieces and the timeout marks. The server sends only the public position.
import { drawBanqi, banqiInfo, seatColour } from './banqi-board.js';
import { pairClick } from '../pair-moves.js';
import { t } from '../i18n.js';

/** Draws the public position at `replayPly` (null: now). */
export function draw(svg, { state, replayPly, flipped, selected, targets, last, onClick }) {
  const rec = state.records || [];
  const fen = replayPly == null ? state.fen : (replayPly === 0 ? '????????/????????/????????/????????' : rec[replayPly - 1].fen || state.fen);
  drawBanqi(svg, { fen, flipped, selected, targets, last, onClick });
}

/** The side panel: captured pieces and timeout marks. */
export function info(state, t, ctx) {
  const name = (i) => (ctx && state.seats[i] ? ctx.esc(ctx.seatLabel(state.seats[i])) : '');
  return banqiInfo(state.fen, t, [name(0), name(1)]);
}

/** A seat's colour, decided by the first flip (B2): 'red', 'black' or null. */
export function sideOf(state, seat) { return seatColour(state.fen, seat); }

/** In a flip-chess game "Flip" would read as turning a piece over: the button turns the board. */
export const flipLabel = 'turn_board';

/** Resigning and draw offers open at this ply (B11). */
const RESIGN_PLY = 40;

/** A message with its `{name}` places filled. @param {string} key @param {Record<string, any>} vars */
const tf = (key, vars) => Object.entries(vars).reduce((s, [k, v]) => s.split(`{${k}}`).join(String(v)), t(key));

/**
 * No move-limit claim (300 plies draw by themselves, B10); draw offers and
 * resigning from ply 40 (B11). Before then the page says so, and offers to
 * leave with what that costs: the turns left run out (B12) and a game lost
 * before ply 40 costs points (B13, times the room's base, B17).
 */
export function extras(state) {
  const plies = (state.records || []).length;
  const early = plies < RESIGN_PLY;
  if (!early) return { claim: false, offer: true, resign: true };
  return { claim: false, offer: false, resign: false, resignWhy: tf('bq_resign_why', { n: RESIGN_PLY, left: RESIGN_PLY - plies }), leave: t('bq_leave_cost') };
}

/** Who won: results name seats ('red' is seat 0), whose colour the first flip decided. */
export function result(state, t, ctx) {
  if (state.result !== 'red' && state.result !== 'black') return t('result_draw');
  const seat = state.result === 'red' ? 0 : 1;
  const c = seatColour(state.fen, seat);
  return c ? t('result_' + c) : t('seat_wins').replace('{name}', ctx.seatLabel(state.seats[seat]));
}

/** The move list has no notations to choose from. */
export const notations = false;

/** A move in the list: a flip ("a1a1") reads "flip a1", a move "a1-a2". */
export function moveText(rec, t) {
  const m = (rec && rec.iccs) || '';
  // A turn lost on time (B12) is recorded as 0000.
  if (m === '0000') return t('bq_timed_out');
  if (m.length === 4 && m.slice(0, 2) === m.slice(2)) return `${t('flip_move')} ${m.slice(0, 2)}`;
  return m.length === 4 ? `${m.slice(0, 2)}-${m.slice(2)}` : m;
}

/**
 * A click on a face-down piece flips it (`a1a1`); other clicks pick a piece and its target.
 * @param {string[]} legal
 * @param {string | null} selected
 * @param {string} sq
 */
export function click(legal, selected, sq) {
  if (!selected && legal.includes(sq + sq)) return { move: sq + sq };
  return pairClick(legal, selected, sq);
}

/**
 * A typed lone square flips the piece there (`a1` = `a1a1`).
 * @param {string} raw
 * @param {string[]} legal
 */
export function typed(raw, legal) {
  const lone = /^([a-h]\d)$/.exec(raw);
  return lone && legal.includes(lone[1] + lone[1]) ? { moves: [lone[1] + lone[1]] } : null;
}

export const typedExample = 'a1a2, a1';
