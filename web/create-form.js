// @ts-check
// The lobby's form for a new game: what each game has (a target score where
// the variant takes one, a colour choice where the game's module says the
// seats are the colours, minutes and increment only where the clock is per
// player), checked here with a message a person understands before anything
// is sent.
import { t } from './i18n.js';
import { variantNames, kindOf, hooksOf } from './kinds.js';
import { api, esc } from './util.js';

/** Longest base time the server takes (clock.initial_s up to 3 h). */
const MAX_MINUTES = 180, MAX_INCREMENT = 600;
/** The days a move of a correspondence game may have. */
const DAYS = [1, 2, 3, 5, 7, 14];

export function createFormHtml(me) {
  const guest = !me || me.guest;
  return `<form id="create" data-testid="create-form" novalidate>
      <label>${t('game')} <select name="game" data-testid="game-select">
        ${variantNames().map((g) => `<option value="${g}">${t(g)}</option>`).join('')}
      </select></label>
      <label id="target-row">${t('target')} <input name="target" type="number" min="1" style="width:6em" data-testid="target"></label>
      <label id="clock-type-row">${t('clock_type')} <select name="clock_type" data-testid="clock-type">
        <option value="live">${t('live_clock')}</option><option value="days">${t('correspondence')}</option>
      </select></label>
      <label id="days-row" hidden>${t('correspondence')} <select name="days" data-testid="days">
        ${DAYS.map((d) => `<option value="${d}"${d === 3 ? ' selected' : ''}>${d === 1 ? t('day_per_move') : t('days_per_move').replace('{n}', String(d))}</option>`).join('')}
      </select></label>
      <span id="clock-rows"><label>${t('minutes')} <input name="minutes" type="number" min="1" max="${MAX_MINUTES}" step="any" value="10" style="width:5em" data-testid="minutes"></label>
      <label>${t('increment')} <input name="inc" type="number" min="0" max="${MAX_INCREMENT}" value="5" style="width:5em" data-testid="increment"></label></span>
      <span id="per-move" class="muted" data-testid="per-move-clock" hidden></span>
      <label>${t('opponent')} <select name="opponent" data-testid="opponent">
        <option value="open">${t('open_seat')}</option>
        ${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="ai:${n}">${t('ai_named').replace('{n}', String(n))}</option>`).join('')}
      </select></label>
      <label id="challenge-row">${t('challenge_user')} <input name="challenge" maxlength="20" autocomplete="off" placeholder="${esc(t('challenge_placeholder'))}" style="width:12em" data-testid="challenge-name"></label>
      <span id="range-row">${t('rating_range')} <input name="range_min" type="number" min="0" max="4000" step="1" placeholder="${esc(t('rating_min'))}" aria-label="${esc(t('rating_range'))} ${esc(t('rating_min'))}" style="width:5em" data-testid="range-min">–<input name="range_max" type="number" min="0" max="4000" step="1" placeholder="${esc(t('rating_max'))}" aria-label="${esc(t('rating_range'))} ${esc(t('rating_max'))}" style="width:5em" data-testid="range-max"></span>
      <label id="seat-row">${t('your_colour')} <select name="seat" data-testid="seat-select">
        <option value="red">${t('red')}</option><option value="black">${t('black')}</option><option value="random">${t('random')}</option>
      </select></label>
      <label${guest ? ` title="${esc(t('rated_guest'))}"` : ''}><input name="rated" type="checkbox" data-testid="rated" ${guest ? 'disabled' : ''}> ${t('rated')}</label>
      ${guest ? `<span class="muted hint" data-testid="rated-why">${t('rated_guest')} <a href="#/login">${t('register')}</a></span>` : ''}
      <button class="primary" data-testid="create">${t('create')}</button>
      <div class="err" id="create-err" data-testid="create-error"></div>
    </form>`;
}

/** The minutes and increment as the server wants them, or a message saying what is wrong. */
export function checkClock(minutesText, incText) {
  const m = String(minutesText ?? '').trim(), i = String(incText ?? '').trim();
  if (m === '') return { error: t('err_minutes_empty') };
  const minutes = Number(m);
  if (!Number.isFinite(minutes) || minutes <= 0) return { error: t('err_minutes_zero') };
  if (minutes > MAX_MINUTES) return { error: t('err_minutes_large', { n: MAX_MINUTES }) };
  const initial = Math.round(minutes * 60);
  if (initial < 1) return { error: t('err_minutes_zero') };
  const inc = i === '' ? 0 : Number(i);
  if (!Number.isInteger(inc) || inc < 0 || inc > MAX_INCREMENT) return { error: t('err_increment', { n: MAX_INCREMENT }) };
  return { clock: { initial_s: initial, increment_s: inc } };
}

/**
 * An open seat's rating range as the server wants it ({min, max}; one end
 * left empty is open), none when both are empty, or a message.
 * @param {any} minText @param {any} maxText
 */
export function checkRange(minText, maxText) {
  const a = String(minText ?? '').trim(), b = String(maxText ?? '').trim();
  if (a === '' && b === '') return {};
  const min = a === '' ? 0 : Number(a), max = b === '' ? 4000 : Number(b);
  const ok = (/** @type {number} */ n) => Number.isInteger(n) && n >= 0 && n <= 4000;
  if (!ok(min) || !ok(max) || min > max) return { error: t('err_rating_range') };
  return { range: { min, max } };
}

export function bindCreateForm(form) {
  const err = form.querySelector('#create-err');
  const sync = () => {
    const game = form.game.value, kind = kindOf(game);
    const variant = kind && kind.variants.find((v) => v.name === game);
    const target = variant && variant.options.find((o) => o.name === 'target');
    form.querySelector('#target-row').hidden = !target;
    if (target) { form.target.placeholder = `${target.min}–${target.max}`; form.target.min = target.min; form.target.max = target.max; }
    const perMove = kind && kind.clock.kind === 'per_move';
    // Days per move: two-seat games with a clock per player.
    const daysOk = !perMove && !!variant && variant.seats[0] === 2;
    form.querySelector('#clock-type-row').hidden = !daysOk;
    if (!daysOk) form.clock_type.value = 'live';
    const days = form.clock_type.value === 'days';
    form.querySelector('#days-row').hidden = !days;
    form.querySelector('#clock-rows').hidden = !!perMove || days;
    const pm = form.querySelector('#per-move');
    pm.hidden = !perMove;
    if (perMove) pm.textContent = `${t('clock')}${t('colon')}${t('per_move').replace('{n}', kind.clock.seconds)}`;
    // Red or Black is chosen only where the seats are the colours (elsewhere the game decides them).
    form.querySelector('#seat-row').hidden = !hooksOf(game).colourChoice;
    for (const o of form.opponent.options) if (o.value !== 'open') o.hidden = o.disabled = !!(kind && kind.ai === false);
    if (form.opponent.selectedOptions[0] && form.opponent.selectedOptions[0].disabled) form.opponent.value = 'open';
    // A challenge names the one person who may take the open seat of a two-seat game.
    form.querySelector('#challenge-row').hidden = !(form.opponent.value === 'open' && variant && variant.seats[0] === 2);
    // A rating range keeps an open seat to players of those ratings.
    form.querySelector('#range-row').hidden = form.opponent.value !== 'open';
    err.textContent = '';
  };
  form.game.addEventListener('change', sync);
  form.opponent.addEventListener('change', sync);
  form.clock_type.addEventListener('change', sync);
  // "New game" from a finished game: the same settings again.
  try {
    const p = JSON.parse(sessionStorage.getItem('qy-new-game') || 'null');
    sessionStorage.removeItem('qy-new-game');
    if (p && variantNames().includes(p.game)) {
      form.game.value = p.game;
      if (p.clock && p.clock.days) { form.clock_type.value = 'days'; form.days.value = String(p.clock.days); }
      else if (p.clock && p.clock.initial_s >= 60) { form.minutes.value = p.clock.initial_s / 60; form.inc.value = p.clock.increment_s; }
      if (p.opponent) form.opponent.value = `ai:${p.opponent}`;
    }
  } catch { /* no preset */ }
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const game = f.get('game'), kind = kindOf(game);
    const variant = kind && kind.variants.find((v) => v.name === game);
    const body = { game, opponent: f.get('opponent'), rated: f.get('rated') === 'on' };
    // A kind with a fixed time per move has no increment.
    if (kind && kind.clock.kind === 'per_move') body.clock = { initial_s: kind.clock.seconds, increment_s: 0 };
    else if (!form.querySelector('#clock-type-row').hidden && f.get('clock_type') === 'days') body.days = Number(f.get('days'));
    else {
      const c = checkClock(f.get('minutes'), f.get('inc'));
      if (c.error) { err.textContent = c.error; form.minutes.focus(); return; }
      body.clock = c.clock;
    }
    const target = variant && variant.options.find((o) => o.name === 'target');
    if (target && String(f.get('target') || '').trim() !== '') {
      const n = Number(f.get('target'));
      if (!Number.isInteger(n) || n < target.min || n > target.max) { err.textContent = t('err_target').replace('{min}', target.min).replace('{max}', target.max); return; }
      body.options = { target: n };
    }
    if (hooksOf(String(game)).colourChoice && f.get('seat') && f.get('seat') !== 'red') body.seat = f.get('seat');
    if (!form.querySelector('#range-row').hidden) {
      const r = checkRange(f.get('range_min'), f.get('range_max'));
      if (r.error) { err.textContent = r.error; form.range_min.focus(); return; }
      if (r.range) body.rating_range = r.range;
    }
    const challenge = String(f.get('challenge') || '').trim();
    if (challenge && !form.querySelector('#challenge-row').hidden) body.challenge = challenge;
    try { const g = await api('POST', '/api/games', body); location.hash = `#/game/${g.id}`; }
    catch (x) { err.textContent = x.message; }
  });
}
