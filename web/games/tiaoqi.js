// @ts-check
// Tiaoqi's page module: the 121-hole star drawn from the position text (T13),
// turned so that the viewer's own camp is at the bottom; the six camps tinted
// in their owners' colours, the viewer's own camp and target outlined and
// labelled; the reachable holes of a selected piece, the jump path of the
// hovered (or, on touch, first tapped) target, and the last move animated
// hop by hop. The seat list, finishing order and move list are in
// tiaoqi-panel.js; geometry and position text in tiaoqi-geo.js.
import { CELLS, LEN, LETTERS, cell, opposite, parse, pathOf, replayOf, seatLetters } from './tiaoqi-geo.js';
import { COLOUR, DARK, LIGHT } from './tiaoqi-colours.js';
import { t } from '../i18n.js';
import { tiaoqiStudy } from './tiaoqi-study.js';

export { seats, info, result, explain, moveRows, notations } from './tiaoqi-panel.js';

const NS = 'http://www.w3.org/2000/svg';
const DX = 13, DY = 13 * Math.sqrt(3), R = 9;
/** How long one hop of the animated last move takes. */
const HOP_MS = 150;
const HOLE = '#f4ead5';

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// ------------------------------------------------------------ positions

/** The position text shown at `replayPly` (null: now). */
export function fenAt(state, replayPly) {
  const rec = state.records || [];
  if (replayPly == null || replayPly >= rec.length) return state.fen;
  return replayOf(state).fens[replayPly] || state.fen;
}

/** The letter of the seat index `i`, or undefined. */
export function letterOf(state, i) { return i == null ? undefined : seatLetters((state.seats || []).length)[i]; }

// ------------------------------------------------------------ geometry on screen

/** Screen point of a cell (by name or object), turned by `turn` sixths clockwise. */
function point(c, turn) {
  const k = typeof c === 'string' ? cell(c) : c;
  const X = k.x * DX, Y = (9 - k.y) * DY;
  const a = (turn * Math.PI) / 3, cos = Math.cos(a), sin = Math.sin(a);
  return [X * cos - Y * sin, X * sin + Y * cos];
}

const pts = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');

/** A triangle around three corner cells, pushed out by `m` from its centre. */
function triangle(corners, turn, m) {
  const p = corners.map((c) => point(c, turn));
  const cx = (p[0][0] + p[1][0] + p[2][0]) / 3, cy = (p[0][1] + p[1][1] + p[2][1]) / 3;
  return p.map(([x, y]) => { const d = Math.hypot(x - cx, y - cy); return [x + ((x - cx) / d) * m, y + ((y - cy) / d) * m]; });
}

// Each camp's corner cells, its tip first.
const CAMP_CORNERS = { a: ['1.1', '4.1', '4.4'], b: ['5.1', '8.1', '5.4'], c: ['13.1', '10.1', '13.4'], d: ['17.1', '14.1', '14.4'], e: ['13.13', '10.10', '13.10'], f: ['5.13', '8.10', '5.10'] };

/** Where camp `l`'s letter goes: beside its tip, on the side a's is on the west, turned. */
function labelPoint(l, turn) {
  const k = LETTERS.indexOf(l);
  const a = ((turn + k) * Math.PI) / 3, cos = Math.cos(a), sin = Math.sin(a);
  const X = -2.4 * DX, Y = 8 * DY;
  return [X * cos - Y * sin, X * sin + Y * cos];
}

// ------------------------------------------------------------ interaction state

// The animation of the newest move, and what the board last showed.
let anim = null;
let seen = { id: null, plies: -1 };
// On touch, a target's first tap shows its path; the second plays it.
let touch = false;
let pinned = null;

/** The move of the selected piece to `target`, from the legal list. */
function moveTo(legal, selected, target) {
  return (legal || []).find((m) => { const p = pathOf(m); return p.length && p[0] === selected && p[p.length - 1] === target; });
}

// ------------------------------------------------------------ drawing

