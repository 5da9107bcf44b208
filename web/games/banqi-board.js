// @ts-check
// Banqi (翻翻棋): the 4×8 board with face-down discs, the captured pieces and
// the timeout marks (B12). The server sends only the public position, so a
// face-down piece is just `?` here: the page cannot know what lies under it.
const NS = 'http://www.w3.org/2000/svg';
const CELL = 60, PAD = 14;
// Room for the coordinates: files a-h below, ranks 1-4 on the left.
const LM = 20, BM = 20;
const NAMES = { K: '帅', A: '仕', B: '相', R: '车', N: '马', C: '炮', P: '兵', k: '将', a: '士', b: '象', r: '车', n: '马', c: '炮', p: '卒' };

/** Whether `game` is one of the Banqi rule sets. */
export function isBanqi(game) { return game === 'banqi' || game === 'banqi-icga'; }

/** Parses the public position's board: {square: letter or '?'}. */
export function parseBanqi(fen) {
  const out = {};
  ((fen || '').split(' ')[0] || '').split('/').forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) { file += Number(ch); continue; }
      out[String.fromCharCode(97 + file) + (4 - i)] = ch;
      file++;
    }
  });
  return out;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** Draws the board into `svg`; `onClick(square)` gets clicks (a flip is a click on a face-down piece). */
export function drawBanqi(svg, { fen, selected, targets, last, flipped, onClick }) {
  svg.innerHTML = '';
  const w = 8 * CELL + 2 * PAD + LM, h = 4 * CELL + 2 * PAD + BM;
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.classList.add('banqi');
  el('rect', { x: 0, y: 0, width: w, height: h, fill: '#e8c98f' }, svg);
  const coords = el('g', { class: 'coords', 'font-size': 15, fill: '#6b4a22', 'text-anchor': 'middle', 'data-testid': 'coords' }, svg);
  for (let c = 0; c < 8; c++) {
    const f = flipped ? 7 - c : c, ch = String.fromCharCode(97 + f);
    el('text', { x: PAD + LM + c * CELL + CELL / 2, y: h - 8, 'data-coord': ch }, coords).textContent = ch;
  }
  for (let row = 0; row < 4; row++) {
    const r = flipped ? row + 1 : 4 - row;
    el('text', { x: LM / 2 + 3, y: PAD + row * CELL + CELL / 2 + 5, 'data-coord': String(r) }, coords).textContent = String(r);
  }
  const pieces = parseBanqi(fen);
  for (let f = 0; f < 8; f++) {
    for (let r = 1; r <= 4; r++) {
      const sq = String.fromCharCode(97 + f) + r;
      const col = flipped ? 7 - f : f, row = flipped ? r - 1 : 4 - r;
      const x = PAD + LM + col * CELL, y = PAD + row * CELL;
      const g = el('g', { 'data-sq': sq, 'data-testid': `sq-${sq}`, style: 'cursor:pointer' }, svg);
      const hl = sq === selected ? '#f6e27a' : last.includes(sq) ? '#d9e8a8' : targets.has(sq) ? '#b8dcb0' : 'none';
      el('rect', { x, y, width: CELL, height: CELL, fill: hl, stroke: '#7a5a2a', 'stroke-width': 1 }, g);
      const p = pieces[sq];
      if (p === '?') {
        el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, fill: '#5b3a1a', stroke: '#2e1d0d', 'stroke-width': 2, class: 'face-down', 'data-testid': 'face-down' }, g);
      } else if (p) {
        const red = p === p.toUpperCase();
        el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, fill: '#fbf3e1', stroke: red ? '#b5221b' : '#222', 'stroke-width': 2 }, g);
        const t = el('text', { x: x + CELL / 2, y: y + CELL / 2 + 9, 'text-anchor': 'middle', 'font-size': 26, fill: red ? '#b5221b' : '#222', 'data-piece': p, class: 'piece-text' }, g);
        t.textContent = NAMES[p] || p;
      }
      g.addEventListener('click', () => onClick(sq));
    }
  }
}

/** The captured pieces and timeout marks, as HTML, from the public position. */
export function banqiInfo(fen, t, names = ['', '']) {
  const f = (fen || '').split(' ');
  const captured = f[5] && f[5] !== '-' ? [...f[5]] : [];
  const marks = (f[9] || '0,0').split(',');
  const list = (pred) => captured.filter(pred).map((p) => `<span class="piece-font" style="color:${p === p.toUpperCase() ? '#b5221b' : '#222'}">${NAMES[p] || p}</span>`).join('');
  return `<div data-testid="banqi-captured">${t('captured')}${t('colon')}${list((p) => p === p.toUpperCase()) || '—'} · ${list((p) => p !== p.toUpperCase()) || '—'}</div>`
    + `<div data-testid="banqi-marks" title="${t('timeout_marks_about')}">${t('timeout_marks')}${t('colon')}${names[0]} <b>${marks[0]}</b> : <b>${marks[1]}</b> ${names[1]} <span class="muted">/ 3</span> <div class="muted about" data-testid="timeout-marks-about">${t('timeout_marks_about')}</div></div>`;
}

/** The colour of `seat` (0 or 1): 'red', 'black', or null before the first flip (B2). */
export function seatColour(fen, seat) {
  const c = (fen || '').split(' ')[2];
  if (c !== 'r' && c !== 'b') return null;
  return (c === 'r') === (seat === 0) ? 'red' : 'black';
}
