// @ts-check
// Tiaoqi (跳棋) on the analysis board (`#/analysis/tiaoqi…`), for 2, 3, 4 or
// 6 players: the rules of shared/rules/tiaoqi.md in the page (steps, jump
// chains by a flood fill, closed camps T5, the pass T6, a filled target T8:
// with more than two in play the finished seat leaves the turn order and the
// rest play on for places, T10), a move tree shared with the other games'
// boards (analysis-board.js), and the game's own AI as the engine (the
// WebAssembly build's Tiaoqi requests, engine-worker.js): its best moves
// drawn as paths on the star, best first, each with its score; a click on
// one plays it. T7's repetition count needs a game's history, which a
// position text does not carry: the board, like the server reading a text,
// starts with none.
//
// The address holds the position: `#/analysis/VARIANT/TEXT/M1,M2…/PLY`
// (TEXT the T13 position, URL-encoded; moves `start-end`, the line through
// the move shown and its main continuation; PLY the move shown).
import { t } from '../i18n.js';
import { esc } from '../util.js';
import { studyVariants } from '../kinds.js';
import { newTree, addMove, pathTo, promote, deleteMove, playAddressLine } from '../analysis-board.js';
import { SEATINGS, parse, startFen, finished, distances, replayOf } from './tiaoqi-geo.js';
import { reach, legalMoves, moveText, play, normal, seatingOf, why, piecesOf } from './tiaoqi-rules.js';
import { COLOUR, DARK } from './tiaoqi-colours.js';

/** The study variants of Tiaoqi and their seatings. */
const PLAYERS = /** @type {Record<string, number>} */ ({ tiaoqi: 2, 'tiaoqi-3': 3, 'tiaoqi-4': 4, 'tiaoqi-6': 6 });
export const VARIANTS = Object.keys(PLAYERS);
const VARIANT_OF = /** @type {Record<number, string>} */ ({ 2: 'tiaoqi', 3: 'tiaoqi-3', 4: 'tiaoqi-4', 6: 'tiaoqi-6' });
/** What one engine request may spend (a few seconds in a browser at most). */
const ENGINE_NODES = 4000000;
const ENGINE_MAX_DEPTH = 16;

/** The move tree's hook of one seating (kinds.js Study). @param {string} variant */
export function tiaoqiStudy(variant) {
  const players = PLAYERS[variant] || 2;
  const start = startFen(SEATINGS[/** @type {2|3|4|6} */ (players)], 10);
  return {
    variants: VARIANTS,
    start,
    legal: legalMoves,
    play,
    normal,
    problem: (/** @type {string} */ fen) => { const w = why(fen, players); return w ? w.key : null; },
    check: () => null,
    /** The round (each seat in play once) and whether the first seat in play moves. @param {string} fen */
    turn: (fen) => { const p = parse(fen); return { number: 1, first: p.toMove === p.inPlay[0] }; },
    name: (/** @type {string} */ fen, /** @type {string} */ mv) => moveText(fen, mv),
    /** The tree's main line as move texts, one a line (Tiaoqi has no PGN). */
    pgn: (/** @type {{ mv: string, children: number[] }[]} */ nodes, /** @type {string} */ fen) => {
      const out = [`[Variant "${variant}"]`, `[Position "${fen}"]`, ''];
      let n = 0, pos = fen;
      while (nodes[n].children.length) { n = nodes[n].children[0]; out.push(moveText(pos, nodes[n].mv)); pos = play(pos, nodes[n].mv); }
      return out.join('\n');
    },
    draw: () => {},
    view: (/** @type {HTMLElement} */ el, /** @type {string[]} */ args) => tiaoqiBoardView(el, variant, args),
    link: (/** @type {any} */ state, /** @type {number} */ ply) => gameLink(state, ply),
  };
}

/**
 * The analysis board's address for a game at `ply` (the game page's
 * 复盘 link): the moves played from the last position a timeout or a
 * resignation changed (a tree holds only moves) up to the next, the board
 * at `ply`.
 * @param {any} state @param {number} ply
 */
