// @ts-check
// Four-army Junqi's board drawn (S3-S6): the cross of four blocks and the
// nine-post centre, turned so that the viewer's army is at the bottom
// (spectators: South); each block tinted in its army's colour (South and
// North warm, East and West cool: allies share a family), roads thin,
// railways as track, the four arcs as curves; camps round, headquarters
// arched; coordinates beside the cross; each army's name, player and clock
// in the corner beside its block. Pieces by their Chinese names in their
// army's colour (one character on a narrow board), a piece of unseen rank a
// disc of its army's colour; the path of each army's latest move, older
// ones fainter.
import { t } from '../i18n.js';
import { ARMIES, CAMPS, HQ, LINKS, POSTS, SIZE, STEP, armyOfPost, axisLabels, cornerOf, point } from './siguo-geo.js';

const NS = 'http://www.w3.org/2000/svg';

/** Each army's colour: South and North reds, East and West blues (S1 teams). @type {Record<string, string>} */
export const COLOUR = { s: '#b3261e', n: '#c2610c', e: '#1f4fa8', w: '#0f7f8c' };
/** Light tints for a known piece's face and the block. @type {Record<string, string>} */
export const LIGHT = { s: '#fbe1dc', n: '#fde8cf', e: '#dce7fb', w: '#d3f0ee' };
/** Piece names (Q13 letters). @type {Record<string, string>} */
export const NAMES = { S: '司令', J: '军长', D: '师长', L: '旅长', T: '团长', Y: '营长', C: '连长', P: '排长', G: '工兵', M: '地雷', Z: '炸弹', F: '军旗' };
/** One character each, for a narrow board. @type {Record<string, string>} */
const SHORT = { S: '司', J: '军', D: '师', L: '旅', T: '团', Y: '营', C: '连', P: '排', G: '兵', M: '雷', Z: '炸', F: '旗' };

/** @param {string} name @param {Record<string, any>} [attrs] @param {Element} [parent] @returns {any} */
function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

const f1 = (n) => n.toFixed(1);

/**
 * The path of an arc link: a curve through the corner beside the two posts
 * that lies away from the centre.
 * @param {string} a @param {string} b @param {number} turn
 */
function arcPath(a, b, turn) {
  const [x1, y1] = point(a, turn), [x2, y2] = point(b, turn);
  const c = SIZE / 2;
  const cands = [[x1, y2], [x2, y1]];
  const [cx, cy] = cands.sort((p, q) => Math.hypot(q[0] - c, q[1] - c) - Math.hypot(p[0] - c, p[1] - c))[0];
  return `M${f1(x1)} ${f1(y1)} Q${f1(cx)} ${f1(cy)} ${f1(x2)} ${f1(y2)}`;
}

/**
 * @typedef {object} BoardView
 * @property {number} turn quarter turns (0: South at the bottom)
 * @property {Map<string, { army: string, piece: string }>} pieces what stands where
 * @property {Set<string>} out the armies that are out
 * @property {string | null} mine the viewer's army
 * @property {string | null} toMove the army to move (null: none, or all in the set-up phase)
 * @property {string | null} selected
 * @property {Set<string>} targets
 * @property {{ army: string, path: string[], age: number, newest: boolean }[]} paths recent moves, age 0 the newest
 * @property {{ army: string, seat: number, name: string, ai: number | null, state: '' | 'out' | 'ready' | 'setting', clock: boolean }[]} corners
 *   each army's corner: its player (an AI by its level), its state in the set-up phase or out, whether its clock shows
 * @property {(post: string) => void} onClick
 */

/**
 * Draws the board into `svg`.
 * @param {SVGSVGElement & Record<string, any>} svg @param {BoardView} v
 */