/** Draws the position at `replayPly` (null: now); a click names the cell. */
export function draw(svg, { state, replayPly, flipped, userFlipped, selected, targets, last, onClick }) {
  const rec = state.records || [];
  const letters = seatLetters((state.seats || []).length);
  const mine = letterOf(state, state.seat);
  const userFlip = userFlipped ?? (flipped !== (state.seat === 1));
  const turn = (mine ? -LETTERS.indexOf(mine) : 0) + (userFlip ? 3 : 0);
  const fen = fenAt(state, replayPly);
  const { board } = parse(fen);
  const toMove = replayPly == null ? letterOf(state, state.to_move) : parse(fen).toMove;
  svg.classList.add('tiaoqi');
  svg.setAttribute('viewBox', '-184 -210 368 420');
  svg.innerHTML = '';
  bind(svg);

  // The star and the camps.
  const star = el('g', { class: 'tq-star' }, svg);
  for (const tri of [['1.1', '13.1', '13.13'], ['17.1', '5.1', '5.13']]) el('polygon', { points: pts(triangle(tri, turn, 22)), fill: '#e9d5a9', stroke: '#c9ad78', 'stroke-width': 1, 'stroke-linejoin': 'round' }, star);
  for (const l of LETTERS) {
    const seated = letters.includes(l), aimer = opposite(l), aimed = letters.includes(aimer);
    const colour = seated ? COLOUR[l] : aimed ? COLOUR[aimer] : '#999';
    const attrs = { points: pts(triangle(CAMP_CORNERS[l], turn, 15)), fill: colour, 'fill-opacity': seated ? 0.22 : aimed ? 0.1 : 0.06, stroke: 'none', 'data-camp': l };
    if (mine && l === mine) Object.assign(attrs, { stroke: COLOUR[mine], 'stroke-width': 3, 'data-testid': 'own-camp' });
    if (mine && l === opposite(mine)) Object.assign(attrs, { stroke: COLOUR[mine], 'stroke-width': 3, 'stroke-dasharray': '7 5', 'data-testid': 'target-camp' });
    if (!mine && l === toMove) Object.assign(attrs, { stroke: COLOUR[l], 'stroke-width': 2 });
    el('polygon', { ...attrs, 'stroke-linejoin': 'round' }, star);
    const [lx, ly] = labelPoint(l, turn);
    const label = el('g', { class: 'tq-label' }, star);
    if (seated) {
      el('circle', { cx: lx, cy: ly, r: 9, fill: COLOUR[l], stroke: l === toMove ? '#000' : 'none', 'stroke-width': 2 }, label);
      el('text', { x: lx, y: ly + 4.5, 'text-anchor': 'middle', 'font-size': 13, 'font-weight': 'bold', fill: '#fff' }, label).textContent = l;
    }
    // The viewer's own camp and target are at the bottom and top (the
    // board is turned so): their notes go on the far side of the tip.
    const note = mine && l === mine ? t('tq_your_camp') : mine && l === opposite(mine) ? t('tq_your_target') : '';
    if (note) {
      const [tx] = point(CAMP_CORNERS[l][0], turn);
      const right = lx < tx;
      const txt = el('text', { x: tx + (right ? 22 : -22), y: ly + 4.5, 'text-anchor': right ? 'start' : 'end', 'font-size': 13, 'font-weight': 'bold', fill: DARK[mine], stroke: '#fff', 'stroke-width': 3, 'paint-order': 'stroke', 'data-testid': l === mine ? 'own-camp-label' : 'target-camp-label' }, label);
      txt.textContent = note;
    }
  }

  // Each row's number (cells are ROW.COL) just beyond its last hole, small;
  // not at the two tips, where the camp letters and notes are.
  const rows = el('g', { class: 'coords', 'font-size': 7.5, fill: '#8a6e44', 'pointer-events': 'none', 'data-testid': 'coords' }, svg);
  for (let row = 2; row <= 16; row++) {
    const end = cell(`${row}.${LEN[row - 1]}`);
    if (!end) continue; // never: every row has a last hole (the checker cannot know)
    const [cx, cy] = point(end, turn), [nx, ny] = point({ x: end.x + 2, y: row }, turn);
    const d = Math.hypot(nx - cx, ny - cy), ux = (nx - cx) / d, uy = (ny - cy) / d;
    const anchor = ux > 0.3 ? 'start' : ux < -0.3 ? 'end' : 'middle';
    el('text', { x: cx + ux * 11, y: cy + uy * 11 + 2.6, 'text-anchor': anchor, 'data-coord': `row-${row}` }, rows).textContent = String(row);
  }

  // The moves since the viewer's own last one (every other player's since),
  // older ones fainter; the newest as before.
  const lastRec = replayPly == null ? rec[rec.length - 1] : rec[replayPly - 1];
  const lastPath = pathOf(lastRec && lastRec.iccs);
  const upto = replayPly == null ? rec.length : replayPly;
  const recent = recentMoves(state, upto, mine);
  recent.forEach((j, k) => {
    const path = pathOf(rec[j] && rec[j].iccs);
    if (path.length < 2) return;
    const newest = j === upto - 1;
    const who = replayOf(state).movers[j] || board.get(path[path.length - 1]);
    // Oldest faintest: 0.3 … 0.55 (the newest).
    const op = newest ? 0.55 : 0.3 + (0.2 * (k + 1)) / recent.length;
    const attrs = { points: pts(path.map((c) => point(c, turn))), fill: 'none', stroke: COLOUR[who] || '#36c', 'stroke-opacity': op, 'stroke-width': newest ? 3 : 2.5, 'stroke-dasharray': newest ? '2 4' : '1 3', 'stroke-linecap': 'round', 'pointer-events': 'none', 'data-ply': String(j + 1) };
    el('polyline', { ...attrs, 'data-testid': newest ? 'last-path' : 'recent-path' }, svg);
    if (!newest) {
      // Where that move started and ended, ringed in its mover's colour.
      for (const c of [path[0], path[path.length - 1]]) {
        const [x, y] = point(c, turn);
        el('circle', { cx: x, cy: y, r: R + 2.5, fill: 'none', stroke: COLOUR[who] || '#36c', 'stroke-opacity': op + 0.3, 'stroke-width': 2, 'pointer-events': 'none', 'data-recent': c }, svg);
      }
    }
  });

  // Holes and pieces: a wide transparent circle under each takes taps
  // between holes (a phone's finger is bigger than a hole).
  const hits = el('g', {}, svg), holes = el('g', {}, svg);
  for (const c of CELLS) {
    const [px, py] = point(c, turn);
    const name = c.name, ch = board.get(name);
    const isTarget = targets && targets.has(name);
    const hit = el('circle', { cx: px, cy: py, r: 13, fill: 'transparent' }, hits);
    const g = el('circle', { cx: px, cy: py, r: ch ? R : isTarget ? 8 : 6.5 }, holes);
    g.setAttribute('fill', ch ? COLOUR[ch] || '#888' : isTarget ? LIGHT[mine] || '#cfe8cf' : HOLE);
    const moved = (last && last.includes(name)) || (lastPath.length && (name === lastPath[0] || name === lastPath[lastPath.length - 1]));
    if (name === selected) { g.setAttribute('stroke', '#000'); g.setAttribute('stroke-width', 3); }
    else if (isTarget) { g.setAttribute('stroke', '#222'); g.setAttribute('stroke-width', 2); }
    else if (moved) { g.setAttribute('stroke', '#36c'); g.setAttribute('stroke-width', 2.5); }
    else { g.setAttribute('stroke', ch ? '#0007' : '#a48c5c'); g.setAttribute('stroke-width', 1); }
    if (isTarget) g.dataset.target = '1';
    if (moved) g.dataset.last = '1';
    g.dataset.cell = name;
    const tap = () => {
      if (isTarget && touch && pinned !== name) { pinned = name; showPath(svg, state, selected, name, turn); return; }
      pinned = null;
      if (onClick) onClick(name);
    };
    for (const x of [hit, g]) {
      x.addEventListener('click', tap);
      if (isTarget) {
        x.addEventListener('mouseenter', () => { if (!touch) showPath(svg, state, selected, name, turn); });
        x.addEventListener('mouseleave', () => { if (!touch && pinned !== name) clearPath(svg); });
      }
    }
  }
  el('g', { class: 'tq-path', 'pointer-events': 'none' }, svg);
  if (pinned && targets && targets.has(pinned)) showPath(svg, state, selected, pinned, turn);
  else pinned = null;

  // The newest move, animated once, when it arrives (not on load or replay).
  if (replayPly != null) anim = null;
  else {
    if (seen.id === state.id && rec.length > seen.plies && lastPath.length) {
      anim = { id: state.id, plies: rec.length, path: lastPath, colour: COLOUR[board.get(lastPath[lastPath.length - 1])] || '#888', t0: performance.now() };
    }
    seen = { id: state.id, plies: rec.length };
    if (anim && (anim.id !== state.id || anim.plies !== rec.length)) anim = null;
  }
  if (anim) animate(svg, turn);
}

