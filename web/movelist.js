// @ts-check
// The move list of the two-sided games: one row a round, Red's turn and
// Black's side by side. A turn is every move one side makes before the other
// moves: one move, or in Jifen's contest rules a double turn of two moves (or
// a move and a pass), shown as one entry, never spilling into the other column.
import { t } from './i18n.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w';

/** The side (0 red, 1 black) to move in a position text. */
function sideOf(fen) { const s = (fen || '').split(' ')[1]; return s === 'b' ? 1 : 0; }

/** The mover of every record: the side to move in the position before it. */
export function movers(state) {
  const rec = state.records || [];
  let before = state.start_fen || START;
  return rec.map((r) => {
    const side = r.seat != null ? r.seat : sideOf(before);
    before = r.fen || before;
    return side;
  });
}

/** The records grouped into turns: [{side, plies: [index …]}]. */
export function turns(state) {
  const who = movers(state);
  const out = [];
  who.forEach((side, j) => {
    const last = out[out.length - 1];
    if (last && last.side === side) last.plies.push(j);
    else out.push({ side, plies: [j] });
  });
  return out;
}

/** The rows of the move list as HTML; each move is a `[data-ply]` element. */
export function moveRows(state, replayPly, esc, notation) {
  const rec = state.records || [];
  const mv = (j) => {
    const r = rec[j];
    const pass = r.iccs === '0000' || r.iccs === 'pass';
    const text = pass ? t('pass') : (r[notation] || r.iccs);
    return `<span class="mv${replayPly === j + 1 ? ' cur' : ''}${pass ? ' pass' : ''}" data-ply="${j + 1}">${esc(text)}${r.scores ? ` <span class="muted">(${r.scores.join(':')})</span>` : ''}</span>`;
  };
  const cell = (turn) => turn ? `<td class="turn${turn.plies.length > 1 ? ' double' : ''}" data-side="${turn.side}"${turn.plies.length > 1 ? ' data-testid="double-turn"' : ''}>${turn.plies.map(mv).join('<span class="sep"> · </span>')}</td>` : '<td></td>';
  const rows = [];
  const list = turns(state);
  let i = 0, n = 1;
  while (i < list.length) {
    const a = list[i];
    if (a.side === 1) { rows.push(`<tr><td class="muted">${n}.</td><td class="muted">…</td>${cell(a)}</tr>`); i += 1; }
    else { rows.push(`<tr><td class="muted">${n}.</td>${cell(a)}${cell(list[i + 1])}</tr>`); i += 2; }
    n++;
  }
  return rows.join('');
}
