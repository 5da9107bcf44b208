// @ts-check
// 棋苑 Qiyuan page: lobby, game, profile, rules, login. Plain ES modules.
import { t, getLang, setLang, applyStatic } from './i18n.js';
import { titleSlot, decorate, fetchRatings } from './titles.js';
import { leaderboardView, profileRatings } from './leaderboard.js';
import { eventsView, eventView } from './events.js';
import { teamEventsView, teamEventView } from './team-events.js';
import { loadKinds, kindOf, pointsFamilies } from './kinds.js';
import { historyHtml, totalsHtml, pointsHtml } from './profile.js';
import { api, esc, seatLabel, clockText, byId, botBadge, whenText } from './util.js';
import { gameView } from './game.js';
import { createFormHtml, bindCreateForm } from './create-form.js';
import { quickPlayHtml, bindQuickPlay } from './quick-play.js';
import { bindTheme, applyTheme } from './theme.js';
import { watchMyGames, refreshMyGames, myGamesView } from './my-games.js';
import { connectLive, onLobby } from './live.js';
import { startTray } from './tray.js';
import { tvView } from './tv.js';
import { rulesView } from './rules-page.js';
import { analysisBoardView } from './analysis-board.js';
import { puzzlesView } from './puzzles.js';

const view = byId('view');
let me = null;
let cleanup = () => {};

async function ensureSession() {
  try { me = await api('GET', '/api/me'); } catch { me = await api('POST', '/api/guest'); }
  renderNav();
}

function renderNav() {
  const a = /** @type {HTMLAnchorElement} */ (document.getElementById('nav-user'));
  if (me && !me.guest) { a.textContent = me.username; a.href = `#/user/${encodeURIComponent(me.username)}`; }
  else { a.textContent = t('login'); a.href = '#/login'; }
  byId('lang').textContent = getLang() === 'zh' ? 'English' : '中文';
  byId('menu').setAttribute('aria-label', t('menu'));
  applyStatic();
  applyTheme();
}

// Every seat of a game: "A vs B", or "A · B · C …" with more than two
// (whose titles are of the kind's multi-player family).
function seatsLine(g, titles) {
  const seats = g.seats || [];
  const family = seats.length > 2 ? `${(kindOf(g.game) || { id: g.game }).id}-multi` : g.game;
  const one = (s) => `${esc(seatLabel(s))}${botBadge(s)}${titles ? titleSlot(family, s) : ''}`;
  return seats.length > 2 ? seats.map(one).join(' · ') : `${one(seats[0])} ${t('vs')} ${one(seats[1])}`;
}

// ---------------------------------------------------------------- lobby
function lobbyView() {
  view.innerHTML = `
  <div class="card" id="invitations" data-testid="invitations" hidden></div>
  <div class="card" id="quick-card">${quickPlayHtml(me)}</div>
  <div class="card"><h2>${t('create')}</h2>
    ${createFormHtml(me)}</div>
  <div class="card"><h2>${t('open_rooms')}</h2><div id="open" data-testid="open-rooms"></div></div>
  <div class="card"><h2>${t('in_play')}</h2><div id="playing"></div></div>`;
  bindCreateForm(document.getElementById('create'));
  const stopQuick = bindQuickPlay(document.getElementById('quick-card'));
  showInvitations();
  // The page's socket (live.js) brings the whole lobby, then each change.
  /** @type {import('./live.js').Lobby} */
  let l = { open: [], playing: [] };
  const draw = (/** @type {import('./live.js').Lobby} */ lobby) => {
    l = lobby;
    const row = (g, btn) => `<tr${g.rating_range ? ` data-range-game="${esc(g.game)}" data-range-min="${Number(g.rating_range.min)}" data-range-max="${Number(g.rating_range.max)}"${isMine(g) ? ' data-mine="1"' : ''}` : ''}><td>${esc(t(g.game))}${g.target ? ' → ' + g.target : ''}${g.setup ? ` <span class="muted" data-testid="setup-mark" title="${t('set_up')}">· ${t('set_up_short')}</span>` : ''}</td><td>${seatsLine(g, true)}</td><td>${clockText(g.clock, g.game)}${g.rating_range ? ` <span class="muted small range" data-testid="range-${esc(g.id)}">${rangeText(g.rating_range)}</span>` : ''}</td><td>${g.rated ? t('rated') : ''}</td><td>${btn}</td></tr>`;
    byId('open').innerHTML = l.open.length ? `<table>${l.open.map((g) => row(g, `<button data-join="${g.id}" data-testid="join-${g.id}">${t('join')}</button>`)).join('')}</table>` : `<p class="muted">${t('none')}</p>`;
    byId('playing').innerHTML = l.playing.length ? `<table>${l.playing.map((g) => row(g, `<a href="#/game/${g.id}">${t('watch')}</a>`)).join('')}</table>` : `<p class="muted">${t('none')}</p>`;
    decorate(view);
    markRanges(byId('open'));
  };
  const onJoin = async (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('#open [data-join]'));
    if (!b) return;
    const id = b.dataset.join;
    try {
      const mine = isMine(l.open.find((g) => g.id === id) || { seats: [] });
      if (!mine) await api('POST', `/api/games/${id}/join`);
      location.hash = `#/game/${id}`;
    } catch (err) { alert(err.message); }
  };
  byId('open').addEventListener('click', onJoin);
  const stopLobby = onLobby(draw);
  return () => { stopLobby(); stopQuick(); };
}

