// @ts-check
// The SVG board: pieces with their Jifen class, legal targets, last move, check.
import { BOARDS, PIECES, boardTheme, pieceTheme } from '../board-theme.js';
const NS = 'http://www.w3.org/2000/svg';
const CELL = 50, PAD = 42;
export const NAMES = { K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵', k: '将', a: '士', b: '象', n: '马', r: '车', c: '炮', p: '卒' };
const CLASS_OF = { '-': 'small', '+': 'royal', '*': 'idle' };

/** Parses a FEN board into {square: {letter, cls}}. */
export function parseBoard(fen) {
  const out = {};
  const rows = (fen || '').split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (let j = 0; j < row.length; j++) {
      const ch = row[j];
      if (/[0-9]/.test(ch)) { file += Number(ch); continue; }
      let cls = 'normal';
      if (CLASS_OF[row[j + 1]]) { cls = CLASS_OF[row[j + 1]]; j++; }
      out[String.fromCharCode(97 + file) + rank] = { letter: ch, cls };
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

/** Red's file numbers in Chinese notation. */
const CN = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** Whether the pointer's last click or drop on a board held Shift or Alt (the Jifen chooser opens then). */
let modsHeld = false;
export const modifierHeld = () => modsHeld;

/**
 * The coordinates around the board: ICCS files a-i and ranks 0-9 (`iccs`), or
 * the file numbers 1-9 counted from each side's right, Red's along Red's
 * edge and Black's along Black's (`wxf`; `chinese`: Red's as 一…九, as
 * Chinese boards print them); all follow a flipped board.
 */
function coordinates(svg, flipped, style) {
  const g = el('g', { class: 'coords', 'font-size': 14, fill: BOARDS[boardTheme()].coord, 'text-anchor': 'middle', 'data-testid': 'coords', 'data-style': style }, svg);
  const W = PAD * 2 + CELL * 8, H = PAD * 2 + CELL * 9;
  for (let c = 0; c < 9; c++) {
    const file = flipped ? 8 - c : c, x = PAD + c * CELL;
    if (style === 'wxf' || style === 'chinese') {
      // Red counts files from its right (file i = 1); Black from its right (file a = 1).
      const red = 9 - file, black = file + 1;
      const redText = style === 'chinese' ? CN[red - 1] : String(red);
      el('text', { x, y: H - 7, 'data-coord': `red-${red}` }, g).textContent = flipped ? String(black) : redText;
      el('text', { x, y: 17, 'data-coord': `black-${black}` }, g).textContent = flipped ? redText : String(black);
    } else {
      el('text', { x, y: H - 7, 'data-coord': String.fromCharCode(97 + file) }, g).textContent = String.fromCharCode(97 + file);
    }
  }
  if (style === 'iccs') {
    for (let r = 0; r < 10; r++) {
      const rank = flipped ? r : 9 - r;
      el('text', { x: 10, y: PAD + r * CELL + 5, 'data-coord': String(rank) }, g).textContent = String(rank);
    }
  }
  return W;
}

// Drag and drop (pointer events: a mouse, a pen or a finger) beside
// click-click: a press on a movable piece that then moves picks it up (the
// same as a click on it: it is selected and its targets are shown), the piece
// follows the pointer, and letting go over a point is a click there. Let go
// where it was picked up, off the board or on an illegal point: it goes back.
function pointAt(svg, e) {
  const m = svg.getScreenCTM();
  if (!m) return null;
  const pt = svg.createSVGPoint();
  pt.x = e.clientX; pt.y = e.clientY;
  return pt.matrixTransform(m.inverse());
}

function squareAt(svg, e, flipped) {
  const p = pointAt(svg, e);
  if (!p) return null;
  let f = Math.round((p.x - PAD) / CELL), r = 9 - Math.round((p.y - PAD) / CELL);
  if (f < 0 || f > 8 || r < 0 || r > 9) return null;
  if (flipped) { f = 8 - f; r = 9 - r; }
  return String.fromCharCode(97 + f) + r;
}

function bindDrag(svg) {
  if (svg.__qyDrag) return;
  svg.__qyDrag = true;
  let drag = null;
  const opts = () => svg.__qyOpts || {};
  const end = (e, drop) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moving) return;
    // The click the browser may send after this pointerup is the drop itself.
    svg.__qySkipClick = true;
    setTimeout(() => { svg.__qySkipClick = false; }, 0);
    const o = opts();
    modsHeld = e.shiftKey || e.altKey;
    const to = drop ? squareAt(svg, e, o.flipped) : null;
    if (to && to !== d.sq && o.onClick) o.onClick(to);
    else drawBoard(svg, o); // back where it was, still selected
  };
  svg.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const o = opts();
    const sq = squareAt(svg, e, o.flipped);
    if (!sq || !o.movable || !o.movable.has(sq) || !o.onClick) return;
    drag = { sq, id: e.pointerId, x: e.clientX, y: e.clientY, start: pointAt(svg, e), moving: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.moving) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
      drag.moving = true;
      // Only a drag holds the pointer (a captured pointer's click would miss the point clicked).
      try { svg.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer */ }
      const o = opts();
      if (o.selected !== drag.sq) o.onClick(drag.sq);
    }
    const g = svg.querySelector(`[data-piece="${drag.sq}"]`), p = pointAt(svg, e);
    if (!g || !p) return;
    if (!g.classList.contains('dragging')) { g.classList.add('dragging'); svg.appendChild(g); }
    g.setAttribute('transform', `translate(${p.x - drag.start.x} ${p.y - drag.start.y})`);
    e.preventDefault();
  });
  svg.addEventListener('pointerup', (e) => end(e, true));
  svg.addEventListener('pointercancel', (e) => end(e, false));
}

