// @ts-check
// The opening explorer on the analysis board: for the position shown, the
// moves played from it in the hall's finished rated games of the variant
// (GET /api/explorer), each with how often, how it went for the side that
// played it (a won/drawn/lost bar) and the players' average rating, in the
// page's notation; a move clicked is played into the board's tree.
// The engine's view beside them: the browser's engine (engine-worker.js, the
// board's WebAssembly engine) searches the position after each listed move
// one ply shallower than the position itself (its best move), so the rows
// and the best move agree, deeper round after round within a short budget;
// the scores are red's, as the board's engine lines show them.
import { t } from './i18n.js';
import { api, esc } from './util.js';

/** Answers already read, by variant and position (a session's worth). */
const cache = new Map();
const CACHE_MAX = 200;
/** The engine's view, by variant and position: the last round's answers, and whether it is complete. */
const evals = new Map();
const EVALS_MAX = 300;
/** The rounds: deeper while each costs less than a third of this, at most this deep. */
const EVAL_BUDGET_MS = 1500;
const EVAL_DEPTH = 9;
/** Where the engine view's switch is kept. */
const ENGINE_KEY = 'qy-explorer-engine';

/** A score for red as people read it: +1.25, or #3 (red mates in three), #-3. @param {any} r */
export function evalText(r) {
  if (r.mate != null) return `#${r.mate > 0 ? '' : '-'}${Math.ceil(Math.abs(r.mate) / 2)}`;
  const s = (Number(r.score) || 0) / 100;
  return (s > 0 ? '+' : '') + s.toFixed(2);
}

/**
 * @param {HTMLElement} box
 * @param {import('./study-collection.js').BoardLink} board
 * @returns {{ update: () => void, stop: () => void }}
 */