/** Whether the viewer sits in game `g`. */
const isMine = (g) => (g.seats || []).some((s) => s.kind === 'user' && me && s.name === me.username);

/** "ratings 1200–1800". */
const rangeText = (r) => t('range_short').replace('{min}', String(r.min)).replace('{max}', String(r.max));

/**
 * Open rooms whose rating range leaves the viewer out: greyed, their join
 * button off, saying why (the viewer's rating in each game from /api/ratings;
 * one's own rooms stay as they are).
 * @param {HTMLElement} box
 */
async function markRanges(box) {
  if (!me) return;
  const rows = /** @type {HTMLElement[]} */ ([...box.querySelectorAll('tr[data-range-game]')]);
  for (const tr of rows) {
    const game = String(tr.dataset.rangeGame), min = Number(tr.dataset.rangeMin), max = Number(tr.dataset.rangeMax);
    const info = (await fetchRatings(game, [me.username]))[me.username];
    if (!info || !tr.isConnected) continue;
    const b = /** @type {HTMLButtonElement | null} */ (tr.querySelector('button[data-join]'));
    if (!b || tr.dataset.mine || (info.rating >= min && info.rating <= max)) continue;
    tr.classList.add('out-of-range');
    tr.title = t('out_of_range').replace('{r}', String(Math.round(info.rating))).replace('{min}', String(min)).replace('{max}', String(max));
    b.disabled = true;
    b.title = tr.title;
  }
}

// Invitations to events (people are entered only once they accept).
async function showInvitations() {
  const box = document.getElementById('invitations');
  if (!box || !me || me.guest) return;
  let list = [];
  try { list = (await api('GET', '/api/invitations')).invitations; } catch { return; }
  if (!list.length) { box.hidden = true; return; }
  box.hidden = false;
  box.innerHTML = `<h2>${t('invitations')}</h2><table>${list.map((i) => `<tr>
    <td>${i.kind === 'team_event' ? t('team_event') : `<a href="#/event/${esc(i.id)}">${esc(i.name)}</a>`}${i.kind === 'team_event' ? ' ' + esc(i.name) : ''}</td>
    <td>${esc(t(i.game))} · ${clockText(i.clock, i.game)}${i.rated ? ' · ' + t('rated') : ''}</td><td class="muted">${t('organiser')}${t('colon')}${esc(i.organiser || '')}</td>
    <td><button data-inv="${esc(i.id)}" data-kind="${i.kind}" data-yes="1">${t('accept')}</button> <button data-inv="${esc(i.id)}" data-kind="${i.kind}">${t('decline')}</button></td></tr>`).join('')}</table>`;
  /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll('[data-inv]')).forEach((b) => b.addEventListener('click', async () => {
    const base = b.dataset.kind === 'team_event' ? '/api/team-events' : '/api/events';
    const verb = b.dataset.yes ? (b.dataset.kind === 'team_event' ? 'accept' : 'join') : 'decline';
    try { await api('POST', `${base}/${encodeURIComponent(String(b.dataset.inv))}/${verb}`); } catch (err) { alert(err.message); }
    showInvitations();
  }));
}

