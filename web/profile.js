// @ts-check
// The parts of a profile that speak from its owner's side: each game's
// result for the owner (won, lost, drawn, with the seat played, or the
// place among several), the totals per game kind, and game points only for
// the kinds that settle them and the owner played (the server lists those).
import { t } from './i18n.js';
import { hooksOf } from './kinds.js';
import { esc, reasonText, whenText } from './util.js';

/**
 * The seat the owner played, in words: its colour where the game's module
 * knows it from the variant alone (red, black, blue …), else first or
 * second to move; nothing for games of more than two seats (the place says it).
 * @param {any} g a profile game
 */
export function seatText(g) {
  const n = (g.seats || []).length;
  if (g.seat == null || n > 2) return '';
  const mod = hooksOf(g.game);
  let side = null;
  try { side = mod.sideOf ? mod.sideOf({ game: g.game, seats: g.seats, records: [] }, g.seat) : g.seat === 0 ? 'red' : 'black'; } catch { side = null; }
  const key = side ? 'played_' + side : '';
  if (side && t(key) !== key) return t(key);
  return t(g.seat === 0 ? 'played_first' : 'played_second');
}

/**
 * The result from the owner's side: 胜/负/和 (Won/Lost/Drawn), the place in
 * a game of several, the seat played; the game's status while unfinished.
 * @param {any} g a profile game
 */
export function outcomeCell(g) {
  if (!g.outcome) {
    const key = g.result === 'aborted' ? 'result_aborted' : 'hist_status_' + g.status;
    return `<span class="muted">${esc(t(key) === key ? g.status : t(key))}</span>`;
  }
  const many = (g.seats || []).length > 2;
  const word = `<b class="outcome ${esc(g.outcome)}" data-testid="history-outcome">${t('outcome_' + g.outcome)}</b>`;
  const place = many && g.place ? ` · ${t('place_of').replace('{n}', String(g.place)).replace('{of}', String(g.seats.length))}` : '';
  const seat = seatText(g);
  return `${word}${place}${seat ? ` <span class="muted" data-testid="history-seat">· ${esc(seat)}</span>` : ''}`;
}

/** The kind (rating family) id of a kind or variant name, as the totals key them. @param {string} id */
const kindName = (id) => t(id);

/**
 * Won / drawn / lost per game kind, a row each (nothing before a first game).
 * @param {any} p the profile
 */
export function totalsHtml(p) {
  const rows = Object.entries(p.totals || {});
  if (!rows.length) return '';
  return `<h3>${t('totals')}</h3><table class="totals" data-testid="totals"><tr><th>${t('game')}</th><th>${t('outcome_won')}</th><th>${t('outcome_drawn')}</th><th>${t('outcome_lost')}</th><th>${t('games_played')}</th></tr>
    ${rows.map(([kind, n]) => `<tr data-testid="totals-${esc(kind)}"><td>${esc(kindName(kind))}</td><td>${Number(n.won)}</td><td>${Number(n.drawn)}</td><td>${Number(n.lost)}</td><td>${Number(n.won) + Number(n.drawn) + Number(n.lost)}</td></tr>`).join('')}</table>`;
}

/**
 * Game points, a line per ledger the server lists (only kinds the owner
 * played), named after the kind that settles them.
 * @param {any} p the profile
 * @param {{ family: string, kind: string }[]} ledgers every ledger (kinds.js)
 */
export function pointsHtml(p, ledgers) {
  return Object.entries(p.points || {}).map(([family, n]) => {
    const l = ledgers.find((x) => x.family === family);
    const name = kindName(l ? l.kind : family);
    return `<p data-testid="${esc(family)}-points">${esc(t('points_of').replace('{game}', name))}: <b>${Number(n)}</b> <a href="#/leaderboard/${encodeURIComponent(family)}-points" class="small">${t('leaderboard')}</a></p>`;
  }).join('');
}

/**
 * The history table: game, the players, the owner's result, why it ended, when.
 * @param {any} p the profile
 * @param {(g: any) => string} seatsLine the players of a game (app.js)
 */
export function historyHtml(p, seatsLine) {
  const games = p.games || [];
  if (!games.length) return `<h3>${t('history')}</h3><p class="muted">${t('none')}</p>`;
  return `<h3>${t('history')}</h3><table class="history" data-testid="history">${games.map((g) => `<tr data-testid="history-row">
    <td><a href="#/game/${esc(g.id)}">${esc(t(g.game))}</a></td><td>${seatsLine(g)}</td>
    <td>${outcomeCell(g)}</td><td class="muted" data-testid="history-reason">${esc(reasonText(g.reason))}</td>
    <td class="muted small">${whenText(g.created_ms)}</td></tr>`).join('')}</table>`;
}

