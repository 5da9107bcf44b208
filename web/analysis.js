// @ts-check
// Analysis after a game (of a game whose module has the `analysis` hook: the
// engine plays its rules): the engine, compiled to
// WebAssembly, searches every position of the game in a Web Worker; the page
// shows the evaluation graph over the game, the engine's best line at each
// move, and the moves where the evaluation dropped most for the side that
// played them (lichess's "inaccuracies", without the labels).
import { t } from './i18n.js';
import { esc } from './util.js';

const DEPTH = 6;
const CAP = 1000;
// Per game id: { plies: [result per ply], done, error }.
const runs = new Map();

/**
 * Whether a game can be analysed here (finished, of a game the engine plays).
 * @param {import('./kinds.js').GameState} state
 * @param {Partial<import('./kinds.js').GameModule>} mod
 */
export function canAnalyse(state, mod) {
  return state.status === 'finished' && !!mod.analysis && (state.records || []).length > 0;
}

/** A score for red, mates as ±CAP, clamped. */
const value = (r) => (r.mate != null ? Math.sign(r.mate) * CAP : Math.max(-CAP, Math.min(CAP, r.score || 0)));

function scoreText(r) {
  if (r.over) return '#';
  if (r.mate != null) return `${r.mate > 0 ? '+' : '-'}M${Math.ceil(Math.abs(r.mate) / 2)}`;
  const s = (r.score || 0) / 100;
  return (s > 0 ? '+' : '') + s.toFixed(2);
}

/** The graph: red's evaluation after each ply (above the line: red better). */
function graph(plies) {
  const w = 600, h = 120, n = Math.max(plies.length - 1, 1);
  const pts = plies.map((r, i) => `${(i / n) * w},${h / 2 - (value(r) / CAP) * (h / 2 - 4)}`).join(' ');
  return `<svg viewBox="0 0 ${w} ${h}" class="eval-graph" data-testid="eval-graph" preserveAspectRatio="none" style="width:100%;height:120px;background:#f3ead6;border-radius:6px">
    <line x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}" stroke="#9a8a6a" stroke-width="1"/>
    <polyline points="${pts}" fill="none" stroke="#b5221b" stroke-width="2"/></svg>`;
}

/** The biggest drops: (ply index of the move, how much the mover lost). The
 * records say who made each move (a set-up may start with black, a
 * double turn is two moves of one side). */
export function drops(plies, rec) {
  const out = [];
  for (let i = 1; i < plies.length; i++) {
    const mover = ((rec[i - 1] || {}).seat === 'black') ? -1 : 1;
    const lost = (value(plies[i - 1]) - value(plies[i])) * mover;
    if (lost > 50) out.push({ ply: i, lost });
  }
  return out.sort((a, b) => b.lost - a.lost).slice(0, 3);
}

/**
 * The moves of a line from `fen` in `notation`, as the game's module writes
 * them (its `line` hook; the engine's own notation without one).
 * @param {Partial<import('./kinds.js').GameModule>} mod @param {string} fen @param {string[]} moves @param {string} notation
 */
function lineText(mod, fen, moves, notation) {
  return mod.line && notation ? mod.line(fen, moves, notation) : moves;
}

// The notation the panel was last drawn in, for its redraws while the engine runs.
let shownNotation = '';

/**
 * The panel: a button before, progress while it runs, the graph and tables after.
 * @param {import('./kinds.js').GameState} state @param {string} id
 * @param {Partial<import('./kinds.js').GameModule>} mod @param {string} [notation] the move list's notation
 */