// ---------------------------------------------------------------- other views
function loginView() {
  view.innerHTML = `<div class="card" style="max-width:420px"><form id="login">
    <p><label>${t('username')}<br><input name="username" autocomplete="username" data-testid="username"></label></p>
    <p><label>${t('password')}<br><input name="password" type="password" autocomplete="current-password" data-testid="password"></label></p>
    <button class="primary" data-a="login" data-testid="do-login">${t('login')}</button>
    <button data-a="register" data-testid="do-register">${t('register')}</button>
    ${me && !me.guest ? `<button type="button" id="logout">${t('logout')}</button>` : ''}
    <div class="err" id="login-err" data-testid="login-error"></div></form></div>`;
  const form = /** @type {HTMLFormElement} */ (document.getElementById('login'));
  /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('button[data-a]')).forEach((b) => b.addEventListener('click', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    try {
      me = await api('POST', `/api/${b.dataset.a}`, { username: f.get('username'), password: f.get('password') });
      renderNav(); connectLive(); refreshMyGames(); location.hash = '#/';
    } catch (err) { byId('login-err').textContent = err.message; }
  }));
  const lo = document.getElementById('logout');
  if (lo) lo.addEventListener('click', async () => { await api('POST', '/api/logout'); me = null; await ensureSession(); connectLive(); location.hash = '#/'; });
}

async function profileView(name) {
  view.innerHTML = '<div class="card">…</div>';
  try {
    const p = await api('GET', `/api/users/${encodeURIComponent(name)}`);
    const own = !!me && me.username === p.username;
    // The profile may not say `bot`: one's own account (/api/me) or a seat of the user's games does.
    const bot = !!(p.bot || (own && me.bot) || (p.games || []).some((g) => (g.seats || []).some((s) => s.kind === 'user' && s.name === p.username && s.bot)));
    view.innerHTML = `<div class="card"><h2>${esc(p.username)}${p.guest ? ' (' + t('guest') + ')' : ''}${botBadge({ bot })}</h2>
      ${profileRatings(p)}
      ${pointsHtml(p, pointsFamilies())}
      ${totalsHtml(p)}
      ${historyHtml(p, (g) => seatsLine(g, false))}
      ${me && !me.guest && me.username === p.username ? `<p><a href="#/login">${t('logout')}</a></p>` : ''}
      ${own && !me.guest && !bot && !(p.games || []).length ? `<p class="small muted" data-testid="make-bot-box"><button data-testid="make-bot">${t('make_bot')}</button> ${t('make_bot_about')}</p>` : ''}</div>
      ${me && me.username === p.username ? '<div class="card" id="sessions" data-testid="sessions"></div>' : ''}`;
    if (me && me.username === p.username) showSessions();
    const mb = view.querySelector('[data-testid="make-bot"]');
    if (mb) mb.addEventListener('click', async () => {
      if (!confirm(t('make_bot_confirm').replace('{name}', p.username))) return;
      try { await api('POST', '/api/account/bot'); me.bot = true; profileView(name); }
      catch (err) { alert(err.message); }
    });
  } catch (e) { view.innerHTML = `<div class="card err">${esc(e.message)}</div>`; }
}

// A user agent as a person names a device: browser and system.
function device(agent) {
  const a = agent || '';
  const browser = /Edg\//.test(a) ? 'Edge' : /Firefox\//.test(a) ? 'Firefox' : /Chrome\//.test(a) ? 'Chrome' : /Safari\//.test(a) ? 'Safari' : (a.split('/')[0] || '?');
  const os = /Android/.test(a) ? 'Android' : /iPhone|iPad/.test(a) ? 'iOS' : /Windows/.test(a) ? 'Windows' : /Mac OS/.test(a) ? 'macOS' : /Linux/.test(a) ? 'Linux' : '';
  return os ? `${browser} · ${os}` : browser;
}