/**
 * The record indices to draw before ply `upto`: every move since the
 * viewer's own last one (at least the newest, at most one round: as many
 * as there are other seats); a spectator sees each other seat's latest.
 */
export function recentMoves(state, upto, mine) {
  const movers = replayOf(state).movers;
  const n = (state.seats || []).length;
  if (upto <= 0) return [];
  let start;
  if (mine) {
    let own = -1;
    for (let j = upto - 1; j >= 0; j--) if (movers[j] === mine) { own = j; break; }
    start = own + 1;
  } else start = upto - Math.max(1, n - 1);
  // One round at most: a viewer out of the game (or one that left it long
  // ago) sees each other seat's latest move, not every move since.
  start = Math.max(0, upto - Math.max(1, n - 1), Math.min(start, upto - 1));
  const out = [];
  for (let j = start; j < upto; j++) out.push(j);
  return out;
}

/** The jump path of the move from `selected` to `target`, hop by hop. */
function showPath(svg, state, selected, target, turn) {
  const g = svg.querySelector('.tq-path');
  if (!g) return;
  g.innerHTML = '';
  const m = moveTo(state.legal, selected, target);
  if (!m) return;
  const path = pathOf(m), p = path.map((c) => point(c, turn));
  const colour = COLOUR[letterOf(state, state.seat)] || '#333';
  const line = el('polyline', { points: pts(p), fill: 'none', stroke: '#222', 'stroke-width': 5, 'stroke-linejoin': 'round', 'stroke-linecap': 'round', 'stroke-opacity': 0.35 }, g);
  line.dataset.testid = 'jump-path';
  line.dataset.hops = String(path.length - 1);
  line.dataset.path = m;
  el('polyline', { points: pts(p), fill: 'none', stroke: colour, 'stroke-width': 2.5, 'stroke-linejoin': 'round', 'stroke-linecap': 'round' }, g);
  p.slice(1).forEach(([x, y], i) => {
    el('circle', { cx: x, cy: y, r: 6, fill: '#fff', stroke: colour, 'stroke-width': 2 }, g);
    el('text', { x, y: y + 3.5, 'text-anchor': 'middle', 'font-size': 9, 'font-weight': 'bold', fill: '#222' }, g).textContent = String(i + 1);
  });
  if (touch) {
    // In the star's empty bottom-left corner, where it hides no hole.
    const hint = el('text', { x: -180, y: 204, 'text-anchor': 'start', 'font-size': 14, 'font-weight': 'bold', fill: DARK[letterOf(state, state.seat)] || '#222', stroke: '#fff', 'stroke-width': 3, 'paint-order': 'stroke', 'data-testid': 'tap-again' }, g);
    hint.textContent = t('tq_tap_again');
  }
}

