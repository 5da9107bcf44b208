// @ts-check
// Junqi's page module: the 5 × 12 board of posts (stations, camps drawn
// round, headquarters), the railway lines drawn bold, the mountains between
// the halves; pieces by their Chinese names, an enemy piece whose rank the
// viewer may not see as a blank disc (the server sends `X`/`x`, Q9). Moves
// are post pairs (`c4c6`, `a12a11`); during the set-up phase (move number 0)
// the side panel says so, the page's buttons ask the server for a random or a
// planned legal set-up, and one's saved set-ups can be loaded and saved.
import { t } from '../i18n.js';
import { api, esc } from '../util.js';

/** A message with its `{name}` places filled. @param {string} key @param {Record<string, any>} vars */
const tf = (key, vars) => Object.entries(vars).reduce((s, [k, v]) => s.split(`{${k}}`).join(String(v)), t(key));

const NS = 'http://www.w3.org/2000/svg';
// LM: room on the left for the rank numbers (the file letters go in the bottom margin).
const GX = 64, GY = 44, M = 36, GAP = 36, LM = 14;
const NAMES = { S: '司令', J: '军长', D: '师长', L: '旅长', T: '团长', Y: '营长', C: '连长', P: '排长', G: '工兵', M: '地雷', Z: '炸弹', F: '军旗' };
const CAMPS = new Set(['b5', 'd5', 'c4', 'b3', 'd3', 'b8', 'd8', 'c9', 'b10', 'd10']);
const HQ = new Set(['b1', 'd1', 'b12', 'd12']);
const FILES = 'abcde';

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

/** The pieces of a position text: post name → letter. */
export function parse(fen) {
  const out = {};
  const ranks = (fen || '').split(' ')[0].split('/');
  ranks.forEach((row, k) => [...row].forEach((ch, f) => { if (ch !== '.') out[FILES[f] + (12 - k)] = ch; }));
  return out;
}

// The set-up editor, shared with four-army Junqi (siguo.js): the set-up being
// edited (Q13 text of one's half in one's own frame, back rank first), whose
// it is; a click on two of one's pieces swaps them. One editor is shown at a
// time: `spec` says which game's (where a character stands, the kind its
// saved set-ups are kept under).
/**
 * @typedef {object} EditorSpec
 * @property {string} kind the kind whose saved set-ups (GET/PUT /api/presets) are listed and saved
 * @property {(seat: number, i: number) => string} postOf the post of character `i` of a set-up text for `seat`
 */
export const STANDARD = 'CFMMDGMZLJS.P.TPZ.GYL.D.TYGCPC';
let draft = null;
let draftOf = null;
/** @type {number | null} the seat whose set-up is edited */
let draftSeat = null;

/** The post of character `i` of a set-up text for `seat` (0 red, 1 blue). */
function setupPost(seat, i) { const back = Math.floor(i / 5); return FILES[i % 5] + (seat === 0 ? 1 + back : 12 - back); }

/** @type {EditorSpec} */
const JUNQI_EDITOR = { kind: 'junqi', postOf: setupPost };
/** @type {EditorSpec} the editor shown last */
let spec = JUNQI_EDITOR;

/**
 * Every reason a set-up text breaks Q4 (empty: legal), naming the posts
 * where `postOf` puts them: the flag outside an own headquarters (b1 d1),
 * a mine before the own last two ranks, a bomb on the own front rank.
 * @param {string} text @param {number} seat @param {(seat: number, i: number) => string} [postOf]
 */
export function setupProblems(text, seat, postOf = setupPost) {
  const out = [];
  [...text].forEach((ch, i) => {
    const p = postOf(seat, i), back = Math.floor(i / 5);
    if (ch === 'F' && !(back === 0 && (i % 5 === 1 || i % 5 === 3))) out.push(`flag ${p}`);
    if (ch === 'M' && back > 1) out.push(`mine ${p}`);
    if (ch === 'Z' && back === 5) out.push(`bomb ${p}`);
  });
  return out;
}

/** Whether `state` is in the set-up phase with a set-up still to send (move number 0, `random` legal). */
export const inSetup = (state) => (state.fen || '').endsWith(' 0') && state.status === 'playing' && (state.legal || []).includes('random');