/** Draws the board into `svg`. opts: {fen, flipped, selected, targets:Set, last:[from,to], alerts:[sq], mated (the alert is a mated general), coords:'iccs'|'wxf'|'chinese', onClick(sq), movable:Set (squares a piece may be dragged from)} */
export function drawBoard(svg, opts) {
  svg.__qyOpts = opts;
  bindDrag(svg);
  svg.innerHTML = '';
  svg.setAttribute('viewBox', `0 0 ${PAD * 2 + CELL * 8} ${PAD * 2 + CELL * 9}`);
  svg.setAttribute('class', opts.movable && opts.movable.size ? 'board can-drag' : 'board');
  const xy = (sq) => {
    let f = sq.charCodeAt(0) - 97, r = Number(sq[1]);
    if (opts.flipped) { f = 8 - f; r = 9 - r; }
    return [PAD + f * CELL, PAD + (9 - r) * CELL];
  };
  const bt = BOARDS[boardTheme()], pt = PIECES[pieceTheme()];
  svg.dataset.boardTheme = boardTheme();
  svg.dataset.pieceTheme = pieceTheme();
  el('rect', { x: 0, y: 0, width: PAD * 2 + CELL * 8, height: PAD * 2 + CELL * 9, fill: bt.bg, rx: 8, 'data-testid': 'board-bg' }, svg);
  const g = el('g', { stroke: bt.line, 'stroke-width': 1.4 }, svg);
  for (let r = 0; r < 10; r++) el('line', { x1: PAD, y1: PAD + r * CELL, x2: PAD + 8 * CELL, y2: PAD + r * CELL }, g);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) el('line', { x1: PAD + f * CELL, y1: PAD, x2: PAD + f * CELL, y2: PAD + 9 * CELL }, g);
    else {
      el('line', { x1: PAD + f * CELL, y1: PAD, x2: PAD + f * CELL, y2: PAD + 4 * CELL }, g);
      el('line', { x1: PAD + f * CELL, y1: PAD + 5 * CELL, x2: PAD + f * CELL, y2: PAD + 9 * CELL }, g);
    }
  }
  for (const [y0] of [[0], [7]]) {
    el('line', { x1: PAD + 3 * CELL, y1: PAD + y0 * CELL, x2: PAD + 5 * CELL, y2: PAD + (y0 + 2) * CELL }, g);
    el('line', { x1: PAD + 5 * CELL, y1: PAD + y0 * CELL, x2: PAD + 3 * CELL, y2: PAD + (y0 + 2) * CELL }, g);
  }
  coordinates(svg, !!opts.flipped, opts.coords === 'wxf' || opts.coords === 'chinese' ? opts.coords : 'iccs');
  const river = el('text', { x: PAD + 4 * CELL, y: PAD + 4.5 * CELL + 7, 'text-anchor': 'middle', 'font-size': 22, fill: bt.line, opacity: .6, class: 'piece-text' }, svg);
  river.textContent = '楚 河　　　　汉 界';
  // Last move and selection.
  for (const sq of opts.last || []) {
    const [x, y] = xy(sq);
    el('rect', { x: x - 24, y: y - 24, width: 48, height: 48, fill: '#7fbf5f', opacity: .45, rx: 6, 'data-last': sq }, svg);
  }
  if (opts.selected) {
    const [x, y] = xy(opts.selected);
    el('rect', { x: x - 24, y: y - 24, width: 48, height: 48, fill: 'none', stroke: '#1a6fd1', 'stroke-width': 3, rx: 6 }, svg);
  }
  const board = parseBoard(opts.fen);
  for (const [sq, p] of Object.entries(board)) {
    const [x, y] = xy(sq);
    const red = p.letter === p.letter.toUpperCase();
    const color = red ? pt.red : pt.black;
    const rad = p.cls === 'small' ? 15 : 21;
    const pg = el('g', { 'data-piece': sq, 'data-class': p.cls }, svg);
    if (p.cls === 'royal') el('circle', { cx: x, cy: y, r: rad + 3, fill: 'none', stroke: '#d4a017', 'stroke-width': 4 }, pg);
    const idle = p.cls === 'idle';
    const face = pt.solid ? color : (idle ? pt.idle : pt.face);
    el('circle', { cx: x, cy: y, r: rad, fill: face, stroke: pt.solid ? '#f7efe0' : color, 'stroke-width': 2, 'stroke-dasharray': idle ? '4 3' : '', opacity: idle ? .75 : 1, 'data-face': face }, pg);
    const tx = el('text', { x, y: y + rad * 0.38, 'text-anchor': 'middle', 'font-size': rad * 1.05, fill: pt.solid ? '#ffffff' : color, opacity: idle ? .55 : 1, 'font-weight': 'bold', class: 'piece-text' }, pg);
    tx.textContent = NAMES[p.letter] || '?';
  }
  for (const sq of opts.alerts || []) {
    const [x, y] = xy(sq);
    if (opts.mated) {
      // Checkmate: a double ring that stays on the finished board.
      const ring = el('g', { 'data-check': sq, 'data-mated': sq, class: 'mated-ring' }, svg);
      el('circle', { cx: x, cy: y, r: 25, fill: 'rgba(255,0,0,.18)', stroke: '#d00', 'stroke-width': 4 }, ring);
      el('circle', { cx: x, cy: y, r: 29, fill: 'none', stroke: '#d00', 'stroke-width': 1.5, 'stroke-dasharray': '3 2' }, ring);
    } else el('circle', { cx: x, cy: y, r: 25, fill: 'none', stroke: '#f00', 'stroke-width': 3, 'data-check': sq }, svg);
  }
  for (const sq of opts.targets || []) {
    const [x, y] = xy(sq);
    el('circle', { cx: x, cy: y, r: board[sq] ? 24 : 7, fill: board[sq] ? 'none' : '#1a6fd1', stroke: '#1a6fd1', 'stroke-width': 3, opacity: .7, 'data-target': sq }, svg);
  }
  // Click targets on top of everything, one per point.
  for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) {
    const sq = String.fromCharCode(97 + f) + r;
    const [x, y] = xy(sq);
    const c = el('circle', { cx: x, cy: y, r: 24, fill: 'transparent', 'data-sq': sq, style: 'cursor:pointer' }, svg);
    // The click that ends a drag was the drop, already handled.
    c.addEventListener('click', (e) => { if (svg.__qySkipClick) return; modsHeld = e.shiftKey || e.altKey; if (opts.onClick) opts.onClick(sq); });
  }
}