export function gameLink(state, ply) {
  const variant = VARIANTS.includes(state.game) ? state.game : VARIANT_OF[(state.seats || []).length] || 'tiaoqi';
  const recs = (state.records || []).map((/** @type {any} */ r) => String(r.iccs || ''));
  const { fens } = replayOf(state);
  const isMove = (/** @type {string} */ m) => m === 'pass' || m.includes('-');
  let from = Math.min(ply, recs.length);
  while (from > 0 && isMove(recs[from - 1])) from--;
  let to = from;
  while (to < recs.length && isMove(recs[to])) to++;
  const moves = recs.slice(from, to).map((m) => { if (m === 'pass') return m; const p = m.split('-'); return `${p[0]}-${p[p.length - 1]}`; });
  return `#/analysis/${variant}/${encodeURIComponent(normal(fens[from] || state.fen))}/${moves.join(',')}/${Math.min(ply, recs.length) - from}`;
}

// ------------------------------------------------------------ the view

/** The address of what the board shows. @param {string} variant @param {import('../analysis-board.js').Tree} tr */
export function hashOf(variant, tr) {
  const line = pathTo(tr, tr.cur);
  let n = tr.cur;
  while (tr.nodes[n].children.length && line.length < 2000) { n = tr.nodes[n].children[0]; line.push(n); }
  return `#/analysis/${variant}/${encodeURIComponent(tr.nodes[0].fen)}/${line.map((k) => tr.nodes[k].mv).join(',')}/${pathTo(tr, tr.cur).length}`;
}

/** A coloured dot for a seat. @param {string} l */
const dot = (l) => `<span class="tq-dot" style="background:${COLOUR[/** @type {keyof typeof COLOUR} */ (l)] || '#888'}"></span>`;
/** A seat's colour name. @param {string} l */
const colourName = (l) => t(`tq_colour_${l}`);
/** A reason `why` gives, in words. @param {{ key: string, params?: Record<string, string | number> }} w */
const whyText = (w) => t(w.key, w.params && w.params.letter ? { ...w.params, letter: colourName(String(w.params.letter)) } : w.params);

/**
 * A score as people read it: the AI's points over 100 (a row to go is
 * 100), for the side to move; a forced finish as `#N` (its own moves).
 * @param {any} l
 */
export function scoreText(l) {
  if (l.win != null) return `#${l.win > 0 ? '' : '-'}${Math.ceil(Math.abs(l.win) / 2)}`;
  const s = (l.score || 0) / 100;
  return (s > 0 ? '+' : '') + s.toFixed(1);
}

/**
 * The Tiaoqi analysis board in `el` for `variant`; `args` the address's
 * parts after `analysis`.
 * @param {HTMLElement} el @param {string} variant @param {string[]} args
 * @returns {() => void} cleanup
 */