/**
 * The draft set-up of the viewer as [post, piece letter] pairs (a fresh
 * standard one for a new game or seat); `sp` becomes the editor shown.
 * @param {Record<string, any>} state @param {EditorSpec} sp
 * @returns {[string, string][]}
 */
export function editorDraft(state, sp) {
  spec = sp;
  const key = `${sp.kind}:${state.id}:${state.seat}`;
  if (draft == null || draftOf !== key) { draft = STANDARD.split(''); draftOf = key; }
  draftSeat = state.seat;
  /** @type {[string, string][]} */
  const out = [];
  draft.forEach((ch, i) => { if (ch !== '.') out.push([sp.postOf(state.seat, i), ch]); });
  return out;
}

/**
 * A click on `post` in the set-up phase: a first piece is selected, a second
 * is swapped with it.
 * @param {string | null} selected @param {string} post
 * @returns {{ select: string | null }}
 */
export function editorClick(selected, post) {
  const seat = draftSeat;
  if (!draft || seat == null) return { select: null };
  const i = draft.findIndex((_, k) => spec.postOf(seat, k) === post);
  if (i < 0 || draft[i] === '.') return { select: null };
  if (!selected || selected === post) return { select: selected === post ? null : post };
  const j = draft.findIndex((_, k) => spec.postOf(seat, k) === selected);
  if (j >= 0) [draft[i], draft[j]] = [draft[j], draft[i]];
  return { select: null };
}

/**
 * The set-up phase's own buttons: send the edited set-up once it is legal,
 * or ask the server for a planned one.
 * @param {Record<string, any>} state @param {(key: string) => string} t
 */
export function editorActions(state, t) {
  if (!inSetup(state) || draft == null) return [];
  const text = draft.join('');
  const why = setupProblems(text, state.seat, spec.postOf);
  return [
    { label: t('send_setup'), move: text, testid: 'send-setup', disabled: why.length > 0, why: why.join(', ') },
    // The server places an army with a plan (flag behind mines, …).
    { label: t('jq_planned'), move: 'planned', testid: 'planned-setup' },
  ];
}

const split = (m) => { const r = /^([a-e]\d+)([a-e]\d+)$/.exec(m || ''); return r ? [r[1], r[2]] : null; };

function xy(post, flipped) {
  const f = FILES.indexOf(post[0]), r = Number(post.slice(1));
  const col = flipped ? 4 - f : f, row = flipped ? r - 1 : 12 - r;
  return [LM + M + col * GX, M + row * GY + (row >= 6 ? GAP : 0)];
}

/** The post under a pointer event, if any. */
function postAt(e) {
  const hit = document.elementFromPoint(e.clientX, e.clientY);
  const g = hit && hit.closest && hit.closest('[data-post]');
  return g ? g.getAttribute('data-post') : null;
}

/**
 * Dragging as well as clicking: a piece dragged from one post and dropped on
 * another is the two clicks (a move, or a swap in the set-up editor). Bound
 * once per board; the latest draw's click handler is used.
 */
export function bindDrag(svg) {
  if (svg.__jqDrag) return;
  svg.__jqDrag = true;
  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    const from = postAt(e);
    if (from) drag = { from, id: e.pointerId, x: e.clientX, y: e.clientY, moving: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.moving && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) >= 6) {
      drag.moving = true;
      svg.style.cursor = 'grabbing';
    }
    if (drag.moving) e.preventDefault();
  });
  const end = (e, drop) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    svg.style.cursor = '';
    if (!d.moving || !drop) return;
    const to = postAt(e);
    if (!to || to === d.from || !svg.__jqClick) return;
    // The click the browser may send after this pointerup is not a third click.
    svg.__jqSkipClick = true;
    setTimeout(() => { svg.__jqSkipClick = false; }, 0);
    svg.__jqClick(d.from);
    svg.__jqClick(to);
  };
  svg.addEventListener('pointerup', (e) => end(e, true));
  svg.addEventListener('pointercancel', (e) => end(e, false));
}

