// @ts-check
// The analysis board (`#/analysis`): any position of a game whose module has
// the `study` hook (kinds.js), from a FEN typed or pasted, a file read by the
// server (POST /api/import), or a game's page at the ply shown; moves played
// on the board make a tree (a different move from an earlier position starts
// a side line), stepped through with ←/→ (Home/End), clicked to jump, side
// lines promoted or deleted, comments on any move, and the tree exported as
// PGN with its variations and comments in the chosen notation.
//
// The address holds the position: `#/analysis/VARIANT/START/M1.M2…/PLY`
// (START the set-up text, URL-encoded; the line through the move shown and
// its main continuation; PLY the move shown), so a link opens it.
import { t, getLang } from './i18n.js';
import { esc, apiError } from './util.js';
import { studyVariants, studyOf, kindIdOf } from './kinds.js';
import { pairClick, pairTargets } from './pair-moves.js';
import { openEditor } from './position-editor.js';
import { mountStudyExtras } from './study-collection.js';

/** @typedef {import('./kinds.js').Study} Study */
/** @typedef {{ mv: string, comment: string, children: number[], parent: number | null, fen: string }} Node */

/** The most moves the tree takes (the server's import takes as many). */
const MAX_NODES = 20000;

/**
 * Plays an address's line (moves joined by `sep`) into a fresh tree from its
 * root, stopping at the first move that does not play, and puts the cursor
 * after `ply` moves (at the line's end when `ply` is missing or past it).
 * @param {Tree} tr @param {string | undefined} text @param {string} sep @param {number} ply
 */
export function playAddressLine(tr, text, sep, ply) {
  let at = 0;
  const moves = (text || '').split(sep).filter(Boolean);
  for (const mv of moves) {
    const next = addMove(tr, at, mv);
    if (next == null) break;
    at = next;
    if (pathTo(tr, at).length === ply) tr.cur = at;
  }
  if (!(ply >= 0) || ply > moves.length) tr.cur = at;
}

/**
 * A move tree from `start`: node 0 is the position itself.
 * @param {Study} study @param {string} start
 */
export function newTree(study, start) {
  return {
    study,
    /** @type {Node[]} */
    nodes: [{ mv: '', comment: '', children: [], parent: null, fen: study.normal(start) }],
    /** The node shown. */
    cur: 0,
  };
}
/** @typedef {ReturnType<typeof newTree>} Tree */

/**
 * Plays `mv` after node `at`: the child already there, or a new one (the
 * main continuation if `at` had none, else a side line). Null if illegal.
 * @param {Tree} tr @param {number} at @param {string} mv
 */
export function addMove(tr, at, mv) {
  const node = tr.nodes[at];
  const there = node.children.find((c) => tr.nodes[c].mv === mv);
  if (there != null) return there;
  if (tr.nodes.length >= MAX_NODES || !tr.study.legal(node.fen).includes(mv)) return null;
  const id = tr.nodes.length;
  tr.nodes.push({ mv, comment: '', children: [], parent: at, fen: tr.study.play(node.fen, mv) });
  node.children.push(id);
  return id;
}

/** The nodes from the first move to `id`. @param {Tree} tr @param {number} id */
export function pathTo(tr, id) {
  const out = [];
  for (let n = id; n > 0; n = /** @type {number} */ (tr.nodes[n].parent)) out.push(n);
  return out.reverse();
}

/**
 * Promotes the side line that `id` is on one step: the nearest branch of it
 * that is not its parent's first becomes the first (the main line).
 * @param {Tree} tr @param {number} id
 */
export function promote(tr, id) {
  for (let n = id; n > 0; n = /** @type {number} */ (tr.nodes[n].parent)) {
    const kids = tr.nodes[/** @type {number} */ (tr.nodes[n].parent)].children;
    const i = kids.indexOf(n);
    if (i > 0) { kids.splice(i, 1); kids.unshift(n); return true; }
  }
  return false;
}

/** Deletes the move `id` and all that follows it; the board goes to its parent. @param {Tree} tr @param {number} id */
export function deleteMove(tr, id) {
  const node = tr.nodes[id];
  if (node.parent == null) return;
  const kids = tr.nodes[node.parent].children;
  kids.splice(kids.indexOf(id), 1);
  // In the subtree? The board goes to where the deleted line started.
  if (pathTo(tr, tr.cur).includes(id)) tr.cur = node.parent;
}

