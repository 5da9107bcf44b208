// @ts-check
// A profile's results by opening (GET /api/users/{name}/openings): for kinds
// whose games have named openings, won/drawn/lost per opening code over the
// player's latest finished games; nothing when none has one.
import { t, getLang } from './i18n.js';
import { api, esc } from './util.js';

/**
 * Fills `box` with the player's table of openings.
 * @param {HTMLElement} box @param {string} name
 */
export async function loadOpenings(box, name) {
  let r;
  try { r = await api('GET', `/api/users/${encodeURIComponent(name)}/openings`); } catch { return; }
  const rows = r.openings || [];
  if (!rows.length || !box.isConnected) return;
  const zh = getLang() === 'zh';
  box.innerHTML = `<h3>${t('openings_title')}</h3><p class="muted small">${esc(t('openings_over', { n: Number(r.games) || 0 }))}</p>
    <table class="totals openings" data-testid="openings"><tr><th>${t('openings_code')}</th><th>${t('openings_name')}</th><th>${t('outcome_won')}</th><th>${t('outcome_drawn')}</th><th>${t('outcome_lost')}</th><th>${t('games_played')}</th></tr>
    ${rows.slice(0, 30).map((/** @type {any} */ o) => `<tr data-testid="opening-row"><td>${esc(o.code)}</td><td>${esc(zh ? o.name : o.name_en || o.name)}</td><td>${Number(o.won)}</td><td>${Number(o.drawn)}</td><td>${Number(o.lost)}</td><td>${Number(o.games)}</td></tr>`).join('')}</table>`;
}