/** Draws the position (the board as `flipped` puts blue or red at the bottom). */
export function draw(svg, { state, flipped, selected, targets, last, onClick }) {
  svg.__jqClick = onClick;
  bindDrag(svg);
  svg.innerHTML = '';
  // The set-up phase lays the page out for it (on a phone: the instructions
  // above the board, the send button kept in sight; see style.css).
  const game = svg.closest && svg.closest('.game');
  if (game) game.classList.toggle('jq-setup', inSetup(state) && state.seat != null);
  // Twelve ranks are tall: the board keeps to the screen's height.
  svg.style.maxHeight = '78vh';
  const W = LM + 2 * M + 4 * GX, H = 2 * M + 11 * GY + GAP;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  el('rect', { x: 0, y: 0, width: W, height: H, fill: '#e9d8b4', rx: 8 }, svg);
  const all = [];
  for (let r = 1; r <= 12; r++) for (const f of FILES) all.push(f + r);
  // Railways drawn as track (dark with light sleepers' gaps), roads thin.
  const rails = [];
  const line = (a, b, rail) => {
    const [x1, y1] = xy(a, flipped), [x2, y2] = xy(b, flipped);
    if (rail) rails.push([x1, y1, x2, y2]);
    else el('line', { x1, y1, x2, y2, stroke: '#8a7a5a', 'stroke-width': 1.5 }, svg);
  };
  // Roads, then railways (Q2) on top.
  for (const p of all) {
    const f = FILES.indexOf(p[0]), r = Number(p.slice(1));
    if (f < 4) line(p, FILES[f + 1] + r, [2, 6, 7, 11].includes(r));
    if (r < 12 && !(r === 6 && (f === 1 || f === 3))) line(p, p[0] + (r + 1), (f === 0 || f === 4) ? r >= 2 && r < 11 : f === 2 && r === 6);
    if (CAMPS.has(p)) for (const [df, dr] of [[-1, -1], [1, -1], [-1, 1], [1, 1]]) {
      const q = FILES[f + df] && r + dr >= 1 && r + dr <= 12 ? FILES[f + df] + (r + dr) : null;
      if (q && (df > 0 || !CAMPS.has(q))) line(p, q, false);
    }
  }
  const track = el('g', { 'data-testid': 'railways' }, svg);
  for (const [x1, y1, x2, y2] of rails) el('line', { x1, y1, x2, y2, stroke: '#3a3a3a', 'stroke-width': 5 }, track);
  for (const [x1, y1, x2, y2] of rails) el('line', { x1, y1, x2, y2, stroke: '#f4ead5', 'stroke-width': 1.6, 'stroke-dasharray': '6 5' }, track);
  // The mountains (山界) between the halves, where files b and d do not cross.
  for (const f of ['b', 'd']) {
    const [x, y1] = xy(f + 6, flipped), [, y2] = xy(f + 7, flipped);
    const ym = (y1 + y2) / 2;
    el('path', { d: `M${x - 16} ${ym + 7} l8 -12 l5 6 l5 -8 l9 14 z`, fill: '#9c8a66', opacity: 0.7 }, svg);
  }
  // Coordinates (Q12): file letters below, rank numbers on the left, as the viewer sees the board.
  const coords = el('g', { class: 'coords', 'font-size': 12, fill: '#6b5a3a', 'pointer-events': 'none', 'data-testid': 'coords' }, svg);
  for (const f of FILES) {
    const [x] = xy(f + 1, flipped);
    el('text', { x, y: H - 6, 'text-anchor': 'middle', 'data-coord': `file-${f}` }, coords).textContent = f;
  }
  for (let r = 1; r <= 12; r++) {
    const [, y] = xy('a' + r, flipped);
    el('text', { x: 3, y: y + 4, 'text-anchor': 'start', 'data-coord': `rank-${r}` }, coords).textContent = String(r);
  }
  const pieces = parse(state.fen);
  if (inSetup(state) && state.seat != null) {
    for (const [p, ch] of editorDraft(state, JUNQI_EDITOR)) pieces[p] = state.seat === 0 ? ch : ch.toLowerCase();
  }
  const lastSet = new Set(last || []);
  for (const p of all) {
    const [x, y] = xy(p, flipped);
    const g = el('g', { 'data-post': p, style: 'cursor:pointer' }, svg);
    g.addEventListener('click', () => { if (!svg.__jqSkipClick) onClick(p); });
    const ch = pieces[p];
    if (CAMPS.has(p)) {
      // A camp (行营): a round post, safe from attack (Q7).
      el('circle', { cx: x, cy: y, r: 19, fill: '#fbf5e6', stroke: '#3d7a3a', 'stroke-width': 2, 'data-camp': p }, g);
      if (!ch) el('text', { x, y: y + 4, 'text-anchor': 'middle', 'font-size': 11, fill: '#3d7a3a', 'pointer-events': 'none' }, g).textContent = t('jq_camp_short');
    } else if (HQ.has(p)) {
      // A headquarters (大本营): bigger than a post, arched, its name written in it.
      el('path', { d: `M${x - 27} ${y + 18} v-22 a27 16 0 0 1 54 0 v22 z`, fill: '#f3d89a', stroke: '#8a4b12', 'stroke-width': 2.5, 'data-hq': p }, g);
      if (!ch) el('text', { x, y: y + 6, 'text-anchor': 'middle', 'font-size': 11, fill: '#8a4b12', 'pointer-events': 'none' }, g).textContent = t('jq_hq_short');
    } else el('rect', { x: x - 22, y: y - 13, width: 44, height: 26, rx: 3, fill: '#f7efd9', stroke: '#6b5a3a', 'stroke-width': 1.2 }, g);
    if (lastSet.has(p)) el('rect', { x: x - 25, y: y - 16, width: 50, height: 32, rx: 5, fill: 'none', stroke: '#2a7ae2', 'stroke-width': 2 }, g);
    if (targets && targets.has(p)) el('circle', { cx: x, cy: y, r: 7, fill: '#2a7ae2', opacity: 0.7, 'data-target': p }, g);
    if (!ch) continue;
    if (ch === '?') {
      // The flip game: face down, colour unknown to everyone.
      el('rect', { x: x - 24, y: y - 15, width: 48, height: 30, rx: 4, fill: '#c9b58c', stroke: '#6b5a3a', 'stroke-width': 2, 'data-piece': ch }, g);
      continue;
    }
    const red = ch === ch.toUpperCase();
    el('rect', { x: x - 24, y: y - 15, width: 48, height: 30, rx: 4, fill: red ? '#fbe3df' : '#dde8fb', stroke: p === selected ? '#e2b42a' : (red ? '#b5221b' : '#1f4fa8'), 'stroke-width': p === selected ? 3 : 2, 'data-piece': ch }, g);
    const name = NAMES[ch.toUpperCase()];
    if (name) { const tx = el('text', { x, y: y + 6, 'text-anchor': 'middle', 'font-size': 16, fill: red ? '#b5221b' : '#1f4fa8', 'font-weight': 'bold' }, g); tx.textContent = name; }
  }
}

