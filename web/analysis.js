// @ts-check
// Review after a game (of a game whose module has the `analysis` hook: the
// engine plays its rules): the engine, compiled to WebAssembly, searches
// every position of the game in a Web Worker within a small budget per
// position; the page shows the evaluation graph over the game, each move's
// score, its label (inaccuracy, mistake, blunder) and the engine's best
// line there. A click on the graph or a row shows that position on the game's
// board; each row links to it on the analysis board.
import { t } from './i18n.js';
import { esc } from './util.js';
import { studyLink } from './analysis-board.js';

// The budget per position: the deepest of depths 1..MAX_DEPTH that the
// worker reaches in about BUDGET_MS (a 60-move game takes well under a minute).
const MAX_DEPTH = 10;
const BUDGET_MS = 300;
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

function scoreText(r) {
  if (r.over) return '#';
  if (r.mate != null) return `${r.mate > 0 ? '+' : '-'}M${Math.ceil(Math.abs(r.mate) / 2)}`;
  const s = (r.score || 0) / 100;
  return (s > 0 ? '+' : '') + s.toFixed(2);
}

/**
 * The graph: red's winning chance after each ply (above the line: red
 * better), a dot on each labelled move, the ply shown marked; a click on a
 * column shows that position (`data-review-ply`).
 * @param {any[]} plies @param {any[]} rec @param {{ ply: number, label: string }[]} marks @param {number} shown
 */
function graph(plies, rec, marks, shown) {
  const w = 600, h = 120, n = Math.max(plies.length - 1, 1);
  const x = (/** @type {number} */ i) => (i / n) * w;
  const y = (/** @type {number} */ i) => h / 2 - chanceAt(plies, rec, i) * (h / 2 - 4);
  const pts = plies.map((_, i) => `${x(i).toFixed(1)},${y(i).toFixed(1)}`).join(' ');
  const col = w / n;
  const hits = plies.map((_, i) => `<rect class="eval-hit" data-review-ply="${i}" data-testid="graph-ply-${i}" x="${(x(i) - col / 2).toFixed(1)}" y="0" width="${col.toFixed(1)}" height="${h}"><title>${i}</title></rect>`).join('');
  const dots = marks.filter((m) => m.label).map((m) => `<circle class="eval-dot ${m.label}" cx="${x(m.ply).toFixed(1)}" cy="${y(m.ply).toFixed(1)}" r="5"/>`).join('');
  const cur = `<line class="eval-cur" x1="${x(shown).toFixed(1)}" y1="0" x2="${x(shown).toFixed(1)}" y2="${h}"/>`;
  return `<svg viewBox="0 0 ${w} ${h}" class="eval-graph" data-testid="eval-graph" preserveAspectRatio="none">
    <line x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}" stroke="#9a8a6a" stroke-width="1"/>${cur}
    <polyline points="${pts}" fill="none" stroke="#b5221b" stroke-width="2" vector-effect="non-scaling-stroke"/>${dots}${hits}</svg>`;
}

/**
 * Red's winning chance at ply `i`; a position with no move (the game over)
 * is lost for the side to move, the one that did not make the last move.
 * @param {any[]} plies @param {any[]} rec @param {number} i
 */
function chanceAt(plies, rec, i) {
  const r = plies[i] || {};
  if (r.over && i > 0) return ((rec[i - 1] || {}).seat === 'black') ? -1 : 1;
  return winChance(r);
}

/**
 * Red's winning chance from -1 to 1: the curve lichess publishes on its
 * accuracy page (lichess.org/page/accuracy: Win% = 50 + 50 * (2 / (1 +
 * exp(-0.00368208 * centipawns)) - 1), fitted to its players' games; lila's
 * older ui/ceval winningChances.ts had 0.004), centipawns clamped to ±1000
 * and a mate in N moves counted as (21 - min(10, N)) * 100, as lila does.
 * @param {{ score?: number, mate?: number | null }} r
 */
