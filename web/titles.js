// @ts-check
// Rank titles (H2) next to names: ratings come from /api/ratings per game
// family, cached briefly so the lobby's live updates do not refetch each time.
import { t, getLang } from './i18n.js';

const cache = new Map(); // `${game}|${name}` -> {info, at}
const TTL = 30000;

function esc(s) { return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

/** The key /api/ratings knows a seat by: the user name or `ai:N`. */
export function seatKey(s) {
  if (!s) return null;
  if (s.kind === 'user') return s.name;
  if (s.kind === 'ai') return `ai:${s.level}`;
  return null;
}

/** The badge for a rating: the Chinese title, with its English gloss in the English UI. */
export function titleBadge(info) {
  if (!info) return '';
  const label = getLang() === 'en' ? `${info.title} ${info.title_en}` : info.title;
  return `<span class="rank-title" data-testid="rank-title" title="${esc(t('rating'))} ${info.rating}">${esc(label)} · ${info.rating}</span>`;
}

/** Ratings of `names` in `game`'s family: {name: {rating,title,title_en,games}}. */
export async function fetchRatings(game, names) {
  const now = Date.now();
  const want = [...new Set(names.filter(Boolean))];
  const missing = want.filter((n) => { const c = cache.get(`${game}|${n}`); return !c || now - c.at > TTL; });
  if (missing.length) {
    try {
      const r = await fetch(`/api/ratings?game=${encodeURIComponent(game)}&players=${missing.map(encodeURIComponent).join(',')}`);
      const data = r.ok ? await r.json() : {};
      for (const n of missing) cache.set(`${game}|${n}`, { info: data[n] || null, at: now });
    } catch { /* titles are decoration: the names still show */ }
  }
  const out = {};
  for (const n of want) { const c = cache.get(`${game}|${n}`); if (c && c.info) out[n] = c.info; }
  return out;
}

/** Fills every `[data-rname][data-rgame]` element under `root` with its title badge. */
export async function decorate(root) {
  const els = [...root.querySelectorAll('[data-rname][data-rgame]')];
  const byGame = new Map();
  for (const e of els) {
    const g = e.dataset.rgame;
    if (!byGame.has(g)) byGame.set(g, []);
    byGame.get(g).push(e.dataset.rname);
  }
  for (const [game, names] of byGame) {
    const info = await fetchRatings(game, names);
    for (const e of els) if (e.dataset.rgame === game) e.innerHTML = titleBadge(info[e.dataset.rname]);
  }
}

/** Drops the cached ratings of `names` (every family): a game of theirs just ended. */
export function forget(names) {
  for (const key of [...cache.keys()]) if (names.includes(key.slice(key.indexOf('|') + 1))) cache.delete(key);
}

/** A placeholder that `decorate` fills: put it right after a name. Guests have no rating to wear. */
export function titleSlot(game, seat) {
  if (seat && seat.kind === 'user' && /^guest-/i.test(seat.name || '')) return '';
  const k = seatKey(seat);
  return k ? ` <span data-rname="${esc(k)}" data-rgame="${esc(game)}"></span>` : '';
}
