// Banqi's page module: the 4×8 board with face-down discs, the captured
// pieces and the timeout marks. The server sends only the public position.
import { drawBanqi, banqiInfo } from '../banqi.js';

/** Draws the public position at `replayPly` (null: now). */
export function draw(svg, { state, replayPly, flipped, selected, targets, last, onClick }) {
  const rec = state.records || [];
  const fen = replayPly == null ? state.fen : (replayPly === 0 ? '????????/????????/????????/????????' : rec[replayPly - 1].fen || state.fen);
  drawBanqi(svg, { fen, flipped, selected, targets, last, onClick });
}

/** The side panel: captured pieces and timeout marks. */
export function info(state, t) { return banqiInfo(state.fen, t); }

/** In a flip-chess game "Flip" would read as turning a piece over: the button turns the board. */
export const flipLabel = 'turn_board';

/** No move-limit claim (300 plies draw by themselves, B10); draw offers from ply 40 (B11). */
export function extras(state) { return { claim: false, offer: (state.records || []).length >= 40 }; }