export function winChance(r) {
  let cp = Math.max(-CAP, Math.min(CAP, r.score || 0));
  if (r.mate != null) cp = Math.sign(r.mate) * (21 - Math.min(10, Math.ceil(Math.abs(r.mate) / 2))) * 100;
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

// The labels by how much winning chance a move gave away, lichess's numbers
// (lila modules/analyse/src/main/Advice.scala, winningChanceJudgements:
// .3 blunder, .2 mistake, .1 inaccuracy, on the -1..1 scale).
/** @type {[number, string][]} */
const JUDGEMENTS = [[0.3, 'blunder'], [0.2, 'mistake'], [0.1, 'inaccuracy']];
/** @type {Record<string, string>} */
const GLYPH = { blunder: '??', mistake: '?', inaccuracy: '?!' };

/**
 * Each move's label: (ply of the move, the winning chance its mover lost,
 * the label or ''). The records say who made each move (a set-up may start
 * with black, a double turn is two moves of one side). A game's last
 * position when it is over (mate, no move) is scored as the result it is.
 * @param {any[]} plies @param {any[]} rec
 */
export function judge(plies, rec) {
  const out = [];
  for (let i = 1; i < plies.length; i++) {
    if (!plies[i - 1] || !plies[i]) continue;
    const mover = ((rec[i - 1] || {}).seat === 'black') ? -1 : 1;
    const lost = (chanceAt(plies, rec, i - 1) - chanceAt(plies, rec, i)) * mover;
    const found = JUDGEMENTS.find(([d]) => lost >= d);
    out.push({ ply: i, lost, label: found ? found[1] : '' });
  }
  return out;
}

/**
 * The moves of a line from `fen` in `notation`, as the game's module writes
 * them (its `line` hook; the engine's own notation without one).
 * @param {Partial<import('./kinds.js').GameModule>} mod @param {string} fen @param {string[]} moves @param {string} notation
 */
function lineText(mod, fen, moves, notation) {
  return mod.line && notation ? mod.line(fen, moves, notation) : moves;
}

// The notation and ply the panel was last drawn with, for its redraws while the engine runs.
let shownNotation = '';
/** @type {number | null} */
let shownPly = null;

/**
 * The panel: a button before, progress while it runs, the graph, the count
 * of labels per side and a row per move after.
 * @param {import('./kinds.js').GameState} state @param {string} id
 * @param {Partial<import('./kinds.js').GameModule>} mod @param {string} [notation] the move list's notation
 * @param {number | null} [replayPly] the ply the game's board shows (null: the end)
 */
export function analysisHtml(state, id, mod, notation = shownNotation, replayPly = shownPly) {
  shownNotation = notation;
  shownPly = replayPly;
  if (!canAnalyse(state, mod)) return '';
  const run = runs.get(id);
  if (!run) return `<div class="analysis" id="analysis"><button data-analyse="${esc(id)}" data-testid="analyse">${t('analyse')}</button></div>`;
  const rec = state.records || [];
  if (run.error) return `<div class="analysis err" id="analysis">${esc(run.error)}</div>`;
  if (!run.done) return `<div class="analysis" id="analysis"><span class="muted" data-testid="analysis-progress">${t('analysing')} ${run.plies.length}/${rec.length + 1}</span></div>`;
  const marks = judge(run.plies, rec);
  const shown = replayPly == null ? rec.length : replayPly;
  // Each move and the engine's best line in the move list's notation, from the position before it.
  const start = state.start_fen || (mod.analysis ? mod.analysis.start : '');
  const fenBefore = (/** @type {number} */ i) => (i ? rec[i - 1].fen : start);
  const moveName = (/** @type {number} */ i) => (rec[i][notation] || rec[i].iccs);
  const iccs = rec.map((m) => String(m.iccs));
  const rows = rec.map((m, i) => {
    const before = run.plies[i], after = run.plies[i + 1] || {};
    const mark = marks.find((d) => d.ply === i + 1);
    const label = mark ? mark.label : '';
    const pv = before && before.best ? lineText(mod, fenBefore(i), (before.pv && before.pv.length ? before.pv : [before.best]).slice(0, 5), notation) : [];
    const link = studyLink(state.game, state.start_fen || start, iccs, i + 1);
    const badge = label ? `<span class="judgement ${label}" data-testid="judgement" data-label="${label}">${GLYPH[label]} ${t(`judge_${label}`)}</span>` : '';
    return `<tr class="review-row${label ? ` ${label}` : ''}${shown === i + 1 ? ' cur' : ''}" data-review-ply="${i + 1}" data-testid="review-row"><td class="muted">${Math.floor(i / 2) + 1}${i % 2 ? '…' : '.'}</td><td>${esc(moveName(i))}${link ? ` <a href="${esc(link)}" class="review-board" data-testid="review-board" title="${esc(t('review_open_board'))}" aria-label="${esc(t('review_open_board'))}">⇗</a>` : ''}</td><td>${badge}</td><td>${esc(scoreText(after))}</td><td class="muted" data-testid="best-line">${esc(pv.length ? `${t('best')} ${pv[0]}${t('colon')}${pv.join(' ')}` : '')}</td></tr>`;
  }).join('');
  // Per side: how many of each label.
  const sides = /** @type {[string, number][]} */ ([['red', 1], ['black', -1]]).map(([side, sign]) => {
    const mine = marks.filter((d) => (((rec[d.ply - 1] || {}).seat === 'black') ? -1 : 1) === sign);
    const n = (/** @type {string} */ l) => mine.filter((d) => d.label === l).length;
    return `<span class="review-side" data-testid="review-${side}">${t(side)}${t('colon')}${t('review_counts', { i: n('inaccuracy'), m: n('mistake'), b: n('blunder') })}</span>`;
  }).join('');
  return `<div class="analysis" id="analysis" data-testid="analysis"><h3>${t('analysis')} <span class="muted small">(${t('review_budget', { d: MAX_DEPTH, s: BUDGET_MS / 1000 })})</span></h3>${graph(run.plies, rec, marks, shown)}
    <p class="review-summary" data-testid="review-summary">${sides}</p><p class="muted small">${t('review_hint')}</p>
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
    if (box) box.outerHTML = analysisHtml(state, id, mod, shownNotation, shownPly);
    else if (rerender) rerender();
  };
  worker.postMessage({ variant: state.game, fen: state.start_fen || mod.analysis.start, moves: (state.records || []).map((m) => m.iccs), depth: MAX_DEPTH, budgetMs: BUDGET_MS });
}

/**
 * @typedef {{ state: import('./kinds.js').GameState | null, id: string, rerender?: () => void, mod: Partial<import('./kinds.js').GameModule> | null, notation?: string, goto?: (ply: number) => void }} Shown
 */
/** @type {() => Shown | null} */
let current = () => null;
let bound = false;
/** Binds the analyse button and the review's clicks: `current()` gives `{ state, id, rerender, mod, goto }` of the game shown (`goto` shows a ply on its board). @param {() => Shown | null} get */
export function bindAnalysis(get) {
  current = get;
  // One listener for the page's life, whatever game is shown.
  if (bound) return;
  bound = true;
  document.addEventListener('click', (e) => {
    const el = /** @type {Element} */ (e.target);
    if (!el.closest) return;
    // A row or the graph: that position on the game's board (a row's link goes to the analysis board).
    const at = /** @type {HTMLElement | null} */ (el.closest('#analysis [data-review-ply]'));
    if (at && !el.closest('a')) {
      const shown = current();
      if (shown && shown.goto) shown.goto(Number(at.dataset.reviewPly));
      return;
    }
    const b = /** @type {HTMLElement | null} */ (el.closest('[data-analyse]'));
    if (!b) return;
    const c = current();
    if (c && c.state && c.id === b.dataset.analyse && !runs.has(c.id) && c.mod) { start(c.state, c.id, c.rerender, c.mod); if (c.rerender) c.rerender(); }
  });
}
