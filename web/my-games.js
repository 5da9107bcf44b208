// @ts-check
// One's own games: the header's badge (how many wait for one's move), the
// "My games" page (challenges to one, to accept or decline; one's waiting
// rooms, to cancel).
import { t } from './i18n.js';
import { api, esc, seatLabel, clockText, botBadge } from './util.js';

let timer = null;
let last = null;

/** Fetches one's games and updates the badge; the list, or null. */
export async function refreshMyGames() {
  let mine = null;
  try { mine = await api('GET', '/api/my/games'); } catch { mine = null; }
  last = mine;
  const badge = document.getElementById('my-badge');
  if (badge) {
    const n = mine ? mine.your_turn + mine.challenges.length : 0;
    badge.hidden = n === 0;
    badge.textContent = String(n);
    badge.title = mine ? t('my_games_turn').replace('{n}', mine.your_turn) : '';
  }
  // The phone's ☰ carries the same count while the links are folded.
  const mb = document.getElementById('menu-badge');
  if (mb && badge) { mb.hidden = badge.hidden; mb.textContent = badge.textContent; }
  return mine;
}

/** Keeps the badge fresh: now, every 15 s, and when the tab comes back. */
export function watchMyGames() {
  clearInterval(timer);
  refreshMyGames();
  timer = setInterval(() => { if (!document.hidden) refreshMyGames(); }, 15000);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshMyGames(); });
}

const opponents = (g) => g.seats.filter((_, i) => i !== g.seat).map((s) => esc(seatLabel(s)) + botBadge(s)).join(' · ');

function rows(list, challenge) {
  return `<table>${list.map((g) => `<tr data-testid="my-game-${esc(g.id)}"><td>${esc(t(g.game))}</td>
    <td>${challenge ? t('challenge_from').replace('{name}', esc(seatLabel(g.seats.find((s) => s.kind === 'user')))) : `${t('vs')} ${opponents(g)}`}</td>
    <td>${clockText(g.clock, g.game)}${g.rated ? ' · ' + t('rated') : ''}</td>
    <td>${challenge ? '' : g.your_turn ? `<b class="your-move" data-testid="your-move-mark">${t('your_move_short')}</b>` : g.status === 'waiting' ? `<span class="muted">${g.challenge ? t('challenge_for').replace('{name}', esc(g.challenge)) : t('waiting')}</span>` : ''}</td>
    <td class="row-buttons">${challenge ? `<button class="primary" data-accept="${esc(g.id)}" data-testid="accept-challenge-${esc(g.id)}">${t('accept')}</button> <button data-decline="${esc(g.id)}" data-testid="decline-challenge-${esc(g.id)}">${t('decline')}</button>`
    : `<a href="#/game/${esc(g.id)}">${t('open_game')}</a>${g.status === 'waiting' ? ` <button data-cancel="${esc(g.id)}" data-testid="cancel-room-${esc(g.id)}">${t('cancel')}</button>` : ''}`}</td></tr>`).join('')}</table>`;
}

/** The rows' buttons: accept or decline a challenge, cancel one's waiting room (`again` redraws). */
function bindButtons(root, again) {
  root.querySelectorAll('[data-accept]').forEach((b) => b.addEventListener('click', async () => {
    try { await api('POST', `/api/games/${encodeURIComponent(b.dataset.accept)}/join`); location.hash = `#/game/${b.dataset.accept}`; }
    catch (e) { alert(e.message); }
  }));
  for (const verb of ['decline', 'cancel']) {
    root.querySelectorAll(`[data-${verb}]`).forEach((b) => b.addEventListener('click', async () => {
      b.disabled = true;
      try { await api('POST', `/api/games/${encodeURIComponent(b.dataset[verb])}/${verb}`, {}); } catch (e) { alert(e.message); }
      again();
    }));
  }
}

/** `#/my`: one's games in play (one's move first) and challenges to one. */
export async function myGamesView(view) {
  view.innerHTML = `<div class="card" data-testid="my-games"><h2>${t('my_games')}</h2><div id="my-list">…</div></div>`;
  const mine = await refreshMyGames();
  const box = document.getElementById('my-list');
  if (!box) return;
  if (!mine) { box.innerHTML = `<p class="muted">${t('my_games_none')}</p>`; return; }
  const games = [...mine.games].sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
  box.innerHTML = `${mine.your_turn ? `<p data-testid="my-turn-count">${t('my_games_turn').replace('{n}', mine.your_turn)}</p>` : ''}
    ${games.length ? rows(games, false) : `<p class="muted">${t('my_games_none')}</p>`}
    ${mine.challenges.length ? `<h3>${t('challenges_in')}</h3>${rows(mine.challenges, true)}` : ''}`;
  bindButtons(box, () => { if (location.hash === '#/my') myGamesView(view); });
}

/** The last list fetched (for tests and the game page). */
export const lastMyGames = () => last;