/**
 * Arrows for moves (the engine's best first moves on the analysis board),
 * the first boldest; drawn under the click targets so the board stays clickable.
 * @param {SVGSVGElement} svg @param {string[]} moves ICCS @param {boolean} flipped
 */
export function drawArrows(svg, moves, flipped) {
  const xy = (/** @type {string} */ sq) => {
    let f = sq.charCodeAt(0) - 97, r = Number(sq[1]);
    if (flipped) { f = 8 - f; r = 9 - r; }
    return [PAD + f * CELL, PAD + (9 - r) * CELL];
  };
  const first = svg.querySelector('[data-sq]');
  const g = document.createElementNS(NS, 'g');
  g.setAttribute('data-testid', 'arrows');
  g.setAttribute('pointer-events', 'none');
  const defs = el('defs', {}, g);
  const marker = el('marker', { id: 'qy-arrow', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#1f7a3a' }, marker);
  moves.forEach((mv, i) => {
    if (!/^[a-i]\d[a-i]\d/.test(mv)) return;
    const [x1, y1] = xy(mv.slice(0, 2)), [x2, y2] = xy(mv.slice(2, 4));
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, cut = 16 / len;
    el('line', { x1, y1, x2: x2 - (x2 - x1) * cut, y2: y2 - (y2 - y1) * cut, stroke: '#1f7a3a', 'stroke-width': i ? 6 : 10, 'stroke-linecap': 'round', opacity: i ? 0.45 : 0.75, 'marker-end': 'url(#qy-arrow)', 'data-arrow': mv.slice(0, 4) }, g);
  });
  svg.insertBefore(g, first);
}
