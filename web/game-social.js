// What players do besides moving, on the game page: takebacks in casual
// games (ask, allow, decline; the server says where they are offered).
import { t } from './i18n.js';
import { esc, seatLabel } from './util.js';

/** Whether `state` lets the viewer ask for a takeback now. */
export function canAskTakeback(state) {
  return !!state.takeback && state.status === 'playing' && state.seat != null && state.takeback_offer == null && (state.plies || 0) > 0;
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