/** The line through the node shown: its path and the main continuation after it. @param {Tree} tr */
function lineOf(tr) {
  const line = pathTo(tr, tr.cur);
  let n = tr.cur;
  while (tr.nodes[n].children.length && line.length < 2000) { n = tr.nodes[n].children[0]; line.push(n); }
  return line;
}

/** The address of what is shown. @param {string} variant @param {Tree} tr */
export function hashOf(variant, tr) {
  const moves = lineOf(tr).map((n) => tr.nodes[n].mv);
  return `#/analysis/${encodeURIComponent(variant)}/${encodeURIComponent(tr.nodes[0].fen)}/${moves.join('.')}/${pathTo(tr, tr.cur).length}`;
}

/**
 * A tree from an imported game (`POST /api/import`'s answer): parents come
 * before their children, so each move's node exists when it is read.
 * @param {Study} study @param {any} g
 */
export function treeFromImport(study, g) {
  const tr = newTree(study, String(g.start));
  tr.nodes[0].comment = g.comment || '';
  /** @type {(number | null)[]} */
  const ids = [];
  for (const m of g.moves || []) {
    const parent = m.parent == null ? 0 : ids[m.parent];
    const id = parent == null ? null : addMove(tr, parent, String(m.move));
    ids.push(id);
    if (id != null && m.comment) tr.nodes[id].comment = String(m.comment);
  }
  // A saved study shows the move it was saved at (`at`, an index in `moves`).
  const at = Number.isInteger(g.at) ? ids[g.at] : null;
  if (at != null) tr.cur = at;
  return tr;
}

/** The notation shown: the game page's choice, else Chinese in Chinese. */
const notationOf = () => localStorage.getItem('qy-notation') || (getLang() === 'zh' ? 'chinese' : 'iccs');

/**
 * The analysis board view. `args` are the address's parts after `analysis`.
 * @param {HTMLElement} view @param {string[]} args
 * @returns {() => void} cleanup
 */