function clearPath(svg) { const g = svg.querySelector('.tq-path'); if (g) g.innerHTML = ''; }

/** Remembers whether the last press was a finger (once per board element). */
function bind(svg) {
  if (svg.dataset.tqBound) return;
  svg.dataset.tqBound = '1';
  svg.addEventListener('pointerdown', (e) => { touch = e.pointerType === 'touch' || e.pointerType === 'pen'; });
}

/**
 * Moves a copy of the piece along the path of `anim`, HOP_MS a hop, over
 * the board as drawn (the real piece already stands on its new hole, under
 * a cover); nothing waits for it, and a redraw picks it up where it is.
 */
function animate(svg, turn) {
  const a = anim;
  let g = svg.querySelector('.tq-anim');
  if (!g) {
    g = el('g', { class: 'tq-anim', 'pointer-events': 'none', 'data-testid': 'move-animation' }, svg);
    const [ex, ey] = point(a.path[a.path.length - 1], turn);
    el('circle', { cx: ex, cy: ey, r: R + 1.5, fill: HOLE, stroke: '#a48c5c', 'stroke-width': 1 }, g);
    el('circle', { class: 'tq-flyer', r: R, fill: a.colour, stroke: '#0008', 'stroke-width': 1.5 }, g);
  }
  const hops = a.path.length - 1, total = hops * HOP_MS;
  const p = a.path.map((c) => point(c, turn));
  const frame = () => {
    if (anim !== a) return;
    const e = performance.now() - a.t0;
    const layer = svg.querySelector('.tq-anim');
    if (e >= total || !layer) { if (layer) layer.remove(); if (anim === a) anim = null; return; }
    const h = Math.floor(e / HOP_MS), f = (e - h * HOP_MS) / HOP_MS;
    const [x0, y0] = p[h], [x1, y1] = p[h + 1];
    const fly = layer.querySelector('.tq-flyer');
    fly.setAttribute('cx', x0 + (x1 - x0) * f);
    fly.setAttribute('cy', y0 + (y1 - y0) * f);
    // A hop lifts the piece a little at its middle.
    fly.setAttribute('r', R * (1 + 0.3 * Math.sin(Math.PI * f)));
    requestAnimationFrame(frame);
  };
  frame();
  // Frames may be held back (a hidden tab): the cover goes in any case.
  clearTimeout(a.timer);
  a.timer = setTimeout(() => { if (anim === a) { anim = null; const l = svg.querySelector('.tq-anim'); if (l) l.remove(); } }, total + 100);
}