export function drawBoard(svg, v) {
  const { turn } = v;
  svg.innerHTML = '';
  svg.classList.add('siguo');
  svg.setAttribute('viewBox', `0 0 ${SIZE} ${SIZE}`);
  svg.style.maxHeight = '';
  el('rect', { x: 0, y: 0, width: SIZE, height: SIZE, fill: '#efe2c4', rx: 10 }, svg);
  // Each block tinted in its army's colour (grey once it is out), the centre plain.
  for (const a of ARMIES) {
    const pts = POSTS.filter((p) => armyOfPost(p) === a).map((p) => point(p, turn));
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const pad = STEP * 0.48;
    el('rect', { x: Math.min(...xs) - pad, y: Math.min(...ys) - pad, width: Math.max(...xs) - Math.min(...xs) + 2 * pad, height: Math.max(...ys) - Math.min(...ys) + 2 * pad, rx: 8, fill: v.out.has(a) ? '#d6d2ca' : LIGHT[a], stroke: v.out.has(a) ? '#aaa' : COLOUR[a], 'stroke-opacity': 0.5, 'stroke-width': a === v.mine ? 2.5 : 1, 'data-block': a }, svg);
  }
  {
    const c = point('i9', turn), r = STEP * 2.45;
    el('rect', { x: c[0] - r, y: c[1] - r, width: 2 * r, height: 2 * r, rx: 8, fill: '#f6eedb', stroke: '#b9a57a', 'stroke-width': 1, 'data-centre': '1' }, svg);
  }
  // Roads, then the railways over them as track; the arcs as curves.
  const roads = el('g', { stroke: '#8a7a5a', 'stroke-width': 1.4 }, svg);
  const track = el('g', { 'data-testid': 'railways', fill: 'none' }, svg);
  /** @type {string[]} */
  const rails = [];
  for (const [a, b, kind] of LINKS) {
    const [x1, y1] = point(a, turn), [x2, y2] = point(b, turn);
    if (kind === 'road') el('line', { x1, y1, x2, y2 }, roads);
    else rails.push(kind === 'arc' ? arcPath(a, b, turn) : `M${x1} ${y1} L${x2} ${y2}`);
  }
  const railD = rails.join(' ');
  el('path', { d: railD, stroke: '#3a3a3a', 'stroke-width': 5 }, track);
  el('path', { d: railD, stroke: '#f4ead5', 'stroke-width': 1.6, 'stroke-dasharray': '5 4' }, track);
  for (const [a, b, kind] of LINKS) if (kind === 'arc') el('path', { d: arcPath(a, b, turn), stroke: 'none', 'data-arc': `${a}-${b}` }, track);

  // Coordinates beside the cross: below each column's lowest post, left of each row's leftmost.
  const coords = el('g', { class: 'coords', 'font-size': 11, fill: '#6b5a3a', 'pointer-events': 'none', 'data-testid': 'coords' }, svg);
  const { cols, rows } = axisLabels(turn);
  for (const c of cols) el('text', { x: 30 + c.col * STEP, y: 30 + c.below * STEP + STEP * 0.62 + 4, 'text-anchor': 'middle', 'data-coord': `col-${c.text}` }, coords).textContent = c.text;
  for (const r of rows) el('text', { x: 30 + r.left * STEP - STEP * 0.58, y: 30 + r.row * STEP + 4, 'text-anchor': 'middle', 'data-coord': `row-${r.text}` }, coords).textContent = r.text;

  // Each army's corner: its name, its player, its clock.
  for (const c of v.corners) {
    const [gc, gr] = cornerOf(c.army, turn);
    const x = 30 + gc * STEP, y = 30 + gr * STEP;
    const out = v.out.has(c.army), turnNow = v.toMove === c.army;
    const g = el('g', { 'data-corner': c.army, opacity: out ? 0.5 : 1 }, svg);
    el('rect', { x: x - 88, y: y - 52, width: 176, height: 104, rx: 10, fill: turnNow ? '#fff7d6' : '#fffaf0', stroke: turnNow ? COLOUR[c.army] : '#cdbb92', 'stroke-width': turnNow ? 3 : 1 }, g);
    el('circle', { cx: x - 62, cy: y - 26, r: 15, fill: out ? '#999' : COLOUR[c.army] }, g);
    // Each key written out (tools/piece-font.py reads them to put their characters in the font).
    const initial = { s: t('sg_short_s'), e: t('sg_short_e'), n: t('sg_short_n'), w: t('sg_short_w') }[c.army] || '';
    const title = (turnNow ? '▶ ' : '') + ({ s: t('sg_army_s'), e: t('sg_army_e'), n: t('sg_army_n'), w: t('sg_army_w') }[c.army] || '');
    el('text', { x: x - 62, y: y - 20, 'text-anchor': 'middle', 'font-size': 16, 'font-weight': 'bold', fill: '#fff', class: 'piece-text' }, g).textContent = initial;
    const head = el('text', { x: x - 40, y: y - 20, 'font-size': 18, 'font-weight': 'bold', fill: out ? '#777' : COLOUR[c.army] }, g);
    head.textContent = title;
    const nm = c.ai != null ? t('ai_named', { n: c.ai }) : c.name.length > 14 ? c.name.slice(0, 13) + '…' : c.name;
    el('text', { x: x - 76, y: y + 8, 'font-size': 15, fill: '#333' }, g).textContent = nm;
    const word = { out: t('sg_out'), ready: t('sg_ready'), setting: t('sg_setting_up') }[c.state] || '';
    if (word) el('text', { x: x - 76, y: y + 37, 'font-size': 15, 'font-weight': 'bold', fill: out ? '#666' : '#3d7a3a', 'data-corner-state': c.army }, g).textContent = word;
    if (!out && c.clock) el('text', { x: x + 80, y: y + 38, 'text-anchor': 'end', 'font-size': 20, 'font-family': 'ui-monospace, monospace', fill: '#222', class: 'sg-clock', 'data-clock-seat': String(c.seat) }, g);
  }

  // Posts and pieces.
  const mark = v.selected;
  for (const p of POSTS) {
    const [x, y] = point(p, turn);
    const g = el('g', { 'data-post': p, style: 'cursor:pointer' }, svg);
    g.addEventListener('click', () => { if (!svg.__jqSkipClick) v.onClick(p); });
    // A transparent cell under each post takes taps between posts (a finger is bigger than a post).
    el('rect', { x: x - STEP / 2, y: y - STEP / 2, width: STEP, height: STEP, fill: 'transparent' }, g);
    const pc = v.pieces.get(p);
    if (CAMPS.has(p)) el('circle', { cx: x, cy: y, r: 13, fill: '#fbf5e6', stroke: '#3d7a3a', 'stroke-width': 2, 'data-camp': p }, g);
    else if (HQ.has(p)) el('path', { d: `M${x - 17} ${y + 12} v-13 a17 11 0 0 1 34 0 v13 z`, fill: '#f3d89a', stroke: '#8a4b12', 'stroke-width': 2, 'data-hq': p }, g);
    else el('rect', { x: x - 13, y: y - 8, width: 26, height: 16, rx: 2, fill: '#f7efd9', stroke: '#6b5a3a', 'stroke-width': 1 }, g);
    if (pc) {
      const sel = p === mark;
      if (pc.piece === 'X') {
        // A piece whose rank this viewer may not see: a blank disc of its army's colour.
        el('rect', { x: -17 + x, y: -13 + y, width: 34, height: 26, rx: 6, fill: COLOUR[pc.army], stroke: sel ? '#e2b42a' : '#0006', 'stroke-width': sel ? 3 : 1.5, 'data-piece': pc.army + pc.piece, 'data-army': pc.army }, g);
      } else {
        el('rect', { x: -17 + x, y: -13 + y, width: 34, height: 26, rx: 4, fill: LIGHT[pc.army], stroke: sel ? '#e2b42a' : COLOUR[pc.army], 'stroke-width': sel ? 3.5 : 2, 'data-piece': pc.army + pc.piece, 'data-army': pc.army }, g);
        const name = NAMES[pc.piece] || pc.piece;
        el('text', { x, y: y + 4.5, 'text-anchor': 'middle', 'font-size': 13, 'font-weight': 'bold', fill: COLOUR[pc.army], class: 'piece-text sg-long', 'pointer-events': 'none' }, g).textContent = name;
        el('text', { x, y: y + 7, 'text-anchor': 'middle', 'font-size': 20, 'font-weight': 'bold', fill: COLOUR[pc.army], class: 'piece-text sg-short', 'pointer-events': 'none' }, g).textContent = SHORT[pc.piece] || pc.piece;
      }
    }
    if (v.targets.has(p)) el('circle', { cx: x, cy: y, r: 7, fill: '#2a7ae2', opacity: 0.8, stroke: '#fff', 'stroke-width': 1.5, 'data-target': p }, g);
  }

  // The latest move of each army over the pieces, older ones fainter: a
  // line through the posts it passed, a dot where it started, a frame
  // where it ended.
  const paths = el('g', { 'pointer-events': 'none', fill: 'none', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }, svg);
  const maxAge = Math.max(1, ...v.paths.map((p) => p.age));
  for (const p of v.paths) {
    if (p.path.length < 2) continue;
    const op = p.newest ? 0.9 : 0.8 - (0.4 * p.age) / maxAge;
    const colour = COLOUR[p.army] || '#333';
    // The line stops at the frame round the piece that stands at its end, not over its name.
    const xy = p.path.map((q) => point(q, turn));
    const [lx, ly] = xy[xy.length - 1], [px, py] = xy[xy.length - 2];
    const d = Math.hypot(lx - px, ly - py) || 1, cut = Math.min(d / 2, Math.abs(lx - px) > Math.abs(ly - py) ? 20 : 16);
    xy[xy.length - 1] = [lx - ((lx - px) / d) * cut, ly - ((ly - py) / d) * cut];
    const pts = xy.map((q) => q.map(f1).join(',')).join(' ');
    el('polyline', { points: pts, stroke: '#fff', 'stroke-width': 7, 'stroke-opacity': op * 0.55 }, paths);
    el('polyline', { points: pts, stroke: colour, 'stroke-width': 3.5, 'stroke-opacity': op, 'stroke-dasharray': p.newest ? '' : '7 4', 'data-testid': p.newest ? 'last-path' : 'recent-path', 'data-army': p.army, 'data-path': p.path.join(' ') }, paths);
    const [sx, sy] = point(p.path[0], turn), [ex, ey] = point(p.path[p.path.length - 1], turn);
    el('circle', { cx: sx, cy: sy, r: 6, fill: colour, 'fill-opacity': op, stroke: '#fff', 'stroke-width': 1.5 }, paths);
    el('rect', { x: ex - 20, y: ey - 16, width: 40, height: 32, rx: 6, stroke: colour, 'stroke-width': 3, 'stroke-opacity': op }, paths);
  }
}
