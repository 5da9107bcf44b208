// @ts-check
// The opening explorer on the analysis board: for the position shown, the
// moves played from it in the hall's finished rated games of the variant
// (GET /api/explorer), each with how often, how it went for the side that
// played it (a won/drawn/lost bar) and the players' average rating, in the
// page's notation; a move clicked is played into the board's tree.
import { t } from './i18n.js';
import { api, esc } from './util.js';

/** Answers already read, by variant and position (a session's worth). */
const cache = new Map();
const CACHE_MAX = 200;

/**
 * @param {HTMLElement} box
 * @param {import('./study-collection.js').BoardLink} board
 * @returns {{ update: () => void, stop: () => void }}
 */
export function mountExplorer(box, board) {
  box.innerHTML = `<details class="explorer" data-testid="explorer" open><summary>${t('explorer_title')} <span class="muted small" id="ex-total" data-testid="explorer-total"></span></summary>
    <div id="ex-body" data-testid="explorer-moves"></div></details>`;
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (box.querySelector(`#${id}`));
  let shown = '', timer = 0, stopped = false;

  const fenNow = () => {
    const tr = board.tree();
    return String(/** @type {any} */ (tr.nodes[tr.cur]).fen);
  };
  /** @param {string} fen @param {any} r */
  function draw(fen, r) {
    const total = Number(r.games) || 0;
    $('ex-total').textContent = total ? t('explorer_games', { n: total }) : '';
    if (!r.moves || !r.moves.length) { $('ex-body').innerHTML = `<p class="muted small" data-testid="explorer-empty">${t('explorer_none')}</p>`; return; }
    const legal = board.study.legal(fen);
    const pct = (/** @type {number} */ n, /** @type {number} */ of) => (of ? (100 * n) / of : 0);
    $('ex-body').innerHTML = `<table class="ex-table"><thead><tr><th>${t('explorer_move')}</th><th>${t('explorer_count')}</th><th>${t('explorer_results')}</th><th>${t('explorer_rating')}</th></tr></thead><tbody>${r.moves.filter((/** @type {any} */ m) => legal.includes(m.move)).map((/** @type {any} */ m) => {
      const n = Number(m.games) || 0, w = Number(m.wins) || 0, d = Number(m.draws) || 0, l = Number(m.losses) || 0;
      const title = t('explorer_wdl', { w, d, l });
      return `<tr data-ex="${esc(m.move)}" data-testid="explorer-move" title="${esc(t('explorer_play'))}">
        <td class="ex-move">${esc(board.study.name(fen, m.move, board.notation()))}</td>
        <td class="ex-count" data-testid="explorer-count">${n}</td>
        <td><div class="ex-bar" data-testid="explorer-bar" title="${esc(title)}" aria-label="${esc(title)}"><span class="ex-w" style="width:${pct(w, n).toFixed(1)}%">${w ? Math.round(pct(w, n)) + '%' : ''}</span><span class="ex-d" style="width:${pct(d, n).toFixed(1)}%">${d && pct(d, n) >= 15 ? Math.round(pct(d, n)) + '%' : ''}</span><span class="ex-l" style="width:${pct(l, n).toFixed(1)}%">${l ? Math.round(pct(l, n)) + '%' : ''}</span></div></td>
        <td class="ex-rating muted">${m.rating == null ? '—' : Number(m.rating)}</td></tr>`;
    }).join('')}</tbody></table>`;
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
    // Stepping through a line asks once it rests.
    timer = window.setTimeout(() => load(fen), 120);
  };
  const onClick = (/** @type {MouseEvent} */ e) => {
    const row = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('[data-ex]'));
    if (row) board.play(String(row.dataset.ex));
  };
  box.addEventListener('click', onClick);
  return {
    update,
    stop: () => { stopped = true; clearTimeout(timer); box.removeEventListener('click', onClick); },
  };
}