export function mountExplorer(box, board) {
  box.innerHTML = `<details class="explorer" data-testid="explorer" open><summary>${t('explorer_title')} <span class="muted small" id="ex-total" data-testid="explorer-total"></span></summary>
    <label class="small ex-engine-on"><input type="checkbox" id="ex-engine-on" data-testid="explorer-engine-toggle"${localStorage.getItem(ENGINE_KEY) === 'off' ? '' : ' checked'}> ${t('explorer_engine_on')}</label>
    <div id="ex-body" data-testid="explorer-moves"></div></details>`;
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (box.querySelector(`#${id}`));
  let shown = '', timer = 0, stopped = false;
  /** The explorer's own engine worker (stopped when the position changes). @type {Worker | null} */
  let worker = null;
  /** The answer drawn last, kept to draw again as the engine's answers come. @type {{ fen: string, r: any } | null} */
  let last = null;
  const engineOn = () => /** @type {HTMLInputElement} */ ($('ex-engine-on')).checked;
  const stopWorker = () => { if (worker) worker.terminate(); worker = null; };
  const evalKey = (/** @type {string} */ fen) => `${board.variant} ${fen}`;
  /** Searches `fen` and its listed `moves`, unless a finished round has them all. */
  function evaluate(/** @type {string} */ fen, /** @type {string[]} */ moves) {
    stopWorker();
    const known = evals.get(evalKey(fen));
    if (!engineOn() || (known && (known.done || known.error) && moves.every((m) => known.rows[m]))) return;
    let w;
    try { w = new Worker('/static/engine-worker.js'); } catch { return; }
    worker = w;
    w.onmessage = (e) => {
      const r = e.data;
      if (worker !== w || !r || !(r.each || r.error)) return;
      const got = evals.get(evalKey(fen)) || { root: null, rows: {}, done: false, error: '' };
      if (r.error) { got.error = String(r.error); stopWorker(); }
      else if (r.done) { got.done = true; stopWorker(); }
      else {
        got.root = r.root;
        got.rows = {};
        for (const row of r.rows || []) got.rows[row.move] = row;
        got.done = false;
      }
      if (!evals.has(evalKey(fen)) && evals.size >= EVALS_MAX) evals.delete(evals.keys().next().value);
      evals.set(evalKey(fen), got);
      if (!stopped && last && last.fen === fen && fen === fenNow()) draw(fen, last.r);
    };
    w.postMessage({ each: true, variant: board.variant, fen, moves, maxDepth: EVAL_DEPTH, budgetMs: EVAL_BUDGET_MS });
  }

  const fenNow = () => {
    const tr = board.tree();
    return String(/** @type {any} */ (tr.nodes[tr.cur]).fen);
  };
  /** @param {string} fen @param {any} r */
  function draw(fen, r) {
    last = { fen, r };
    const total = Number(r.games) || 0;
    $('ex-total').textContent = total ? t('explorer_games', { n: total }) : '';
    if (!r.moves || !r.moves.length) { stopWorker(); $('ex-body').innerHTML = `<p class="muted small" data-testid="explorer-empty">${t('explorer_none')}</p>`; return; }
    const legal = board.study.legal(fen);
    const rows = r.moves.filter((/** @type {any} */ m) => legal.includes(m.move));
    const on = engineOn();
    const name = (/** @type {string} */ at, /** @type {string} */ mv) => board.study.name(at, mv, board.notation());
    // The engine's best move for the position, in the page's notation.
    const got = on ? evals.get(evalKey(fen)) : null;
    const top = got && got.root;
    const bestMove = top && top.best && legal.includes(String(top.best)) ? String(top.best) : '';
    const head = !on ? '' : got && got.error ? `<p class="err small">${esc(got.error)}</p>`
      : bestMove ? `<p class="small ex-best" data-testid="explorer-engine-best" data-move="${esc(bestMove)}"${got && got.done ? ' data-done' : ''}>${esc(t('explorer_engine_best', { move: name(fen, bestMove), score: evalText(top), depth: top.depth }))}</p>`
      : `<p class="small muted ex-best" data-testid="explorer-engine-thinking">${t('engine_thinking')}</p>`;
    const pct = (/** @type {number} */ n, /** @type {number} */ of) => (of ? (100 * n) / of : 0);
    const moverRed = board.study.turn(fen).first;
    /** The engine's cell of a row: the score after the move; its title the reply expected. */
    const evalCell = (/** @type {string} */ mv) => {
      const e = got && got.rows[mv];
      if (!e) return `<td class="ex-eval muted" data-testid="explorer-eval">${got && got.error ? '—' : '…'}</td>`;
      const mark = mv === bestMove ? ` <span data-testid="explorer-engine-mark" aria-label="${esc(t('explorer_engine_mark'))}">★</span>` : '';
      // No move after it: the game is over, won by the mover (no legal move loses).
      if (e.over) return `<td class="ex-eval${mark ? ' ex-top' : ''}" data-testid="explorer-eval">${esc(moverRed ? '#' : '#-')}${mark}</td>`;
      const after = board.study.play(fen, mv);
      const reply = e.best && board.study.legal(after).includes(String(e.best)) ? t('explorer_engine_reply', { move: name(after, String(e.best)), depth: e.depth }) : '';
      return `<td class="ex-eval${mark ? ' ex-top' : ''}" data-testid="explorer-eval" title="${esc(reply)}">${esc(evalText(e))}${mark}</td>`;
    };
    $('ex-body').innerHTML = `${head}<table class="ex-table"><thead><tr><th>${t('explorer_move')}</th><th>${t('explorer_count')}</th><th>${t('explorer_results')}</th><th>${t('explorer_rating')}</th>${on ? `<th title="${esc(t('explorer_engine_title'))}">${t('explorer_engine')}</th>` : ''}</tr></thead><tbody>${rows.map((/** @type {any} */ m) => {
      const n = Number(m.games) || 0, w = Number(m.wins) || 0, d = Number(m.draws) || 0, l = Number(m.losses) || 0;
      const title = t('explorer_wdl', { w, d, l });
      return `<tr data-ex="${esc(m.move)}" data-testid="explorer-move" title="${esc(t('explorer_play'))}">
        <td class="ex-move">${esc(name(fen, m.move))}</td>
        <td class="ex-count" data-testid="explorer-count">${n}</td>
        <td><div class="ex-bar" data-testid="explorer-bar" title="${esc(title)}" aria-label="${esc(title)}"><span class="ex-w" style="width:${pct(w, n).toFixed(1)}%">${w ? Math.round(pct(w, n)) + '%' : ''}</span><span class="ex-d" style="width:${pct(d, n).toFixed(1)}%">${d && pct(d, n) >= 15 ? Math.round(pct(d, n)) + '%' : ''}</span><span class="ex-l" style="width:${pct(l, n).toFixed(1)}%">${l ? Math.round(pct(l, n)) + '%' : ''}</span></div></td>
        <td class="ex-rating muted">${m.rating == null ? '—' : Number(m.rating)}</td>${on ? evalCell(m.move) : ''}</tr>`;
    }).join('')}</tbody></table>`;
    if (on && !worker) evaluate(fen, rows.map((/** @type {any} */ m) => String(m.move)));
  }
  async function load(/** @type {string} */ fen) {
    const key = `${board.variant} ${fen}`;
    let r = cache.get(key);
    if (!r) {
      try {
        r = await api('GET', `/api/explorer?variant=${encodeURIComponent(board.variant)}&fen=${encodeURIComponent(fen)}`);
      } catch (e) {
        if (!stopped && fen === fenNow()) $('ex-body').innerHTML = `<p class="err small">${esc(/** @type {Error} */ (e).message)}</p>`;
        return;
      }
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value);
      cache.set(key, r);
    }
    if (!stopped && fen === fenNow()) draw(fen, r);
  }
  const update = () => {
    const fen = fenNow();
    const key = `${fen} ${board.notation()}`;
    if (key === shown) return;
    shown = key;
    clearTimeout(timer);
    stopWorker();
    // Stepping through a line asks once it rests.
    timer = window.setTimeout(() => load(fen), 120);
  };
  const onClick = (/** @type {MouseEvent} */ e) => {
    const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('[data-ex]'));
    if (row) board.play(String(row.dataset.ex));
  };
  const onChange = (/** @type {Event} */ e) => {
    if (/** @type {HTMLElement} */ (e.target).id !== 'ex-engine-on') return;
    localStorage.setItem(ENGINE_KEY, engineOn() ? 'on' : 'off');
    if (!engineOn()) stopWorker();
    if (last && last.fen === fenNow()) draw(last.fen, last.r);
  };
  box.addEventListener('click', onClick);
  box.addEventListener('change', onChange);
  return {
    update,
    stop: () => { stopped = true; clearTimeout(timer); stopWorker(); box.removeEventListener('click', onClick); box.removeEventListener('change', onChange); },
  };
}
