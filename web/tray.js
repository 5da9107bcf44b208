// @ts-check
// The tray, on every view: what the visitor's own events bring (live.js).
// A game of theirs starting opens it on every page of theirs, with a
// sound (a pool's pairing, an accepted challenge, an event's round, a
// rematch); a challenge to them shows as a card to accept or decline, one
// of theirs as a pending card to cancel; a challenge declined or withdrawn
// by the other side leaves a short notice. Outside the lobby, the pool one
// waits in shows here too, to cancel.
import { t } from './i18n.js';
import { api, esc, clockText } from './util.js';
import { onUserEvent, onLiveOpen } from './live.js';
import { play } from './sound.js';
import { refreshMyGames } from './my-games.js';
import { waitingIn, onWaitChange, leavePool, poolDone, poolClock } from './quick-play.js';

/** @typedef {{ id: string, game: string, challenger: string, dest: string, rated: boolean, clock: any }} Challenge */

/** @type {Map<string, Challenge>} the challenges to and from the visitor, by room id */
const challenges = new Map();
/** @type {{ n: number, text: string }[]} */
let notices = [];
let noticeCount = 0;
/** @type {() => any} the visitor (or guest) */
let who = () => null;

const box = () => document.getElementById('tray');
const here = () => location.hash.replace(/^#/, '') || '/';
const onGame = (/** @type {string} */ id) => here() === `/game/${id}`;
const incoming = (/** @type {Challenge} */ c) => { const me = who(); return !!me && c.dest === me.username; };

/** Starts the tray; `me` gives the visitor as app.js knows them now. @param {() => any} me */
export function startTray(me) {
  who = me;
  onUserEvent(onEvent);
  onLiveOpen(resync);
  onWaitChange(render);
  window.addEventListener('hashchange', render);
  setInterval(tick, 1000);
  const b = box();
  if (b) b.addEventListener('click', onClick);
}

/** What the server holds now: the challenges to the visitor and their own pending ones. */
async function resync() {
  let mine;
  try { mine = await api('GET', '/api/my/games'); } catch { return; }
  const me = who();
  challenges.clear();
  for (const g of mine.challenges || []) {
    const from = (g.seats || []).find((/** @type {any} */ s) => s.kind === 'user');
    challenges.set(g.id, { id: g.id, game: g.game, challenger: from ? from.name : '?', dest: me ? me.username : '', rated: g.rated, clock: g.clock });
  }
  for (const g of mine.games || []) {
    if (g.status === 'waiting' && g.challenge) challenges.set(g.id, { id: g.id, game: g.game, challenger: me ? me.username : '', dest: g.challenge, rated: g.rated, clock: g.clock });
  }
  render();
}

/** @param {Record<string, any>} e */
function onEvent(e) {
  if (e.type === 'gameStart' && e.game) {
    const id = String(e.game.id);
    poolDone();
    challenges.delete(id);
    render();
    play('start');
    refreshMyGames();
    if (!onGame(id)) location.hash = `#/game/${id}`;
  } else if (e.type === 'gameFinish') {
    refreshMyGames();
  } else if (e.type === 'challenge' && e.challenge) {
    const c = /** @type {Challenge} */ (e.challenge);
    challenges.set(c.id, c);
    if (incoming(c)) play('challenge');
    render();
    refreshMyGames();
  } else if ((e.type === 'challengeCanceled' || e.type === 'challengeDeclined') && e.challenge) {
    const c = /** @type {Challenge} */ (e.challenge);
    challenges.delete(c.id);
    // The other side's doing: say so (one's own cancel or decline needs no word).
    if (e.type === 'challengeDeclined' && !incoming(c)) notice(t('challenge_declined').replace('{name}', esc(c.dest)));
    if (e.type === 'challengeCanceled' && incoming(c)) notice(t('challenge_canceled').replace('{name}', esc(c.challenger)));
    // The room is gone: a page showing it goes back to the lobby.
    if (onGame(c.id)) location.hash = '#/';
    render();
    refreshMyGames();
  }
}

/** A short notice for a few seconds. @param {string} html */
function notice(html) {
  const n = ++noticeCount;
  notices.push({ n, text: html });
  setTimeout(() => { notices = notices.filter((x) => x.n !== n); render(); }, 6000);
}

/** The game, its clock, rated or casual. @param {Challenge} c */
const about = (c) => `${esc(t(c.game))} · ${clockText(c.clock, c.game)} · ${c.rated ? t('rated') : t('casual')}`;

const waitedText = (/** @type {number} */ since) => {
  const s = Math.max(0, Math.floor((Date.now() - since) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

function render() {
  const b = box();
  if (!b) return;
  const cards = [];
  for (const c of challenges.values()) {
    const id = esc(c.id);
    if (incoming(c)) {
      cards.push(`<div class="tray-card challenge-card" data-testid="challenge-card-${id}" role="alert">
        <div class="tray-title">${t('challenge_from').replace('{name}', `<b>${esc(c.challenger)}</b>`)}</div>
        <div class="muted">${about(c)}</div>
        <div class="buttons"><button class="primary" data-ch="accept" data-id="${id}" data-testid="challenge-accept-${id}">${t('accept')}</button><button data-ch="decline" data-id="${id}" data-testid="challenge-decline-${id}">${t('decline')}</button></div></div>`);
    } else if (!onGame(c.id)) {
      // One's own challenge, pending (its game page says so itself).
      cards.push(`<div class="tray-card pending" data-testid="challenge-out-${id}">
        <div class="tray-title">${t('challenge_for').replace('{name}', `<b>${esc(c.dest)}</b>`)}</div>
        <div class="muted">${about(c)}</div>
        <div class="buttons"><a class="button" href="#/game/${id}">${t('open_game')}</a><button data-ch="cancel" data-id="${id}" data-testid="challenge-cancel-${id}">${t('cancel')}</button></div></div>`);
    }
  }
  const w = waitingIn();
  if (w && here() !== '/') {
    const what = w.view ? `${esc(t(w.view.game))} ${esc(poolClock(w.view))}` : esc(w.pool);
    cards.push(`<div class="tray-card pending" data-testid="pool-wait">
      <div class="tray-title">${t('pool_looking').replace('{pool}', what)} <span class="pool-waited">${waitedText(w.since)}</span></div>
      <div class="buttons"><button data-ch="leave-pool" data-testid="pool-wait-cancel">${t('cancel')}</button></div></div>`);
  }
  for (const n of notices) cards.push(`<div class="tray-card notice" data-testid="notice">${n.text}</div>`);
  b.innerHTML = cards.join('');
  b.hidden = cards.length === 0;
  // Room below the view to scroll its end out from under the tray.
  const view = document.getElementById('view');
  if (view) view.style.paddingBottom = cards.length ? `${b.offsetHeight + 16}px` : '';
}

/** The pool wait's seconds, counted in place (redrawing would swallow a click). */
function tick() {
  const w = waitingIn();
  const el = document.querySelector('#tray .pool-waited');
  if (w && el) el.textContent = waitedText(w.since);
}

/** @param {MouseEvent} e */
async function onClick(e) {
  const b = /** @type {HTMLButtonElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('button[data-ch]'));
  if (!b) return;
  const id = String(b.dataset.id || '');
  const path = `/api/games/${encodeURIComponent(id)}`;
  b.disabled = true;
  try {
    if (b.dataset.ch === 'accept') {
      await api('POST', `${path}/join`, {});
      challenges.delete(id);
      location.hash = `#/game/${id}`;
    } else if (b.dataset.ch === 'decline') {
      await api('POST', `${path}/decline`, {});
      challenges.delete(id);
    } else if (b.dataset.ch === 'cancel') {
      await api('POST', `${path}/cancel`, {});
      challenges.delete(id);
    } else if (b.dataset.ch === 'leave-pool') {
      await leavePool();
    }
  } catch (x) {
    // Gone meanwhile (accepted, withdrawn): what the server holds now.
    notice(esc(/** @type {Error} */ (x).message));
    resync();
  }
  render();
  refreshMyGames();
}
