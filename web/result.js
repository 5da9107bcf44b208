// @ts-check
// The panel at a game's end: who won and why, in the UI's language (the
// server's explanations are "中文 / English": the UI's half is shown), the
// rating changes (GET /api/games/{id}/ratings) and rematch / new-game buttons.
import { t } from './i18n.js';
import { esc, ownHalf, reasonText } from './util.js';
import { titleBadge } from './titles.js';

/** The winning seat index of a two-seat result ('red' / 'black'), null for a draw or unknown. */
export function winnerSeat(state) {
  if (state.result === 'red') return 0;
  if (state.result === 'black') return 1;
  return null;
}

/**
 * How a finished game went for the viewer: 'won', 'lost' or 'draw'; null
 * for a spectator, an aborted game or a game still in play. The module's
 * `viewerResult` has the say; by default the server's placings (best
 * first): one group is a draw, the first group won, any other lost.
 * @param {Record<string, any>} state
 * @param {any} mod
 * @returns {'won' | 'lost' | 'draw' | null}
 */
export function viewerResult(state, mod) {
  const mine = state.seat;
  if (mine == null || state.status !== 'finished' || state.result === 'aborted') return null;
  if (mod && mod.viewerResult) return mod.viewerResult(state);
  const pl = state.placings;
  if (Array.isArray(pl) && pl.length) {
    if (pl.length === 1) return 'draw';
    if ((pl[0] || []).includes(mine)) return 'won';
    return pl.some((/** @type {number[]} */ g) => g.includes(mine)) ? 'lost' : null;
  }
  if (state.result === 'draw') return 'draw';
  const win = winnerSeat(state);
  return win == null ? null : win === mine ? 'won' : 'lost';
}

/** Who won, in words: the module's say, but an aborted game has no winner in any game. */
function whoWon(state, mod, ctx) {
  if (state.result === 'aborted') return t('result_aborted');
  return mod && mod.result ? mod.result(state, t, ctx) : t('result_' + state.result);
}

/** Why the game ended, unless the result says it already ("Game aborted · aborted"). */
function endReason(state) {
  return state.result === 'aborted' && state.reason === 'aborted' ? '' : reasonText(state.reason);
}

/** The short result line: "Red wins · checkmate" in the UI's language. */
export function resultLine(state, mod, ctx) {
  const who = whoWon(state, mod, ctx);
  // A module that explains the end in its own words (see resultPanel) has
  // no use for the shared reason word, which may not fit its game.
  const own = mod && mod.explain ? mod.explain(state, t, ctx) : null;
  const why = own ? '' : endReason(state);
  return why ? `${who} · ${why}` : who;
}

/**
 * The rating changes of a finished game: {rated, changes}, or null where the
 * server has none to give (404: an older server; unrated). `changes` may be
 * empty for a moment while ratings are worked out: asked again a few times.
 */
/** @param {string} id @param {{ tries?: number, wait?: number, alive?: () => boolean }} [opts] */
export async function ratingChanges(id, { tries = 8, wait = 400, alive = () => true } = {}) {
  for (let i = 0; i < tries && alive(); i++) {
    let r;
    try { r = await fetch(`/api/games/${encodeURIComponent(id)}/ratings`, { credentials: 'same-origin' }); } catch { return null; }
    if (!r.ok) return null;
    let data;
    try { data = await r.json(); } catch { return null; }
    if (!data || !data.rated) return null;
    if (Array.isArray(data.changes) && data.changes.length) return data;
    await new Promise((res) => setTimeout(res, wait));
  }
  return null;
}

/** One line per rating change: "name 1000 → 1016 (+16) 草民". */
function ratingLines(ratings) {
  if (!ratings || !ratings.changes) return '';
  const rows = ratings.changes.map((c) => {
    const d = Math.round(c.after - c.before);
    const cls = d > 0 ? 'up' : d < 0 ? 'down' : '';
    return `<div class="rating-change" data-testid="rating-change" data-seat="${Number(c.seat)}">${esc(c.username)}: ${Math.round(c.before)} → <b>${Math.round(c.after)}</b> <span class="delta ${cls}">(${d > 0 ? '+' : d < 0 ? '−' : '±'}${Math.abs(d)})</span> ${titleBadge({ rating: Math.round(c.after), title: c.title, title_en: c.title_en })}</div>`;
  });
  return `<div class="ratings-box"><div class="muted">${t('rating_change')}</div>${rows.join('')}</div>`;
}

/** The result panel's HTML. `ratings`: from ratingChanges (null: no line). */
export function resultPanel(state, mod, ctx, ratings) {
  const mine = state.seat;
  let head = whoWon(state, mod, ctx);
  // The viewer's side first: "You lost · Blue wins".
  const mineWent = viewerResult(state, mod);
  const tone = mineWent || 'draw';
  if (mineWent === 'won' || mineWent === 'lost') head = `${t(mineWent === 'won' ? 'you_won' : 'you_lost')} · ${head}`;
  // What happened, in words: the module's own sentence (names and colours
  // from the page's catalogue; it says the reason too), else the reason
  // word and the server's sentence in the page's language.
  const own = mod && mod.explain ? mod.explain(state, t, ctx) : null;
  const why = own ? '' : endReason(state);
  const half = own || ownHalf(state.explanation);
  const expl = half ? half[0].toUpperCase() + half.slice(1) : '';
  const b = [];
  if (mine != null) {
    if (state.rematch_id) b.push(`<a class="button" href="#/game/${esc(state.rematch_id)}" data-testid="rematch-link">${t('rematch')} →</a>`);
    else {
      const asked = state.rematch_offer != null && state.rematch_offer !== mine;
      const sent = state.rematch_offer === mine;
      b.push(`<button class="primary" data-f="rematch" data-testid="rematch"${sent ? ' disabled' : ''}>${asked ? t('accept_rematch') : t('rematch')}</button>${asked ? ` <span class="muted">${t('rematch_offered')}</span>` : sent ? ` <span class="muted">${t('rematch_sent')}</span>` : ''}`);
    }
  }
  b.push(`<button data-f="new-game" data-testid="new-game">${t('new_game')}</button>`);
  return `<div class="result-panel ${tone}" data-testid="result-panel">
    <div class="result-head" data-testid="result-head">${esc(head)}</div>
    ${why ? `<div class="result-reason" data-testid="result-reason">${esc(why)}</div>` : ''}
    ${half && half !== state.reason ? `<div class="result-expl muted" data-testid="result-explanation">${esc(expl)}</div>` : ''}
    ${ratingLines(ratings)}
    <div class="buttons">${b.join(' ')}</div></div>`;
}