/** A click on `post`: the move from the selected piece to it, or a new selection. */
export function click(legal, selected, post) {
  // The set-up phase: two clicks on one's own pieces swap them.
  if (legal.includes('random') && draft && draftSeat != null) return editorClick(selected, post);
  // The flip game: a click on a face-down piece turns it over.
  if (!selected && legal.includes(post + post)) return { move: post + post };
  if (selected && legal.includes(selected + post)) return { move: selected + post };
  if (post === selected) return { select: null };
  return { select: legal.some((m) => (split(m) || [])[0] === post) ? post : null };
}

/** Every post the selected piece can reach. */
export function targets(legal, selected) {
  return new Set(selected ? legal.map(split).filter((s) => s && s[0] === selected).map((s) => s[1]) : []);
}

/** The last move's two posts. */
export function last(rec) { return (rec && split(rec.iccs)) || []; }

// Saved set-ups (GET/PUT /api/presets): fetched once per page, kept here;
// the name being typed and the timeout box survive the panel's redraws.
let presets = null;
let presetsKind = '';
let presetsLoading = false;
let presetName = '';
let presetOnTimeout = false;
let presetNote = '';
let rerender = null;

function loadPresets(force) {
  if ((presets && presetsKind === spec.kind && !force) || presetsLoading) return;
  presetsLoading = true;
  const kind = spec.kind;
  api('GET', '/api/presets')
    .then((d) => { presets = ((d && d.presets) || []).filter((p) => p.kind === kind); presetsKind = kind; })
    .catch(() => { presets = []; })
    .finally(() => { presetsLoading = false; if (rerender) rerender(); });
}

