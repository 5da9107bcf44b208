// @ts-check
// Leaderboard per game family and the rating chart on profiles.
import { t } from './i18n.js';
import { titleBadge } from './titles.js';
import { ratingFamilies, pointsFamilies } from './kinds.js';
import { byId, api } from './util.js';


function esc(s) { return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

/**
 * Every leaderboard tab: a rating family each, then a points ledger each
 * (`{family}-points`, named after the kind that settles it), all from the
 * kinds the server lists.
 * @returns {{ id: string, label: string, points: boolean }[]}
 */
export function leaderboardTabs() {
  return [
    ...ratingFamilies().map((g) => ({ id: g, label: t(g), points: false })),
    ...pointsFamilies().map((l) => ({ id: `${l.family}-points`, label: t('points_of').replace('{game}', t(l.kind)), points: true })),
  ];
}

/** `#/leaderboard/{game}`: a rating family's top 100, or a points ledger's. */
export async function leaderboardView(view, game) {
  const tabs = leaderboardTabs();
  game = game || (tabs[0] && tabs[0].id);
  const tab = tabs.find((x) => x.id === game);
  const links = tabs.map((x) => `<a href="#/leaderboard/${esc(x.id)}" class="${x.id === game ? 'cur' : ''}" data-testid="lb-tab-${esc(x.id)}">${esc(x.label)}</a>`).join('');
  view.innerHTML = `<div class="card"><h2>${t('leaderboard')}</h2><p class="lb-tabs">${links}</p><div id="lb">…</div></div>`;
  try {
    const d = await api('GET', `/api/leaderboard/${encodeURIComponent(game)}`);
    const user = (name) => `<a href="#/user/${encodeURIComponent(name)}">${esc(name)}</a>`;
    if (tab && tab.points) {
      byId('lb').innerHTML = d.players.length
        ? `<table data-testid="leaderboard"><tr><th>#</th><th>${t('username')}</th><th>${t('points')}</th></tr>${d.players.map((row) => `<tr><td>${row.rank}</td><td>${user(row.username)}</td><td>${Number(row.points)}</td></tr>`).join('')}</table>`
        : `<p class="muted">${t('none')}</p>`;
      return;
    }
    byId('lb').innerHTML = d.rows.length
      ? `<table data-testid="leaderboard"><tr><th>#</th><th>${t('username')}</th><th>${t('title')}</th><th>${t('rating')}</th><th>${t('rated_games')}</th></tr>${d.rows.map((row) => `<tr><td>${row.rank}</td><td>${user(row.username)}</td><td>${titleBadge(row)}</td><td>${row.rating}</td><td>${row.games}</td></tr>`).join('')}</table>`
      : `<p class="muted">${t('none')}</p>`;
  } catch (e) { byId('lb').innerHTML = `<p class="err">${esc(e.message)}</p>`; }
}

/** An SVG line chart of one family's rating history (points: {rating, at_ms}). */
export function ratingChart(points) {
  if (!points.length) return `<p class="muted">${t('none')}</p>`;
  const W = 520, H = 180, P = 34;
  const vals = [1000, ...points.map((p) => p.rating)];
  let lo = Math.min(...vals), hi = Math.max(...vals);
  if (hi - lo < 50) { lo -= 25; hi += 25; }
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, vals.length - 1);
  const y = (v) => H - P + ((lo - v) * (H - 2 * P)) / (hi - lo);
  const path = vals.map((v, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const dots = vals.map((v, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5"><title>${Math.round(v)}</title></circle>`).join('');
  return `<svg class="chart" data-testid="rating-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${t('rating')}">
    <line x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}" class="axis"/><line x1="${P}" y1="${P}" x2="${P}" y2="${H - P}" class="axis"/>
    <text x="2" y="${y(hi) + 4}">${Math.round(hi)}</text><text x="2" y="${y(lo) + 4}">${Math.round(lo)}</text>
    <path d="${path}" class="line"/>${dots}</svg>`;
}

/** The ratings part of a profile: one line and chart per family. */
export function profileRatings(p) {
  const fams = Object.keys(p.ratings || {});
  if (!fams.length) return `<h3>${t('rating')}</h3><p class="muted">${t('no_rated_games')}</p>`;
  return `<h3>${t('rating')}</h3>${fams.map((f) => {
    const pts = (p.rating_history || []).filter((h) => h.game === f);
    return `<div class="card"><b>${esc(t(f))}</b> ${titleBadge(p.ratings[f])} <a href="#/leaderboard/${f}">${t('leaderboard')}</a>${ratingChart(pts)}</div>`;
  }).join('')}`;
}