export function analysisBoardView(view, args) {
  const variants = studyVariants();
  const variant = args[0] && variants.includes(decodeURIComponent(args[0])) ? decodeURIComponent(args[0]) : variants[0];
  const found = variant ? studyOf(variant) : undefined;
  if (!variant || !found) {
    view.innerHTML = `<div class="card muted">${t('study_none')}</div>`;
    return () => {};
  }
  /** @type {Study} */
  const study = found;
  // A game whose board is unlike the square boards' brings its own view (its tree from here).
  if (study.view) return study.view(view, args);
  const ui = { choose: /** @type {string[]} */ ([]), selected: /** @type {string | null} */ (null), flipped: false, notation: notationOf(), tags: /** @type {[string, string][]} */ ([]), message: '', error: '', pgn: '' };
  let tr = newTree(study, study.start);
  // The position of the address: start, line, ply.
  const start = args[1] ? decodeURIComponent(args[1]) : '';
  if (start && !study.problem(start)) {
    tr = newTree(study, start);
    playAddressLine(tr, args[2], '.', Number(args[3]));
  } else if (start) ui.error = t(study.problem(start) || 'fen_bad_board');

  view.innerHTML = `<div class="study" data-testid="analysis-board">
    <div class="study-board"><svg id="study-svg" class="board" data-testid="board"></svg>
      <div class="buttons study-nav"><button data-nav="first" data-testid="nav-first" title="Home">«</button><button data-nav="prev" data-testid="nav-prev" title="←">◀</button><button data-nav="next" data-testid="nav-next" title="→">▶</button><button data-nav="last" data-testid="nav-last" title="End">»</button><button data-a="flip" data-testid="flip">${t('flip')}</button>${study.editor ? `<button data-a="edit" data-testid="edit-position">${t('editor_open')}</button>` : ''}</div><div class="buttons study-choose" id="study-choose" data-testid="study-choose"></div></div>
    <div class="study-side card">
      <h2>${t('study_title')}</h2>
      ${variants.length > 1 ? `<div class="tools"><select id="study-variant" data-testid="study-variant" aria-label="${esc(t('study_variant'))}">${variants.map((v) => `<option value="${esc(v)}"${v === variant ? ' selected' : ''}>${esc(t(v))}</option>`).join('')}</select></div>` : ''}
      <div class="study-status" id="study-status" data-testid="study-status"></div>
      <div class="tools">${t('moves')}${t('colon')}<select id="study-notation" data-testid="notation"><option value="iccs">ICCS</option><option value="wxf">WXF</option><option value="chinese">中文</option></select></div>
      <div class="study-engine" id="study-engine" data-testid="engine"><div class="engine-head"><button data-a="engine" data-testid="engine-toggle" aria-pressed="false">${t('engine_start')}</button>
        <label class="small">${t('engine_lines')} <select id="study-lines" data-testid="engine-lines"><option>1</option><option>2</option><option selected>3</option><option>4</option><option>5</option></select></label>
        <span class="muted small" id="engine-depth" data-testid="engine-depth"></span></div>
        <div class="eval-bar" data-testid="eval-bar" hidden><div class="eval-red" id="eval-red"></div><span class="eval-text" id="eval-text" data-testid="eval-text"></span></div>
        <ol class="engine-lines" id="engine-lines" data-testid="engine-line-list"></ol></div>
      <div class="study-tree" id="study-tree" data-testid="move-tree"></div>
      <div class="buttons" id="study-node-tools"><button data-a="promote" data-testid="promote">${t('study_promote')}</button><button data-a="delete" data-testid="delete-move">${t('study_delete')}</button></div>
      <label class="small study-comment">${t('study_comment')}<textarea id="study-comment" data-testid="comment" rows="2" maxlength="2000"></textarea></label>
      <details class="study-load" data-testid="study-load"${tr.nodes.length > 1 ? '' : ' open'}><summary>${t('study_load')}</summary>
        <p class="fen-row"><label>${t('fen')}<br><input id="study-fen" data-testid="fen-input" spellcheck="false" autocomplete="off"></label><button data-a="fen" data-testid="fen-load">${t('study_set_position')}</button></p>
        <p><label>${t('study_paste')}<br><textarea id="study-paste" data-testid="paste" rows="4" spellcheck="false" placeholder="${esc(t('study_paste_hint'))}"></textarea></label></p>
        <p><button data-a="paste" data-testid="paste-load">${t('study_import')}</button> <label class="file-pick">${t('study_file')} <input type="file" id="study-file" data-testid="file"></label></p>
      </details>
      <div id="study-extras"></div>
      <div class="err" id="study-err" data-testid="study-error" role="alert"></div>
      <div class="buttons"><button data-a="export" data-testid="export">${t('study_export')}</button></div>
      <div id="study-export" hidden><textarea id="study-pgn" data-testid="pgn-out" rows="6" readonly spellcheck="false"></textarea><a id="study-download" data-testid="pgn-download" download="qiyuan-study.pgn">${t('study_download')}</a></div>
    </div></div><div id="study-editor"></div>`;
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('study-svg')));
  /** @type {HTMLSelectElement} */ ($('study-notation')).value = ui.notation;

  /** The move number and dots of a move played from `fen` (`12.` or `12…`), where one is due. */
  const numbered = (/** @type {string} */ fen, /** @type {boolean} */ force) => {
    const turn = study.turn(fen);
    return turn.first ? `${turn.number}.` : force ? `${turn.number}…` : '';
  };
  /** One move of the tree as a link. */
  const moveSpan = (/** @type {number} */ id, /** @type {boolean} */ force) => {
    const n = tr.nodes[id], before = tr.nodes[/** @type {number} */ (n.parent)].fen;
    const num = numbered(before, force);
    return `${num ? `<span class="tree-num">${num}</span>` : ''}<a href="#" class="tree-move${id === tr.cur ? ' cur' : ''}" data-node="${id}" data-testid="tree-move">${esc(study.name(before, n.mv, ui.notation))}</a>${n.comment ? ` <span class="tree-comment" data-testid="tree-comment">${esc(n.comment)}</span>` : ''} `;
  };
  /** The line after node `at`, side lines indented under the move they replace. */
  const lineHtml = (/** @type {number} */ at, /** @type {boolean} */ force) => {
    let html = '';
    let p = at, f = force;
    while (tr.nodes[p].children.length) {
      const kids = tr.nodes[p].children;
      html += moveSpan(kids[0], f);
      f = false;
      if (kids.length > 1) {
        html += `<div class="tree-vars">${kids.slice(1).map((k) => `<div class="tree-var" data-testid="variation">${moveSpan(k, true)}${lineHtml(k, false)}</div>`).join('')}</div>`;
        f = true;
      }
      if (tr.nodes[kids[0]].comment) f = true;
      p = kids[0];
    }
    return html;
  };

  // The engine in the browser (engine-worker.js): the position shown, depth
  // after depth until stopped; each answer's lines in the page's notation.
  const engine = /** @type {{ on: boolean, fen: string, worker: Worker | null, last: any }} */ ({ on: false, fen: '', worker: null, last: null });
  // Stopped, the last lines stay (they can still be played) until the board moves on.
  const stopEngine = () => { if (engine.worker) engine.worker.terminate(); engine.worker = null; };
  function startEngine(/** @type {string} */ fen) {
    stopEngine();
    engine.fen = fen;
    engine.last = null;
    const w = new Worker('/static/engine-worker.js');
    engine.worker = w;
    w.onmessage = (e) => {
      if (engine.worker !== w) return;
      const r = e.data;
      if (r.error) { ui.error = r.error; stopEngine(); engine.on = false; drawEngine(); $('study-err').textContent = ui.error; return; }
      if (r.done) { drawEngine(); return; }
      // Each line is its own search; shown best first for the side to move
      // (scores are for the side that moves first in a round).
      const sign = study.turn(fen).first ? 1 : -1;
      const value = (/** @type {any} */ l) => sign * (l.mate != null ? Math.sign(l.mate) * (1e6 - Math.abs(l.mate)) : (l.score || 0));
      if (Array.isArray(r.lines)) r.lines.sort((/** @type {any} */ a, /** @type {any} */ b) => value(b) - value(a));
      engine.last = r;
      drawEngine();
    };
    const lines = Number(/** @type {HTMLSelectElement} */ ($('study-lines')).value) || 1;
    w.postMessage({ live: true, variant, fen, lines, maxDepth: 24 });
    drawEngine();
  }
  /** A score for red as people read it: +1.25, or #3 (red mates in three), #-3. */
  const scoreText = (/** @type {any} */ l) => {
    if (l.mate != null) return `#${l.mate > 0 ? '' : '-'}${Math.ceil(Math.abs(l.mate) / 2)}`;
    const s = (l.score || 0) / 100;
    return (s > 0 ? '+' : '') + s.toFixed(2);
  };
  /** Red's winning chance, 0-100 (the curve lichess uses for centipawns). */
  const redShare = (/** @type {any} */ l) => (l.mate != null ? (l.mate > 0 ? 100 : 0) : 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * (l.score || 0))) - 1));
  /** The engine's best first moves for the position shown (the first line's boldest). */
  const arrowsNow = () => {
    const r = engine.last;
    if (!r || !r.lines || engine.fen !== tr.nodes[tr.cur].fen) return [];
    return r.lines.map((/** @type {any} */ l) => String(l.best || '')).filter(Boolean);
  };
  // The board with the latest arrows, only when they change (each depth's answer).
  let shownArrows = '';
  /** Draws the position shown, with its legal targets, last move, check and the engine's arrows. */
  function drawPosition() {
    const node = tr.nodes[tr.cur];
    const arrows = arrowsNow();
    shownArrows = arrows.join(' ');
    const last = node.parent == null ? [] : [node.mv.slice(0, 2), node.mv.slice(2, 4)];
    study.draw(svg, { fen: node.fen, flipped: ui.flipped, selected: ui.selected, targets: pairTargets(study.legal(node.fen), ui.selected), last, onClick, notation: ui.notation, check: study.check(node.fen), arrows });
  }
  function drawEngine() {
    if (arrowsNow().join(' ') !== shownArrows) drawPosition();
    const b = /** @type {HTMLButtonElement} */ ($('study-engine').querySelector('[data-a="engine"]'));
    b.textContent = t(engine.on ? 'engine_stop' : 'engine_start');
    b.setAttribute('aria-pressed', String(engine.on));
    const r = engine.last;
    const bar = /** @type {HTMLElement} */ ($('study-engine').querySelector('.eval-bar'));
    bar.hidden = !r || !r.lines || !r.lines.length;
    $('engine-depth').textContent = r ? t('engine_depth', { n: r.depth }) : engine.on ? t('engine_thinking') : '';
    $('study-engine').classList.toggle('stopped', !engine.on);
    if (!r || !r.lines) { $('engine-lines').innerHTML = r && r.over ? `<li class="muted">${t('engine_over')}</li>` : ''; return; }
    const top = r.lines[0];
    $('eval-red').style.width = `${redShare(top).toFixed(1)}%`;
    $('eval-text').textContent = scoreText(top);
    $('engine-lines').innerHTML = r.lines.map((/** @type {any} */ l, /** @type {number} */ i) => {
      const names = [];
      let fen = engine.fen;
      for (const mv of (l.pv && l.pv.length ? l.pv : [l.best]).slice(0, 12)) {
        if (!study.legal(fen).includes(mv)) break;
        names.push(study.name(fen, mv, ui.notation));
        fen = study.play(fen, mv);
      }
      return `<li data-line="${i}" data-testid="engine-line" title="${esc(t('engine_line_title'))}"><b>${esc(scoreText(l))}</b> ${esc(names.join(' '))}</li>`;
    }).join('');
  }
  /** Plays engine line `i` into the tree from the position it was found in; the board shows its first move. */
  function playLine(/** @type {number} */ i) {
    const r = engine.last;
    const l = r && r.lines && r.lines[i];
    if (!l || tr.nodes[tr.cur].fen !== engine.fen) return;
    let at = tr.cur, first = null;
    for (const mv of (l.pv && l.pv.length ? l.pv : [l.best])) {
      const next = addMove(tr, at, mv);
      if (next == null) break;
      if (first == null) first = next;
      at = next;
    }
    if (first != null) go(first);
  }

  function render() {
    const node = tr.nodes[tr.cur];
    if (engine.on && engine.fen !== node.fen) startEngine(node.fen);
    else if (!engine.on && engine.fen !== node.fen && engine.last) { engine.last = null; engine.fen = ''; drawEngine(); }
    const legal = study.legal(node.fen);
    const check = study.check(node.fen);
    drawPosition();
    // The moves to choose between, or a pass where the rules allow one now.
    const fenNow = node.fen;
    const choices = ui.choose.filter((m) => legal.includes(m));
    const pass = legal.includes('0000') && !choices.length ? ['0000'] : [];
    $('study-choose').innerHTML = [...choices, ...pass].map((m) => `<button data-play="${esc(m)}" data-testid="study-play-${esc(m)}">${esc(m === '0000' ? t('study_pass') : study.name(fenNow, m, ui.notation))}</button>`).join('');
    const root = tr.nodes[0].comment ? `<div class="tree-comment" data-testid="tree-comment">${esc(tr.nodes[0].comment)}</div>` : '';
    $('study-tree').innerHTML = root + (tr.nodes[0].children.length ? lineHtml(0, true) : `<span class="muted">${t('study_empty_tree')}</span>`);
    const cur = $('study-tree').querySelector('.tree-move.cur');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
    const turn = study.turn(node.fen);
    $('study-status').textContent = (legal.length ? t(turn.first ? 'study_red_to_move' : 'study_black_to_move') : t(check ? 'study_mate' : 'study_no_moves')) + (study.info ? ` ${study.info(node.fen, t)}` : '');
    const onLine = node.parent != null;
    /** @type {HTMLButtonElement} */ ($('study-node-tools').querySelector('[data-a="promote"]')).disabled = !onLine || pathTo(tr, tr.cur).every((n) => tr.nodes[/** @type {number} */ (tr.nodes[n].parent)].children[0] === n);
    /** @type {HTMLButtonElement} */ ($('study-node-tools').querySelector('[data-a="delete"]')).disabled = !onLine;
    const box = /** @type {HTMLTextAreaElement} */ ($('study-comment'));
    if (document.activeElement !== box) box.value = node.comment;
    $('study-err').textContent = ui.error;
    /** @type {HTMLInputElement} */ ($('study-fen')).placeholder = node.fen;
    if (location.hash.startsWith('#/analysis')) history.replaceState(null, '', hashOf(variant, tr));
    if (!$('study-export').hidden) exportPgn();
    if (extras) extras.update();
  }

  function onClick(/** @type {string} */ sq) {
    const legal = study.legal(tr.nodes[tr.cur].fen);
    const r = pairClick(legal, ui.selected, sq);
    // Several moves between the same points (a class change after the move): the player picks one.
    if (r.choose && r.choose.length > 1) { ui.choose = r.choose; ui.selected = null; render(); return; }
    ui.choose = [];
    const mv = r.move || (r.choose && r.choose[0]);
    if (mv) {
      const id = addMove(tr, tr.cur, mv);
      if (id != null) tr.cur = id;
      ui.selected = null;
    } else ui.selected = r.select || null;
    ui.error = '';
    render();
  }

  const go = (/** @type {number} */ id) => { tr.cur = id; ui.selected = null; ui.choose = []; render(); };
  const step = (/** @type {string} */ where) => {
    const node = tr.nodes[tr.cur];
    if (where === 'prev' && node.parent != null) go(node.parent);
    else if (where === 'next' && node.children.length) go(node.children[0]);
    else if (where === 'first') go(0);
    else if (where === 'last') { let n = tr.cur; while (tr.nodes[n].children.length) n = tr.nodes[n].children[0]; go(n); }
  };

  function exportPgn() {
    const text = study.pgn(tr.nodes, tr.nodes[0].fen, ui.notation, ui.tags);
    /** @type {HTMLTextAreaElement} */ ($('study-pgn')).value = text;
    const a = /** @type {HTMLAnchorElement} */ ($('study-download'));
    if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    $('study-export').hidden = false;
  }

  /** Reads a file through the server; the tree is replaced by it. @param {BodyInit} body @param {string} type */
  async function importBody(body, type) {
    ui.error = '';
    $('study-err').textContent = t('study_importing');
    let r, data = null;
    try {
      r = await fetch(`/api/import?game=${encodeURIComponent(kindIdOf(variant))}`, { method: 'POST', headers: { 'Content-Type': type }, body, credentials: 'same-origin' });
      try { data = await r.json(); } catch { data = null; }
    } catch {
      ui.error = t('err_network');
      render();
      return;
    }
    if (!r.ok) {
      const e = apiError(r.status, data);
      const place = e.details && /** @type {any} */ (e.details).place;
      const where = place && place.line != null ? t('study_place_line', { line: place.line, column: place.column }) : place && place.byte != null ? t('study_place_byte', { byte: place.byte }) : '';
      ui.error = where ? `${e.message} ${where}` : e.message;
      render();
      return;
    }
    if (study.problem(data.start)) { ui.error = t(study.problem(data.start) || 'fen_bad_board'); render(); return; }
    tr = treeFromImport(study, data);
    ui.tags = (data.tags || []).map((/** @type {any} */ x) => /** @type {[string, string]} */ ([String(x.name), String(x.value)]));
    ui.selected = null;
    const load = /** @type {HTMLDetailsElement | null} */ (view.querySelector('details.study-load'));
    if (load) load.open = false;
    render();
  }

  /** The position editor in place of the board; a legal position it gives starts a new tree. */
  let closeEditor = () => {};
  function editPosition() {
    const root = /** @type {HTMLElement} */ (view.querySelector('.study'));
    const back = () => { closeEditor(); closeEditor = () => {}; root.hidden = false; };
    engine.on = false;
    stopEngine();
    drawEngine();
    root.hidden = true;
    closeEditor = openEditor($('study-editor'), study, tr.nodes[tr.cur].fen, {
      flipped: ui.flipped, notation: ui.notation,
      done: (fen) => { back(); tr = newTree(study, fen); ui.tags = []; ui.selected = null; ui.error = ''; render(); },
      cancel: () => { back(); render(); },
    });
  }

  const onViewClick = (/** @type {MouseEvent} */ e) => {
    const el = /** @type {HTMLElement} */ (e.target);
    const move = /** @type {HTMLElement | null} */ (el.closest('[data-node]'));
    if (move) { e.preventDefault(); go(Number(move.dataset.node)); return; }
    const line = /** @type {HTMLElement | null} */ (el.closest('[data-line]'));
    if (line) { playLine(Number(line.dataset.line)); return; }
    const play = /** @type {HTMLElement | null} */ (el.closest('[data-play]'));
    if (play) {
      const id = addMove(tr, tr.cur, String(play.dataset.play));
      ui.choose = [];
      if (id != null) go(id);
      return;
    }
    const nav = /** @type {HTMLElement | null} */ (el.closest('[data-nav]'));
    if (nav) { step(String(nav.dataset.nav)); return; }
    const a = /** @type {HTMLElement | null} */ (el.closest('[data-a]'));
    if (!a) return;
    const what = a.dataset.a;
    if (what === 'flip') { ui.flipped = !ui.flipped; render(); }
    else if (what === 'edit') editPosition();
    else if (what === 'engine') {
      engine.on = !engine.on;
      if (engine.on) startEngine(tr.nodes[tr.cur].fen); else stopEngine();
      drawEngine();
    }
    else if (what === 'promote') { promote(tr, tr.cur); render(); }
    else if (what === 'delete') { deleteMove(tr, tr.cur); render(); }
    else if (what === 'export') exportPgn();
    else if (what === 'fen') {
      const fen = /** @type {HTMLInputElement} */ ($('study-fen')).value.trim();
      const why = study.problem(fen);
      if (why) { ui.error = t(why); render(); return; }
      tr = newTree(study, fen); ui.tags = []; ui.selected = null; ui.error = '';
      render();
    } else if (what === 'paste') {
      const text = /** @type {HTMLTextAreaElement} */ ($('study-paste')).value;
      if (!text.trim()) { ui.error = t('study_paste_empty'); render(); return; }
      importBody(text, 'text/plain; charset=utf-8');
    }
  };
  const onChange = (/** @type {Event} */ e) => {
    const el = /** @type {HTMLInputElement} */ (e.target);
    if (el.id === 'study-variant') { location.hash = `#/analysis/${encodeURIComponent(el.value)}`; return; }
    if (el.id === 'study-notation') { ui.notation = el.value; localStorage.setItem('qy-notation', ui.notation); render(); drawEngine(); }
    else if (el.id === 'study-lines') { if (engine.on) startEngine(tr.nodes[tr.cur].fen); }
    else if (el.id === 'study-file' && el.files && el.files[0]) {
      const f = el.files[0];
      if (f.size > (1 << 20)) { ui.error = t('study_file_large'); render(); return; }
      f.arrayBuffer().then((buf) => importBody(buf, 'application/octet-stream'));
      el.value = '';
    }
  };
  const onInput = (/** @type {Event} */ e) => {
    const el = /** @type {HTMLTextAreaElement} */ (e.target);
    if (el.id !== 'study-comment') return;
    tr.nodes[tr.cur].comment = el.value;
    const cur = $('study-tree');
    // The tree shows the comment as it is typed (the box keeps its focus).
    const html = tr.nodes[0].children.length ? lineHtml(0, true) : '';
    cur.innerHTML = (tr.nodes[0].comment ? `<div class="tree-comment" data-testid="tree-comment">${esc(tr.nodes[0].comment)}</div>` : '') + (html || `<span class="muted">${t('study_empty_tree')}</span>`);
  };
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    const el = /** @type {HTMLElement} */ (e.target);
    if (el && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) return;
    if (/** @type {HTMLElement} */ (view.querySelector('.study')).hidden) return;
    const where = ({ ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last' })[e.key];
    if (!where) return;
    e.preventDefault();
    step(where);
  };
  // s-col hook: saved studies and the opening explorer (study-collection.js).
  const extras = mountStudyExtras($('study-extras'), { variant, study, tree: () => tr, open: (/** @type {any} */ data) => { tr = treeFromImport(study, data); ui.tags = []; ui.selected = null; ui.error = ''; render(); }, play: (/** @type {string} */ mv) => { const id = addMove(tr, tr.cur, mv); if (id != null) go(id); }, notation: () => ui.notation });
  view.addEventListener('click', onViewClick);
  view.addEventListener('change', onChange);
  view.addEventListener('input', onInput);
  document.addEventListener('keydown', onKey);
  render();
  return () => {
    closeEditor();
    extras.stop();
    stopEngine();
    view.removeEventListener('click', onViewClick);
    view.removeEventListener('change', onChange);
    view.removeEventListener('input', onInput);
    document.removeEventListener('keydown', onKey);
  };
}

/**
 * The address of the analysis board for a game's position: its start, its
 * moves and the ply shown; null if its module does not study the variant.
 * @param {string} variant @param {string} start @param {string[]} moves @param {number} ply
 * @param {Record<string, any>} [state] the game (a module with its own `link` reads it)
 */
export function studyLink(variant, start, moves, ply, state) {
  const study = studyOf(variant);
  if (!study || !study.variants.includes(variant)) return null;
  if (study.link) return state ? study.link(state, ply) : null;
  return `#/analysis/${encodeURIComponent(variant)}/${encodeURIComponent(study.normal(start || study.start))}/${moves.join('.')}/${ply}`;
}