export function analysisHtml(state, id, mod, notation = shownNotation) {
  shownNotation = notation;
  if (!canAnalyse(state, mod)) return '';
  const run = runs.get(id);
  if (!run) return `<div class="analysis" id="analysis"><button data-analyse="${esc(id)}" data-testid="analyse">${t('analyse')}</button></div>`;
  const rec = state.records || [];
  if (run.error) return `<div class="analysis err" id="analysis">${esc(run.error)}</div>`;
  if (!run.done) return `<div class="analysis" id="analysis"><span class="muted" data-testid="analysis-progress">${t('analysing')} ${run.plies.length}/${rec.length + 1}</span></div>`;
  const worst = drops(run.plies, rec);
  // Each move and the engine's best line in the move list's notation, from the position before it.
  const start = state.start_fen || (mod.analysis ? mod.analysis.start : '');
  const fenBefore = (/** @type {number} */ i) => (i ? rec[i - 1].fen : start);
  const moveName = (/** @type {number} */ i) => (rec[i][notation] || rec[i].iccs);
  const rows = rec.map((m, i) => {
    const before = run.plies[i], after = run.plies[i + 1] || {};
    const bad = worst.some((d) => d.ply === i + 1);
    const pv = before && before.best ? lineText(mod, fenBefore(i), (before.pv && before.pv.length ? before.pv : [before.best]).slice(0, 5), notation) : [];
    return `<tr${bad ? ' class="blunder" data-testid="blunder"' : ''}><td class="muted">${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'}</td><td>${esc(moveName(i))}</td><td>${esc(scoreText(after))}</td><td class="muted" data-testid="best-line">${esc(pv.length ? `${t('best')} ${pv[0]}${t('colon')}${pv.join(' ')}` : '')}</td></tr>`;
  }).join('');
  return `<div class="analysis" id="analysis" data-testid="analysis"><h3>${t('analysis')} <span class="muted small">(${t('depth')} ${DEPTH})</span></h3>${graph(run.plies)}
    ${worst.length ? `<p data-testid="drops">${t('biggest_drops')}${t('colon')}${worst.map((d) => `${Math.floor((d.ply - 1) / 2) + 1}${(d.ply - 1) % 2 ? '…' : '.'} ${esc(moveName(d.ply - 1))} (−${(d.lost / 100).toFixed(1)})`).join(', ')}</p>` : `<p class="muted" data-testid="drops">${t('no_big_drops')}</p>`}
    <div class="analysis-moves"><table data-testid="analysis-moves">${rows}</table></div></div>`;
}

function start(state, id, rerender, mod) {
  /** @type {{ plies: any[], done: boolean, error: string | null }} */
  const run = { plies: [], done: false, error: null };
  runs.set(id, run);
  const worker = new Worker('/static/engine-worker.js');
  worker.onmessage = (e) => {
    const r = e.data;
    if (r.error) { run.error = r.error; worker.terminate(); }
    else if (r.done) { run.done = true; worker.terminate(); }
    else run.plies[r.ply] = r;
    const box = document.getElementById('analysis');
    if (box) box.outerHTML = analysisHtml(state, id, mod, shownNotation);
    else if (rerender) rerender();
  };
  worker.postMessage({ variant: state.game, fen: state.start_fen || mod.analysis.start, moves: (state.records || []).map((m) => m.iccs), depth: DEPTH });
}

/**
 * @typedef {{ state: import('./kinds.js').GameState | null, id: string, rerender?: () => void, mod: Partial<import('./kinds.js').GameModule> | null, notation?: string }} Shown
 */
/** @type {() => Shown | null} */
let current = () => null;
let bound = false;
/** Binds the analyse button: `current()` gives `{ state, id, rerender, mod }` of the game shown. @param {() => Shown | null} get */
export function bindAnalysis(get) {
  current = get;
  // One listener for the page's life, whatever game is shown.
  if (bound) return;
  bound = true;
  document.addEventListener('click', (e) => {
    const el = /** @type {Element} */ (e.target);
    const b = /** @type {HTMLElement | null} */ (el.closest && el.closest('[data-analyse]'));
    if (!b) return;
    const c = current();
    if (c && c.state && c.id === b.dataset.analyse && !runs.has(c.id) && c.mod) { start(c.state, c.id, c.rerender, c.mod); if (c.rerender) c.rerender(); }
  });
}
