// Tiaoqi's page module: the 121-hole star in six colours, drawn from the
// position text (T13: rows 17 down to 1, one character per cell). Cells are
// ROW.COL (T11); doubled coordinates x = 2(col-1) - (n-1), y = row. Each
// player's own camp is ringed in its colour.
const LEN = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const COLOUR = { a: '#d33', b: '#e90', c: '#db2', d: '#2a4', e: '#27c', f: '#94c' };
const NS = 'http://www.w3.org/2000/svg';

function cells(fen) {
  const rows = (fen || '').split(' ')[0].split('/');
  const out = [];
  rows.forEach((r, i) => {
    const row = 17 - i, n = LEN[row - 1];
    [...r].forEach((ch, j) => out.push({ row, col: j + 1, x: 2 * j - (n - 1), y: row, ch }));
  });
  return out;
}

/** Draws the position at `replayPly` (null: now); a click names the cell. */
export function draw(svg, { state, replayPly, flipped, selected, targets, last, onClick }) {
  const rec = state.records || [];
  const fen = replayPly == null || replayPly >= rec.length ? state.fen : (rec[replayPly - 1] || {}).fen || state.fen;
  const dx = 13, dy = 22.5, r = 9;
  svg.setAttribute('viewBox', `${-12 * dx - 14} ${-dy} ${24 * dx + 28} ${18 * dy + 4}`);
  svg.innerHTML = '';
  for (const c of cells(fen)) {
    const g = document.createElementNS(NS, 'circle');
    const px = (flipped ? -c.x : c.x) * dx, py = (flipped ? c.y : 18 - c.y) * dy - dy / 2;
    const name = `${c.row}.${c.col}`;
    g.setAttribute('cx', px); g.setAttribute('cy', py); g.setAttribute('r', r);
    g.setAttribute('fill', COLOUR[c.ch] || '#f4ead5');
    const mark = name === selected || (targets && targets.has(name));
    const moved = last && last.includes(name);
    g.setAttribute('stroke', name === selected ? '#000' : mark ? '#2a4' : moved ? '#36c' : '#8a7650');
    g.setAttribute('stroke-width', mark || moved ? 3 : 1);
    if (targets && targets.has(name)) g.dataset.target = '1';
    g.dataset.cell = name;
    g.addEventListener('click', () => onClick && onClick(name));
    svg.appendChild(g);
  }
}

/** The side panel: whose camp is whose, and who is to move. */
export function info(state, t) {
  const seats = ((state.fen || '').split(' ')[2] || '').split('');
  return seats.map((s, i) => `<span style="color:${COLOUR[s]}" data-testid="seat-${s}">● ${s}${state.to_move === i ? ' ←' : ''}</span>`).join(' ');
}

const ends = (m) => { const c = m.split('-'); return [c[0], c[c.length - 1]]; };

/** A click on `cell`: the move from the selected piece to it, or a new selection. */
export function click(legal, selected, cell) {
  if (selected) {
    const m = legal.find((x) => x !== 'pass' && ends(x)[0] === selected && ends(x)[1] === cell);
    if (m) return { move: m };
  }
  return { select: legal.some((x) => x !== 'pass' && ends(x)[0] === cell) ? cell : null };
}

/** Every cell the selected piece can reach. */
export function targets(legal, selected) {
  return new Set(selected ? legal.filter((x) => x !== 'pass' && ends(x)[0] === selected).map((x) => ends(x)[1]) : []);
}

/** The last move's start and end. */
export function last(rec) { return rec && rec.iccs.includes('-') ? ends(rec.iccs) : []; }
