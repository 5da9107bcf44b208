// @ts-check
// The lobby's one-click starts: a room by time control (minutes +
// increment, for anyone to join) and a game against AI level 3, both of the
// variant a game module offers for quick play (kinds.js, quickPlayVariant).
import { t } from './i18n.js';
import { api, esc } from './util.js';
import { quickPlayVariant } from './kinds.js';

export const QUICK = [[1, 0], [3, 2], [5, 3], [10, 5], [15, 10]];
/** @type {{ level: number, clock: [number, number] }} */
export const COMPUTER = { level: 3, clock: [10, 5] };

export function quickPlayHtml() {
  return `<div class="quick" data-testid="quick-play"><b>${t('quick_play')}</b>
    <span class="quick-buttons">${QUICK.map(([m, i]) => `<button data-quick="${m}+${i}" data-testid="quick-${m}+${i}" title="${esc(t('quick_play_about'))}">${m}+${i}</button>`).join('')}</span>
    <button class="primary" data-testid="play-computer" title="${esc(t('play_computer_about'))}">${t('play_computer')}</button>
    <span class="err" id="quick-err" data-testid="quick-error"></span></div>`;
}

export function bindQuickPlay(root) {
  const err = root.querySelector('#quick-err');
  const start = async (body) => {
    err.textContent = '';
    try { const g = await api('POST', '/api/games', body); location.hash = `#/game/${g.id}`; }
    catch (x) { err.textContent = x.message; }
  };
  const clock = ([m, i]) => ({ initial_s: m * 60, increment_s: i });
  root.querySelectorAll('[data-quick]').forEach((b) => b.addEventListener('click', () => {
    const [m, i] = b.dataset.quick.split('+').map(Number);
    start({ game: quickPlayVariant(), opponent: 'open', rated: false, clock: clock([m, i]) });
  }));
  root.querySelector('[data-testid="play-computer"]').addEventListener('click', () => start({ game: quickPlayVariant(), opponent: `ai:${COMPUTER.level}`, rated: false, clock: clock(COMPUTER.clock) }));
}