/** The saved set-ups bar of the set-up phase: load one, or save the draft by a name (the editor shown last's kind). @param {Record<string, any>} state @param {(() => void) | null} [redraw] */
export function presetBar(state, redraw) {
  if (redraw) rerender = redraw;
  if (state.seat == null || !inSetup(state)) return '';
  loadPresets(false);
  const list = presets || [];
  const opts = list.map((p) => `<option value="${esc(p.name)}">${esc(p.name)}${p.on_timeout ? ' ⏱' : ''}</option>`).join('');
  return `<div class="jq-presets" data-testid="jq-presets">`
    + `<select data-testid="jq-preset-list"${list.length ? '' : ' disabled'}>${opts}</select> `
    + `<button data-jq="load" data-testid="jq-load"${list.length ? '' : ' disabled'}>${t('jq_load')}</button> `
    + `<input data-jq-name data-testid="jq-preset-name" maxlength="32" size="10" placeholder="${esc(t('jq_preset_name'))}" value="${esc(presetName)}"> `
    + `<label class="small"><input type="checkbox" data-jq-timeout data-testid="jq-on-timeout"${presetOnTimeout ? ' checked' : ''}> ${t('jq_on_timeout')}</label> `
    + `<button data-jq="save" data-testid="jq-save">${t('jq_save')}</button> `
    + `<span class="muted small" data-testid="jq-preset-note">${esc(presetNote)}</span></div>`;
}

if (typeof document !== 'undefined') {
  document.addEventListener('input', (ev) => {
    const e = { target: /** @type {HTMLInputElement} */ (ev.target) };
    if (e.target.matches && e.target.matches('[data-jq-name]')) presetName = e.target.value;
    if (e.target.matches && e.target.matches('[data-jq-timeout]')) presetOnTimeout = e.target.checked;
  });
  document.addEventListener('change', (ev) => {
    const e = { target: /** @type {HTMLInputElement} */ (ev.target) };
    if (e.target.matches && e.target.matches('[data-jq-timeout]')) presetOnTimeout = e.target.checked;
  });
  document.addEventListener('click', async (e) => {
    const el = /** @type {Element} */ (e.target);
    const b = /** @type {HTMLElement | null} */ (el.closest && el.closest('[data-jq]'));
    if (!b) return;
    if (b.dataset.jq === 'load') {
      const list = /** @type {HTMLSelectElement | null} */ (document.querySelector('[data-testid="jq-preset-list"]'));
      const name = list && list.value;
      const p = (presets || []).find((x) => x.name === name);
      if (p && draft) { draft = p.text.split(''); presetNote = `${t('jq_loaded')}${t('colon')}${p.name}`; }
    } else if (b.dataset.jq === 'save') {
      const name = presetName.trim();
      if (!name || !draft) { presetNote = t('jq_preset_name'); if (rerender) rerender(); return; }
      try {
        await api('PUT', `/api/presets/${encodeURIComponent(spec.kind)}/${encodeURIComponent(name)}`, { text: draft.join(''), on_timeout: presetOnTimeout });
        presetNote = `${t('jq_saved')}${t('colon')}${name}`;
        loadPresets(true);
      } catch (err) { presetNote = err.message; }
    }
    if (rerender) rerender();
  });
}

/** What the board's marks mean: railways, camps, headquarters, and any `extra` items (HTML) a board adds. */
export function legend(extra = '') {
  return `<div class="jq-legend muted small" data-testid="jq-legend">`
    + `<span><svg width="22" height="8" aria-hidden="true"><line x1="0" y1="4" x2="22" y2="4" stroke="#3a3a3a" stroke-width="5"/><line x1="0" y1="4" x2="22" y2="4" stroke="#f4ead5" stroke-width="1.6" stroke-dasharray="6 5"/></svg> ${t('jq_legend_rail')}</span> `
    + `<span><svg width="14" height="14" aria-hidden="true"><circle cx="7" cy="7" r="6" fill="#fbf5e6" stroke="#3d7a3a" stroke-width="2"/></svg> ${t('jq_legend_camp')}</span> `
    + `<span><svg width="18" height="14" aria-hidden="true"><path d="M2 13 v-7 a7 5 0 0 1 14 0 v7 z" fill="#f3d89a" stroke="#8a4b12" stroke-width="1.5"/></svg> ${t('jq_legend_hq')}</span>${extra}</div>`;
}