export function tiaoqiBoardView(el, variant, args) {
  const players = PLAYERS[variant] || 2;
  const study = /** @type {import('../kinds.js').Study} */ (/** @type {unknown} */ (tiaoqiStudy(variant)));
  const ui = { selected: /** @type {string | null} */ (null), flipped: false, error: '' };
  let tr = newTree(study, study.start);
  const given = args[1] ? decodeURIComponent(args[1]) : '';
  if (given) {
    const w = why(given, players);
    if (w) ui.error = whyText(w);
    else {
      tr = newTree(study, given);
      playAddressLine(tr, args[2], ',', Number(args[3]));
    }
  }
  const variants = studyVariants();
  el.innerHTML = `<div class="study tq-study" data-testid="analysis-board" data-variant="${esc(variant)}">
    <div class="study-board"><svg id="study-svg" class="board tiaoqi" data-testid="board"></svg>
      <div class="buttons study-nav"><button data-nav="first" data-testid="nav-first" title="Home">«</button><button data-nav="prev" data-testid="nav-prev" title="←">◀</button><button data-nav="next" data-testid="nav-next" title="→">▶</button><button data-nav="last" data-testid="nav-last" title="End">»</button><button data-a="flip" data-testid="flip">${t('flip')}</button><button data-a="pass" data-testid="study-pass">${t('tq_pass')}</button></div></div>
    <div class="study-side card">
      <h2>${t('study_title')}</h2>
      ${variants.length > 1 ? `<div class="tools"><select id="study-variant" data-testid="study-variant" aria-label="${esc(t('study_variant'))}">${variants.map((v) => `<option value="${esc(v)}"${v === variant ? ' selected' : ''}>${esc(t(v))}</option>`).join('')}</select></div>` : ''}
      <div class="study-status" id="study-status" data-testid="study-status"></div>
      <div class="tq-dists small" id="tq-dists" data-testid="tq-distances"></div>
      <div class="study-engine" id="study-engine" data-testid="engine"><div class="engine-head"><button data-a="engine" data-testid="engine-toggle" aria-pressed="false">${t('engine_start')}</button>
        <label class="small">${t('engine_lines')} <select id="study-lines" data-testid="engine-lines"><option>1</option><option>2</option><option selected>3</option><option>4</option><option>5</option></select></label>
        <span class="muted small" id="engine-depth" data-testid="engine-depth"></span></div>
        <div class="muted small tq-engine-note">${t('tq_engine_note')}</div>
        <ol class="engine-lines" id="engine-lines" data-testid="engine-line-list"></ol></div>
      <div class="study-tree" id="study-tree" data-testid="move-tree"></div>
      <div class="buttons" id="study-node-tools"><button data-a="promote" data-testid="promote">${t('study_promote')}</button><button data-a="delete" data-testid="delete-move">${t('study_delete')}</button></div>
      <details class="study-load" data-testid="study-load"${tr.nodes.length > 1 ? '' : ' open'}><summary>${t('tq_study_load')}</summary>
        <p>${t('tq_study_start')} ${[2, 3, 4, 6].map((n) => `<button data-start="${n}" data-testid="tq-start-${n}">${t('tq_players', { n })}</button>`).join(' ')}</p>
        <p class="fen-row"><label>${t('tq_position_text')}<br><input id="study-fen" data-testid="fen-input" spellcheck="false" autocomplete="off"></label><button data-a="fen" data-testid="fen-load">${t('study_set_position')}</button></p>
        <p class="small muted">${t('tq_position_hint')}</p>
      </details>
      <div class="err" id="study-err" data-testid="study-error" role="alert"></div>
    </div></div>`;
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('study-svg')));
  /** @type {Promise<any> | null} */
  let board = null;
  const boardModule = () => (board = board || import('./tiaoqi.js'));

  // The engine (engine-worker.js): the position shown, deeper and deeper
  // until stopped, the budget spent or the depth cap reached.
  const engine = /** @type {{ on: boolean, fen: string, worker: Worker | null, last: any, t0: number, ms: number, done: boolean }} */ ({ on: false, fen: '', worker: null, last: null, t0: 0, ms: 0, done: false });
  const stopEngine = () => { if (engine.worker) engine.worker.terminate(); engine.worker = null; };
  function startEngine(/** @type {string} */ fen) {
    stopEngine();
    engine.fen = fen;
    engine.last = null;
    engine.done = false;
    engine.t0 = performance.now();
    if (!legalMoves(fen).length) { drawEngine(); return; }
    const w = new Worker('/static/engine-worker.js');
    engine.worker = w;
    w.onmessage = (e) => {
      if (engine.worker !== w) return;
      const r = e.data;
      if (r.error) { ui.error = r.error; stopEngine(); engine.on = false; drawEngine(); $('study-err').textContent = ui.error; return; }
      // The deepening ended by itself (budget, depth cap or a sure result).
      if (r.done) { engine.worker = null; engine.done = true; drawEngine(); return; }
      engine.last = r;
      engine.ms = performance.now() - engine.t0;
      drawEngine();
      drawBoard();
    };
    const lines = Number(/** @type {HTMLSelectElement} */ ($('study-lines')).value) || 1;
    w.postMessage({ live: true, variant, fen, lines, maxDepth: ENGINE_MAX_DEPTH, nodes: ENGINE_NODES });
    drawEngine();
  }
  /** The engine's lines for the position shown. */
  const linesNow = () => (engine.last && engine.fen === tr.nodes[tr.cur].fen && Array.isArray(engine.last.lines) ? engine.last.lines : []);
  function drawEngine() {
    const b = /** @type {HTMLButtonElement} */ ($('study-engine').querySelector('[data-a="engine"]'));
    b.textContent = t(engine.on ? 'engine_stop' : 'engine_start');
    b.setAttribute('aria-pressed', String(engine.on));
    const r = engine.last;
    $('engine-depth').textContent = r && r.lines ? t('tq_engine_depth', { d: r.depth, n: Number(r.nodes || 0).toLocaleString(), s: (engine.ms / 1000).toFixed(1) }) + (engine.done ? ` ${t('tq_engine_done')}` : '') : engine.on && engine.worker ? t('engine_thinking') : '';
    $('study-engine').classList.toggle('stopped', !engine.on);
    const fen = tr.nodes[tr.cur].fen;
    if (engine.on && !legalMoves(fen).length) { $('engine-lines').innerHTML = `<li class="muted">${t('engine_over')}</li>`; return; }
    const mover = parse(engine.fen).toMove;
    $('engine-lines').innerHTML = linesNow().map((/** @type {any} */ l, /** @type {number} */ i) => `<li data-line="${i}" data-move="${esc(l.move)}" data-testid="engine-line" title="${esc(t('engine_line_title'))}"><b>${esc(scoreText(l))}</b> ${dot(mover)}${esc(l.path || l.move)}</li>`).join('');
  }
  function playLine(/** @type {number} */ i) {
    const l = linesNow()[i];
    if (!l) return;
    const id = addMove(tr, tr.cur, String(l.move));
    if (id != null) go(id);
  }

  /** Draws the position shown with the game page's board, then the engine's paths over it. */
  async function drawBoard() {
    const mod = await boardModule();
    const node = tr.nodes[tr.cur];
    const fen = node.fen;
    const p = parse(fen);
    const legal = legalMoves(fen).map((m) => moveText(fen, m)).filter((m) => m !== 'pass');
    const parent = node.parent == null ? null : tr.nodes[node.parent];
    // The game page's board reads a game's state: this position as a game
    // of one move (the one that led here, drawn as its last move).
    const state = {
      id: `study:${fen}`,
      game: variant,
      seats: Array(players).fill(null),
      seat: null,
      fen,
      start_fen: parent ? parent.fen : fen,
      records: parent ? [{ iccs: moveText(parent.fen, node.mv) }] : [],
      legal,
      to_move: null,
    };
    const targets = mod.targets(legal, ui.selected);
    mod.draw(svg, { state, replayPly: state.records.length, userFlipped: ui.flipped, selected: ui.selected, targets, last: [], onClick });
    svg.dataset.toMove = p.toMove;
    arrows(fen);
  }

  /** The engine's best moves as paths on the board, best first and boldest, numbered at their ends; a click plays one. @param {string} fen */
  function arrows(fen) {
    const lines = linesNow();
    const old = svg.querySelector('.tq-best');
    if (old) old.remove();
    if (!lines.length) return;
    const NS = 'http://www.w3.org/2000/svg';
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'tq-best');
    g.setAttribute('data-testid', 'engine-arrows');
    // Only the numbers take clicks: the paths lie over holes one may want to click.
    g.setAttribute('pointer-events', 'none');
    const xy = (/** @type {string} */ name) => { const c = svg.querySelector(`[data-cell="${name}"]`); return c ? [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))] : null; };
    const colour = DARK[/** @type {keyof typeof DARK} */ (parse(fen).toMove)] || '#333';
    // Worst first, so the best is drawn on top.
    lines.map((/** @type {any} */ l, /** @type {number} */ i) => [l, i]).reverse().forEach(([/** @type {any} */ l, /** @type {number} */ i]) => {
      const pts = String(l.path || '').split('-').map(xy);
      if (pts.length < 2 || pts.some((x) => !x)) return;
      const pp = /** @type {number[][]} */ (pts);
      const a = document.createElementNS(NS, 'g');
      a.setAttribute('class', 'tq-arrow');
      a.setAttribute('data-line', String(i));
      a.setAttribute('data-testid', 'engine-arrow');
      a.setAttribute('data-move', String(l.move));
      const line = document.createElementNS(NS, 'polyline');
      line.setAttribute('points', pp.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '));
      line.setAttribute('fill', 'none');
      line.setAttribute('stroke', colour);
      line.setAttribute('stroke-width', String(i === 0 ? 5 : 3));
      line.setAttribute('stroke-opacity', String(i === 0 ? 0.8 : 0.45));
      line.setAttribute('stroke-linecap', 'round');
      line.setAttribute('stroke-linejoin', 'round');
      a.appendChild(line);
      // The head: a triangle at the end, along the last hop.
      const [x0, y0] = pp[pp.length - 2], [x1, y1] = pp[pp.length - 1];
      const d = Math.hypot(x1 - x0, y1 - y0) || 1, ux = (x1 - x0) / d, uy = (y1 - y0) / d;
      const bx = x1 - ux * 9, by = y1 - uy * 9;
      const head = document.createElementNS(NS, 'polygon');
      head.setAttribute('points', `${x1.toFixed(1)},${y1.toFixed(1)} ${(bx - uy * 6).toFixed(1)},${(by + ux * 6).toFixed(1)} ${(bx + uy * 6).toFixed(1)},${(by - ux * 6).toFixed(1)}`);
      head.setAttribute('fill', colour);
      head.setAttribute('fill-opacity', String(i === 0 ? 0.9 : 0.55));
      a.appendChild(head);
      // The number beside the middle of the last hop (moves ending on one
      // hole come from different sides, so their numbers stay apart).
      const tag = document.createElementNS(NS, 'text');
      const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
      tag.setAttribute('x', (mx + uy * 9).toFixed(1));
      tag.setAttribute('y', (my - ux * 9 + 3.5).toFixed(1));
      tag.setAttribute('text-anchor', 'middle');
      tag.setAttribute('font-size', '10');
      tag.setAttribute('font-weight', 'bold');
      tag.setAttribute('fill', colour);
      tag.setAttribute('stroke', '#fff');
      tag.setAttribute('stroke-width', '3');
      tag.setAttribute('paint-order', 'stroke');
      tag.setAttribute('pointer-events', 'all');
      tag.textContent = String(i + 1);
      a.appendChild(tag);
      g.appendChild(a);
    });
    svg.appendChild(g);
  }

  /** One move of the tree as a link, with its mover's colour. */
  const moveSpan = (/** @type {number} */ id) => {
    const n = tr.nodes[id], before = tr.nodes[/** @type {number} */ (n.parent)].fen;
    const mover = parse(before).toMove;
    return `<a href="#" class="tree-move${id === tr.cur ? ' cur' : ''}" data-node="${id}" data-testid="tree-move" data-move="${esc(n.mv)}" title="${esc(colourName(mover))}">${dot(mover)}${esc(moveText(before, n.mv))}</a>`;
  };
  /** The line after node `at`, side lines indented under the move they replace; moves numbered by ply. */
  const lineHtml = (/** @type {number} */ node, /** @type {number} */ ply) => {
    let html = '', p = node, k = ply;
    while (tr.nodes[p].children.length) {
      const kids = tr.nodes[p].children;
      html += `<span class="tq-ply"><span class="tree-num">${k + 1}.</span>${moveSpan(kids[0])}</span> `;
      if (kids.length > 1) html += `<div class="tree-vars">${kids.slice(1).map((c) => `<div class="tree-var" data-testid="variation"><span class="tq-ply"><span class="tree-num">${k + 1}.</span>${moveSpan(c)}</span> ${lineHtml(c, k + 1)}</div>`).join('')}</div>`;
      p = kids[0];
      k++;
    }
    return html;
  };

  function render() {
    const node = tr.nodes[tr.cur];
    const fen = node.fen;
    if (engine.on && engine.fen !== fen) startEngine(fen);
    else if (!engine.on && engine.fen !== fen && engine.last) { engine.last = null; engine.fen = ''; }
    drawEngine();
    drawBoard();
    const p = parse(fen);
    const legal = legalMoves(fen);
    const pieces = piecesOf(p.board);
    const home = p.inPlay.split('').find((l) => finished(p.board, l, pieces));
    const done = SEATINGS[/** @type {2|3|4|6} */ (players)].split('').filter((l) => !p.inPlay.includes(l) && [...p.board.values()].includes(l));
    $('study-status').innerHTML = legal.length
      ? `${dot(p.toMove)}<span data-testid="tq-to-move" data-letter="${p.toMove}" style="color:${DARK[/** @type {keyof typeof DARK} */ (p.toMove)]}">${esc(t('tq_study_to_move', { colour: colourName(p.toMove) }))}</span>`
      : `<span data-testid="tq-over">${esc(home ? t('tq_study_home', { colour: colourName(home) }) : t('tq_study_over'))}</span>`;
    const dist = distances(p.board);
    $('tq-dists').innerHTML = `<span class="muted">${esc(t('tq_to_go'))}${t('colon')}</span>` + SEATINGS[/** @type {2|3|4|6} */ (players)].split('').map((l) => `<span class="tq-dist${l === p.toMove && legal.length ? ' now' : ''}" data-letter="${l}">${dot(l)}${esc(colourName(l))} ${done.includes(l) ? esc(t('tq_done')) : p.inPlay.includes(l) ? dist[l] ?? 0 : esc(t('tq_out'))}</span>`).join(' ');
    $('study-tree').innerHTML = tr.nodes[0].children.length ? lineHtml(0, 0) : `<span class="muted">${t('study_empty_tree')}</span>`;
    const cur = $('study-tree').querySelector('.tree-move.cur');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
    const onLine = node.parent != null;
    /** @type {HTMLButtonElement} */ ($('study-node-tools').querySelector('[data-a="promote"]')).disabled = !onLine || pathTo(tr, tr.cur).every((n) => tr.nodes[/** @type {number} */ (tr.nodes[n].parent)].children[0] === n);
    /** @type {HTMLButtonElement} */ ($('study-node-tools').querySelector('[data-a="delete"]')).disabled = !onLine;
    /** @type {HTMLButtonElement} */ (el.querySelector('[data-a="pass"]')).disabled = !legal.includes('pass');
    $('study-err').textContent = ui.error;
    /** @type {HTMLInputElement} */ ($('study-fen')).placeholder = fen;
    if (location.hash.startsWith('#/analysis')) history.replaceState(null, '', hashOf(variant, tr));
  }

  function onClick(/** @type {string} */ name) {
    const fen = tr.nodes[tr.cur].fen;
    const p = parse(fen);
    if (ui.selected) {
      const to = reach(p.board, ui.selected, p.toMove);
      if (legalMoves(fen).length && to.has(name)) {
        const id = addMove(tr, tr.cur, `${ui.selected}-${name}`);
        ui.selected = null;
        if (id != null) { go(id); return; }
      }
      if (name === ui.selected) { ui.selected = null; render(); return; }
    }
    ui.selected = legalMoves(fen).some((m) => m.startsWith(`${name}-`)) ? name : null;
    ui.error = '';
    render();
  }
  const go = (/** @type {number} */ id) => { tr.cur = id; ui.selected = null; render(); };
  const step = (/** @type {string} */ where) => {
    const node = tr.nodes[tr.cur];
    if (where === 'prev' && node.parent != null) go(node.parent);
    else if (where === 'next' && node.children.length) go(node.children[0]);
    else if (where === 'first') go(0);
    else if (where === 'last') { let n = tr.cur; while (tr.nodes[n].children.length) n = tr.nodes[n].children[0]; go(n); }
  };
  /** A new tree from a position text: another seating's text opens that seating's board. @param {string} text */
  function setPosition(text) {
    // The letters it names decide the seating, this board's if they fit it.
    const fits = seatingOf(text) === players || !/[a-f]/.test(text) || [...new Set(text.replace(/[^a-f]/g, ''))].every((l) => SEATINGS[/** @type {2|3|4|6} */ (players)].includes(l));
    const v = fits ? variant : VARIANT_OF[seatingOf(text)];
    const w = why(text, PLAYERS[v]);
    if (w) { ui.error = whyText(w); render(); return; }
    if (v !== variant) { location.hash = `#/analysis/${v}/${encodeURIComponent(normal(text))}//0`; return; }
    tr = newTree(study, text);
    ui.selected = null;
    ui.error = '';
    render();
  }

  const onViewClick = (/** @type {MouseEvent} */ e) => {
    const target = /** @type {Element} */ (e.target);
    const move = /** @type {HTMLElement | null} */ (target.closest('[data-node]'));
    if (move) { e.preventDefault(); go(Number(move.dataset.node)); return; }
    const line = target.closest('[data-line]');
    if (line) { playLine(Number(line.getAttribute('data-line'))); return; }
    const nav = /** @type {HTMLElement | null} */ (target.closest('[data-nav]'));
    if (nav) { step(String(nav.dataset.nav)); return; }
    const startBtn = /** @type {HTMLElement | null} */ (target.closest('[data-start]'));
    if (startBtn) {
      const v = VARIANT_OF[Number(startBtn.dataset.start)];
      if (v === variant) { tr = newTree(study, study.start); ui.selected = null; ui.error = ''; render(); } else location.hash = `#/analysis/${v}`;
      return;
    }
    const a = /** @type {HTMLElement | null} */ (target.closest('[data-a]'));
    if (!a) return;
    const what = a.dataset.a;
    if (what === 'flip') { ui.flipped = !ui.flipped; render(); }
    else if (what === 'pass') { const id = addMove(tr, tr.cur, 'pass'); if (id != null) go(id); }
    else if (what === 'engine') {
      engine.on = !engine.on;
      if (engine.on) startEngine(tr.nodes[tr.cur].fen); else stopEngine();
      drawEngine();
    } else if (what === 'promote') { promote(tr, tr.cur); render(); }
    else if (what === 'delete') { deleteMove(tr, tr.cur); render(); }
    else if (what === 'fen') setPosition(/** @type {HTMLInputElement} */ ($('study-fen')).value.trim());
  };
  const onChange = (/** @type {Event} */ e) => {
    const x = /** @type {HTMLInputElement} */ (e.target);
    if (x.id === 'study-variant') location.hash = `#/analysis/${encodeURIComponent(x.value)}`;
    else if (x.id === 'study-lines' && engine.on) startEngine(tr.nodes[tr.cur].fen);
  };
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    const x = /** @type {HTMLElement} */ (e.target);
    if (x && /^(INPUT|TEXTAREA|SELECT)$/.test(x.tagName)) return;
    const where = ({ ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' })[e.key];
    if (!where) return;
    e.preventDefault();
    step(where);
  };
  el.addEventListener('click', onViewClick);
  el.addEventListener('change', onChange);
  document.addEventListener('keydown', onKey);
  render();
  return () => {
    stopEngine();
    el.removeEventListener('click', onViewClick);
    el.removeEventListener('change', onChange);
    document.removeEventListener('keydown', onKey);
  };
}