/** No draw offers or move-limit claims in Chinese checkers, and no PGN export (the server answers 404). */
export function extras() { return { offer: false, claim: false, pgn: false }; }

/** A click on `cell`: the move from the selected piece to it, or a new selection. */
export function click(legal, selected, name) {
  if (selected) {
    const m = moveTo(legal, selected, name);
    if (m) return { move: m };
    if (name === selected) return { select: null };
  }
  return { select: legal.some((x) => pathOf(x)[0] === name) ? name : null };
}

/** Every cell the selected piece can reach. */
export function targets(legal, selected) {
  return new Set(selected ? legal.filter((x) => pathOf(x)[0] === selected).map((x) => { const p = pathOf(x); return p[p.length - 1]; }) : []);
}

/** The last move's start and end. */
export function last(rec) { const p = pathOf(rec && rec.iccs); return p.length ? [p[0], p[p.length - 1]] : []; }

/**
 * A typed move: a path of cells (`4.2-5.6`), or a jump chain given by its ends.
 * @param {string} raw
 * @param {string[]} legal
 */
export function typed(raw, legal) {
  if (!/^\d+\.\d+(-\d+\.\d+)+$/.test(raw)) return null;
  const parts = raw.split('-');
  const ends = legal.filter((m) => { const p = m.split('-'); return p.length > 1 && p[0] === parts[0] && p[p.length - 1] === parts[parts.length - 1]; });
  return ends.length ? { moves: [ends[0]] } : { illegal: true };
}

export const typedExample = '4.2-5.6';

/**
 * The analysis board (`#/analysis/tiaoqi…`, tiaoqi-study.js): its own view
 * of the star for each seating, the move tree and the game's AI as the
 * engine; the game page's Analyse link opens it at the ply shown.
 */
export const study = { ...tiaoqiStudy('tiaoqi'), forVariant: tiaoqiStudy };
