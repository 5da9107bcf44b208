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

/** The scores a position text carries after its board fields (Jifen: fields 7 and 8), or null. */
function scoresOf(fen) {
  const f = (fen || '').split(' ');
  return f.length >= 8 ? [Number(f[6]) || 0, Number(f[7]) || 0] : null;
}

/**
 * The change of score a move made, as a badge: `+1` in the colour of the
 * side whose score moved, the whole score in its title. Nothing for a move
 * that changed no score, so the list does not repeat the score after every
 * move (the side panel shows it once).
 * @param {number[] | null} before @param {number[]} after @param {(s: any) => string} esc
 */
function scoreBadge(before, after, esc) {
  const was = before || [0, 0];
  const side = after[0] !== was[0] ? 0 : after[1] !== was[1] ? 1 : -1;
  if (side < 0) return '';
  const d = after[side] - was[side];
  const title = `${t('red')} ${after[0]} : ${after[1]} ${t('black')}`;
  return ` <span class="score-badge side-${side ? 'black' : 'red'}" data-testid="score-change" title="${esc(title)}">${d > 0 ? '+' : '−'}${Math.abs(d)}</span>`;
}

/** The rows of the move list as HTML; each move is a `[data-ply]` element. */
export function moveRows(state, replayPly, esc, notation) {
  const rec = state.records || [];
  const start = scoresOf(state.start_fen);
  const mv = (j) => {
    const r = rec[j];
    const pass = r.iccs === '0000' || r.iccs === 'pass';
    const text = pass ? t('pass') : (r[notation] || r.iccs);
    const badge = r.scores ? scoreBadge(j ? rec[j - 1].scores : start, r.scores, esc) : '';
    const title = r.scores ? ` title="${esc(`${t('red')} ${r.scores[0]} : ${r.scores[1]} ${t('black')}`)}"` : '';
    return `<span class="mv${replayPly === j + 1 ? ' cur' : ''}${pass ? ' pass' : ''}" data-ply="${j + 1}"${title}>${esc(text)}${badge}</span>`;
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