/** The side panel: the set-up phase (with the saved set-ups), or the last clash; the board's legend. */
export function info(state, _t, ctx) {
  if (ctx && ctx.rerender) rerender = ctx.rerender;
  if ((state.fen || '').endsWith(' 0') && state.status === 'playing') return `<span data-testid="setup-phase">${t('setup_phase')}</span>${presetBar(state)}`;
  const rec = state.records || [];
  const lastRec = rec[rec.length - 1];
  const clash = lastRec && lastRec.clash ? `<div data-testid="clash">${clashText(lastRec)}</div>` : '';
  const revealed = state.status === 'finished' && state.game !== 'junqi-open' ? `<div class="muted small" data-testid="jq-revealed">${t('jq_revealed')}</div>` : '';
  return clash + revealed + legend();
}

/** A clash in words: "e6→e5: the attacker lost the clash". */
function clashText(rec) {
  const s = split(rec.iccs);
  const mv = s ? `${s[0]}→${s[1]}` : rec.iccs;
  return `${mv}${t('colon')}${t(CLASH[rec.clash] || rec.clash)}`;
}

/** The winning seat of a two-seat game (null: a draw, an aborted game, or not known). */
function winner(state) {
  const pl = state.placings;
  if (Array.isArray(pl) && pl.length === 2 && pl[0].length === 1) return pl[0][0];
  const i = ['red', 'blue'].indexOf(state.result);
  return i < 0 ? null : i;
}

/** A seat as the result names it: its colour and its player, "Red (alice)". */
function who(state, seat, ctx) {
  const side = sideOf(state, seat);
  const name = ctx && ctx.seatLabel ? ctx.seatLabel(state.seats[seat]) : '';
  return tf('jq_who', { side: side ? t(side) : tf('jq_seat_n', { n: seat + 1 }), name });
}

/** Who won, by the colour the winner played (in the flip game not always seat 0's red). */
export function result(state, _t, ctx) {
  const w = winner(state);
  if (w == null) return t('result_draw');
  const side = sideOf(state, w);
  return side ? tf('jq_side_wins', { side: t(side) }) : tf('seat_wins', { name: ctx && ctx.seatLabel ? ctx.seatLabel(state.seats[w]) : String(w + 1) });
}

/** What ended the game, in words, naming colours and players. */
export function explain(state, _t, ctx) {
  const w = winner(state);
  const l = w == null ? null : 1 - w;
  switch (state.reason) {
    case 'resignation': return l == null ? null : tf('jq_x_resigned', { who: who(state, l, ctx) });
    case 'timeout': return l == null ? null : tf('jq_x_timeout', { who: who(state, l, ctx) });
    case 'flag-captured': return w == null ? null : tf('jq_x_flag', { who: who(state, w, ctx) });
    case 'stalemate': return l == null ? null : tf('jq_x_no_moves', { who: who(state, l, ctx) });
    case 'move-limit': return t('jq_quiet_draw');
    default: return null;
  }
}

/** Moves are post pairs: no other notation to choose. */
export const notations = false;
/** No draw claims or PGN in Junqi. */
export function extras() { return { claim: false, pgn: false }; }

/** Seat 0 plays red, seat 1 blue; in the flip game seat 0 plays the colour it turned first. */
export function sideOf(state, seat) {
  if (state.game === 'junqi-flip') {
    const first = (state.records || [])[0];
    if (!first || !first.flip) return null;
    const red0 = first.flip === first.flip.toUpperCase();
    return (seat === 0) === red0 ? 'red' : 'blue';
  }
  return seat === 0 ? 'red' : 'blue';
}

/** The flip button turns the board. */
export const flipLabel = 'turn_board';

const CLASH = { 'attacker-wins': 'jq_attacker_wins', 'defender-wins': 'jq_defender_wins', 'both-removed': 'jq_both_removed', 'flag-taken': 'jq_flag_taken' };

/** A record as the move list shows it: a set-up as one word, a clash by its outcome. */
export function moveText(rec, t) {
  if (rec.iccs === 'setup' || (rec.iccs || '').length === 30) return t('jq_setup');
  if (rec.flip) return `${rec.iccs.slice(0, rec.iccs.length / 2)} ${t('flip_move')} ${NAMES[rec.flip.toUpperCase()] || ''}`;
  return rec.clash ? `${rec.iccs} ${t(CLASH[rec.clash] || rec.clash)}` : rec.iccs;
}

/** The set-up phase's own buttons: send the edited set-up, once it is legal; a planned one. */
export const actions = editorActions;

/** The typed-move box's example: posts are square pairs. */
export const typedExample = 'c4c6';
