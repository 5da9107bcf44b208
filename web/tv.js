// @ts-check
// TV (#/tv): the featured game in play of each kind, from GET /api/tv: the
// players with their ratings, the clocks, how many watch, and a link to
// watch it. Asked again every few seconds, so a featured game that ends
// gives way to the next one.
import { t } from './i18n.js';
import { esc, byId, api } from './util.js';

const EVERY_MS = 5000;

/** Remaining time as m:ss. */
function clock(ms) {
  const s = Math.max(0, Math.ceil((ms || 0) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** One featured game as a table row. */
function row(g) {
  const who = (p) => `${p.name ? `<a href="#/user/${encodeURIComponent(p.name)}">${esc(p.name)}</a>` : esc(t('ai_named', { n: p.ai_level }))} <span class="muted">· ${esc(p.rating)}</span>`;
  const clocks = (g.clocks || []).map((ms, i) => ((g.running_seats || []).includes(i) ? `<b>${clock(ms)}</b>` : clock(ms))).join(' · ');
  return `<tr data-testid="tv-${esc(g.kind)}"><td>${esc(t(g.game))}</td><td>${g.players.map(who).join(` ${t('vs')} `)}</td>
    <td title="${t('tv_mean')}">${esc(g.rating)}</td><td>${clocks}</td><td class="muted">${t('tv_watchers').replace('{n}', esc(g.watchers))}</td>
    <td><a href="#/game/${encodeURIComponent(g.id)}">${t('watch')}</a></td></tr>`;
}

/** `#/tv`: returns the cleanup that stops the refreshing. */
export function tvView(view) {
  view.innerHTML = `<div class="card"><h2>${t('tv_title')}</h2><div id="tv" data-testid="tv">…</div></div>`;
  let timer = 0;
  let stopped = false;
  async function show() {
    try {
      const d = await api('GET', '/api/tv');
      if (stopped) return;
      byId('tv').innerHTML = d.featured.length
        ? `<table>${d.featured.map(row).join('')}</table>`
        : `<p class="muted">${t('tv_none')}</p>`;
    } catch (e) {
      if (!stopped) byId('tv').innerHTML = `<p class="err">${esc(/** @type {Error} */ (e).message)}</p>`;
    }
    if (!stopped) timer = window.setTimeout(show, EVERY_MS);
  }
  show();
  return () => { stopped = true; window.clearTimeout(timer); };
}
