// @ts-check
// The lobby's one-click starts: a button per pairing pool (a variant at a
// time control, as the server lists them at GET /api/pools), grouped by
// game, the kind whose module offers quick play first and the others
// folded away; and a game against AI level 3 of that kind. A click waits in
// the pool (the button counts the seconds; a second click leaves, another
// pool switches); the server pairs every ~2 s and every page of the player
// then opens the game (tray.js, on `gameStart`).
import { t } from './i18n.js';
import { api, esc } from './util.js';
import { quickPlayVariant, kindOf, kindsQuickFirst } from './kinds.js';
import { onPools, setPools } from './live.js';

/** @type {{ level: number, clock: [number, number] }} */
export const COMPUTER = { level: 3, clock: [10, 5] };

/** The pool one waits in (null: none), and since when (ms, this page's clock). */
const wait = { pool: /** @type {string | null} */ (null), since: 0 };
/** @type {Set<() => void>} */
const waitFns = new Set();
/** @type {any[]} the pools as last heard */
let known = [];

/** The pool one waits in and since when (ms), or null. */
export const waitingIn = () => (wait.pool ? { ...wait, view: known.find((p) => p.id === wait.pool) } : null);

/** Calls `fn` whenever one starts or stops waiting in a pool. @param {() => void} fn */
export function onWaitChange(fn) { waitFns.add(fn); return () => { waitFns.delete(fn); }; }

/** @param {string | null} pool */
function setWait(pool) {
  if (pool === wait.pool) return;
  wait.pool = pool;
  wait.since = Date.now();
  waitFns.forEach((f) => f());
}

/** One's wait is over: paired (a game started), or the server says one waits nowhere. */
export const poolDone = () => setWait(null);

/** Waits in pool `id` (leaving any other). @param {string} id */
export async function joinPool(id) {
  await api('POST', `/api/pools/${encodeURIComponent(id)}/join`, {});
  setWait(id);
}

/** Leaves the pool one waits in. */
export async function leavePool() {
  const id = wait.pool;
  if (!id) return;
  setWait(null);
  await api('DELETE', `/api/pools/${encodeURIComponent(id)}/join`, {});
}

/** Asks the server for the pools and which one we wait in (on the lobby's start). */
export async function loadPools() {
  try {
    const r = await api('GET', '/api/pools');
    setWait(r.waiting_in || null);
    setPools(r.pools || []);
  } catch { /* the buttons come with the socket's next counts */ }
}

/** A pool's clock, short: "5+3", or "30秒/步" for a time per move. @param {any} p */
export function poolClock(p) {
  const kind = kindOf(p.game);
  if (kind && kind.clock && kind.clock.kind === 'per_move') return t('per_move_short').replace('{n}', p.clock.initial_s);
  const m = p.clock.initial_s / 60;
  return `${Number.isInteger(m) ? m : m.toFixed(1)}+${p.clock.increment_s}`;
}

