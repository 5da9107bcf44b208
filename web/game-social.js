// @ts-check
// What players do besides moving, on the game page: takebacks in casual
// games (ask, allow, decline; the server says where they are offered).
import { t } from './i18n.js';
import { esc, seatLabel } from './util.js';

/** Whether `state` lets the viewer ask for a takeback now. */
export function canAskTakeback(state) {
  return !!state.takeback_possible && state.status === 'playing' && state.seat != null && state.takeback_offer == null;
}

/** The takeback notice for the viewer: a request to answer, one's own waiting, or what became of one. */
export function takebackHtml(state) {
  const me = state.seat;
  if (!state.takeback || me == null || state.status !== 'playing') return '';
  const req = state.takeback_offer;
  if (req != null && req !== me) {
    const who = esc(seatLabel(state.seats[req]));
    return `<div class="offer" data-testid="takeback-offer"><b>${t('asks_takeback').replace('{name}', who)}</b><div class="buttons"><button class="primary" data-f="takeback-accept" data-testid="accept-takeback">${t('accept_takeback')}</button><button data-f="takeback-decline" data-testid="decline-takeback">${t('decline_takeback')}</button></div></div>`;
  }
  if (req === me) return `<div class="offer muted" data-testid="takeback-pending">${t('takeback_wait')}</div>`;
  if (state.takeback_declined != null && state.takeback_declined !== me) return `<div class="offer declined" data-testid="takeback-declined">${t('takeback_declined')}</div>`;
  if (state.takeback_accepted != null) return `<div class="offer muted" data-testid="takeback-done">${t('takeback_done')}</div>`;
  return '';
}

/** The takeback button, when one may ask. */
export function takebackButton(state) {
  return canAskTakeback(state) ? `<button data-f="takeback" data-testid="takeback" title="${esc(t('takeback_about'))}">${t('takeback')}</button>` : '';
}

/** The frame a takeback button sends, or null for another button. */
export function takebackFrame(f) {
  if (f === 'takeback') return { t: 'takeback', action: 'offer' };
  if (f === 'takeback-accept') return { t: 'takeback', action: 'accept' };
  if (f === 'takeback-decline') return { t: 'takeback', action: 'decline' };
  return null;
}

/**
 * A waiting game: for its seated players the invite link (anyone may take
 * the open seat, or only the challenged user) with a copy button, and the
 * button that cancels the room; for the challenged user a button to
 * decline; for others whom a challenge is not for, who it is for.
 */
export function waitingHtml(state, me) {
  if (state.status !== 'waiting') return '';
  const url = `${location.origin}/#/game/${encodeURIComponent(state.id)}`;
  if (state.seat != null) {
    const about = state.challenge ? t('invite_challenge_about').replace('{name}', esc(state.challenge)) : t('invite_about');
    return `<div class="offer invite-box" data-testid="invite">${state.challenge ? `<div class="challenge-wait" data-testid="challenge-wait">${t('challenge_for').replace('{name}', esc(state.challenge))}</div>` : ''}
      <div class="invite"><b>${t('invite_link')}</b><input readonly value="${esc(url)}" data-testid="invite-link" aria-label="${esc(t('invite_link'))}"><button data-f="copy-invite" data-testid="copy-invite">${t('copy_link')}</button></div>
      <div class="muted small">${about}</div>
      <div class="buttons"><button data-f="cancel-room" data-testid="cancel-room" title="${esc(t('cancel_room_about'))}">${t('cancel_room')}</button></div></div>`;
  }
  if (state.challenge && me && me.username === state.challenge) return `<div class="offer" data-testid="challenge-here"><b>${t('challenge_from').replace('{name}', esc(state.seats.map(seatLabel).find((n) => n !== '—') || '?'))}</b>
      <div class="buttons"><button data-f="decline-challenge" data-testid="decline-challenge">${t('decline')}</button></div></div>`;
  if (state.challenge) return `<div class="offer muted" data-testid="not-for-you">${t('not_for_you').replace('{name}', esc(state.challenge))}</div>`;
  return '';
}

/** Whether the viewer may take the open seat of a waiting game. */
export const mayJoin = (state, me) => state.status === 'waiting' && state.seat == null && (!state.challenge || (me && me.username === state.challenge));

/** Copies the invite link; the button says it was copied. */
export async function copyInvite(button) {
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector('[data-testid="invite-link"]'));
  if (!input) return;
  try { await navigator.clipboard.writeText(input.value); } catch { input.select(); try { document.execCommand('copy'); } catch { /* selected for the user to copy */ } }
  button.textContent = t('copied');
}