// One's own sessions, each revocable (the tokens themselves never come back).
async function showSessions() {
  const box = document.getElementById('sessions');
  if (!box) return;
  let list;
  try { list = (await api('GET', '/api/sessions')).sessions; } catch { return; }
  const when = whenText;
  box.innerHTML = `<h3>${t('sessions')}</h3><table>${list.map((s) => `<tr><td><b>${esc(device(s.agent))}</b>${s.current ? ` (${t('this_device')})` : ''}
    <div class="muted">${t('last_used')} ${when(s.last_seen_ms)} · ${t('expires')} ${when(s.expires_ms)}</div></td>
    <td>${s.current ? '' : `<button data-sess="${esc(s.id)}">${t('revoke')}</button>`}</td></tr>`).join('')}</table>
    ${list.length > 1 ? `<button id="revoke-others">${t('revoke_others')}</button>` : ''}`;
  /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll('[data-sess]')).forEach((b) => b.addEventListener('click', async () => {
    try { await api('DELETE', `/api/sessions/${encodeURIComponent(String(b.dataset.sess))}`); } catch (err) { alert(err.message); }
    showSessions();
  }));
  const all = document.getElementById('revoke-others');
  if (all) all.addEventListener('click', async () => { try { await api('DELETE', '/api/sessions'); } catch (err) { alert(err.message); } showSessions(); });
}

function route() {
  cleanup(); cleanup = () => {};
  refreshMyGames();
  const h = location.hash.replace(/^#/, '') || '/';
  const parts = h.split('/').filter(Boolean);
  if (parts[0] === 'game' && parts[1]) cleanup = gameView(view, parts[1], me);
  else if (parts[0] === 'my') myGamesView(view);
  else if (parts[0] === 'tv') cleanup = tvView(view);
  else if (parts[0] === 'puzzles') cleanup = puzzlesView(view, parts[1] && decodeURIComponent(parts[1]));
  else if (parts[0] === 'user' && parts[1]) profileView(decodeURIComponent(parts[1]));
  else if (parts[0] === 'rules') rulesView(view, parts[1] && decodeURIComponent(parts[1]));
  else if (parts[0] === 'leaderboard') leaderboardView(view, parts[1] && decodeURIComponent(parts[1]));
  else if (parts[0] === 'events') cleanup = eventsView(view);
  else if (parts[0] === 'team-events') cleanup = teamEventsView(view);
  else if (parts[0] === 'team-event' && parts[1]) cleanup = teamEventView(view, decodeURIComponent(parts[1]), me);
  else if (parts[0] === 'event' && parts[1]) cleanup = eventView(view, decodeURIComponent(parts[1]), me);
  else if (parts[0] === 'analysis') cleanup = analysisBoardView(view, parts.slice(1));
  else if (parts[0] === 'login') loginView();
  else cleanup = lobbyView();
}

byId('lang').addEventListener('click', () => { setLang(getLang() === 'zh' ? 'en' : 'zh'); renderNav(); route(); });
// On a phone the header folds its links under ☰: the menu opens and closes
// with it, and closes after a choice (a link, a hash change) or Escape.
const menu = byId('menu');
const setMenu = (/** @type {boolean} */ open) => { document.body.classList.toggle('menu-open', open); menu.setAttribute('aria-expanded', String(open)); };
menu.addEventListener('click', () => setMenu(menu.getAttribute('aria-expanded') !== 'true'));
byId('nav').addEventListener('click', (e) => { if (/** @type {HTMLElement} */ (e.target).closest('a')) setMenu(false); });
window.addEventListener('hashchange', () => setMenu(false));
document.addEventListener('keydown', (e) => { if (e.key === 'Escape') setMenu(false); });
// Until the session and the kinds are loaded, the first route (below) reads
// the hash itself: routing earlier too would draw the view twice, the second
// time over what the visitor (or a test) already typed into it.
let ready = false;
window.addEventListener('hashchange', () => { if (ready) route(); });
bindTheme();
setLang(getLang());
ensureSession().then(loadKinds).then(() => { ready = true; watchMyGames(); startTray(() => me); connectLive(); route(); });