/** The seconds waited, as m:ss. */
const waited = () => {
  const s = Math.max(0, Math.floor((Date.now() - wait.since) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export function quickPlayHtml(me) {
  const guest = !me || me.guest;
  return `<div class="quick" data-testid="quick-play">
    <div class="quick-head"><h2>${t('quick_play')}</h2>
      <span class="muted hint" data-testid="pools-hint">${guest ? t('pools_hint_guest') : t('pools_hint')}</span>
      <button class="primary" data-testid="play-computer" title="${esc(t('play_computer_about'))}">${t('play_computer')}</button></div>
    <div id="pools" data-testid="pools"><p class="muted">…</p></div>
    <span class="err" id="quick-err" data-testid="quick-error"></span></div>`;
}

/** The pools grouped: [kind, [variant, pools][]][] with the quick-play kind first. @param {any[]} pools */
function grouped(pools) {
  return kindsQuickFirst().map((k) => {
    /** @type {Map<string, any[]>} */
    const byVariant = new Map();
    for (const p of pools) if (kindOf(p.game) === k) byVariant.set(p.game, [...(byVariant.get(p.game) || []), p]);
    return /** @type {[any, [string, any[]][]]} */ ([k, [...byVariant]]);
  }).filter(([, vs]) => vs.length);
}

/** @param {[string, any[]][]} variants */
const rowsHtml = (variants) => variants.map(([v, ps]) => `<div class="pool-row" data-testid="pool-row-${esc(v)}"><div class="pool-game">${esc(t(v))}${ps[0].seats > 2 ? ` <span class="muted">· ${t('pool_seats').replace('{n}', ps[0].seats)}</span>` : ''}</div>
  <div class="pool-grid">${ps.map((p) => `<button class="pool" data-pool="${esc(p.id)}" data-testid="pool-${esc(p.id)}" aria-pressed="false"><span class="pool-clock${poolClock(p).length > 5 ? ' long' : ''}">${esc(poolClock(p))}</span><span class="pool-n"><span class="pool-w"></span><span class="pool-p"></span></span></button>`).join('')}</div></div>`).join('');

/** Binds the card of `quickPlayHtml`; returns the function that unbinds it. */
export function bindQuickPlay(root) {
  const err = root.querySelector('#quick-err');
  const box = root.querySelector('#pools');
  let shape = '';
  const start = async (body) => {
    err.textContent = '';
    try { const g = await api('POST', '/api/games', body); location.hash = `#/game/${g.id}`; }
    catch (x) { err.textContent = x.message; }
  };
  const clock = ([m, i]) => ({ initial_s: m * 60, increment_s: i });
  root.querySelector('[data-testid="play-computer"]').addEventListener('click', () => start({ game: quickPlayVariant(), opponent: `ai:${COMPUTER.level}`, rated: false, clock: clock(COMPUTER.clock) }));

  // The buttons are drawn once per list of pools; their numbers change in place.
  /** @param {any[]} pools */
  function draw(pools) {
    known = pools;
    const ids = pools.map((p) => p.id).join(' ');
    if (ids !== shape) {
      shape = ids;
      const groups = grouped(pools);
      const [first, ...rest] = groups;
      box.innerHTML = !first ? `<p class="muted">${t('none')}</p>` : `${rowsHtml(first[1])}
        ${rest.length ? `<details class="pools-more" data-testid="pools-more"><summary>${t('pools_more')}</summary>${rest.map(([, vs]) => rowsHtml(vs)).join('')}</details>` : ''}`;
    }
    update();
  }
  function update() {
    for (const p of known) {
      const b = /** @type {HTMLElement | null} */ (box.querySelector(`[data-pool="${CSS.escape(p.id)}"]`));
      if (!b) continue;
      const mine = wait.pool === p.id;
      b.classList.toggle('waiting', mine);
      b.setAttribute('aria-pressed', String(mine));
      // Two short lines: the counts, or the seconds waited and how to stop.
      /** @type {HTMLElement} */ (b.querySelector('.pool-w')).textContent = mine ? t('pool_wait').replace('{s}', waited()) : t('pool_waiting_n').replace('{n}', p.waiting);
      /** @type {HTMLElement} */ (b.querySelector('.pool-p')).textContent = mine ? t('pool_cancel') : t('pool_playing_n').replace('{n}', p.playing);
      b.title = mine ? t('pool_leave_about') : t('pool_join_about');
    }
    // A pool of a folded-away game one waits in shows.
    const more = /** @type {HTMLDetailsElement | null} */ (box.querySelector('.pools-more'));
    if (more && wait.pool && more.querySelector(`[data-pool="${CSS.escape(wait.pool)}"]`)) more.open = true;
  }
  box.addEventListener('click', async (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('[data-pool]'));
    if (!b) return;
    err.textContent = '';
    const id = String(b.dataset.pool);
    try { if (wait.pool === id) await leavePool(); else await joinPool(id); }
    catch (x) { err.textContent = x.message; }
    update();
  });
  const stopPools = onPools(draw);
  const stopWait = onWaitChange(update);
  const timer = setInterval(() => { if (wait.pool) update(); }, 1000);
  loadPools();
  return () => { stopPools(); stopWait(); clearInterval(timer); };
}
