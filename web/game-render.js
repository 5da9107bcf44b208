// @ts-check
// The game page's drawing: the page's markup once, then everything that
// follows from the store and the page's own choices (selection, replay
// position, flipped board…) on each change; the clocks tick on their own.
// It only draws: the clicks it makes room for are bound by game.js.
import { studyLink } from './analysis-board.js';
import { t, getLang } from './i18n.js';
import { titleSlot, decorate } from './titles.js';
import { esc, seatLabel, clockText, clockDays, longClock, botBadge } from './util.js';
import { resultLine, resultPanel } from './result.js';
import { analysisHtml } from './analysis.js';
import { BOARDS, PIECES, boardTheme, pieceTheme } from './board-theme.js';
import { tabTitle, typedHtml, typedExample } from './game-extras.js';
import { markPremove } from './premove.js';
import { takebackHtml, takebackButton, waitingHtml, mayJoin } from './game-social.js';
import { pairTargets, pairLast } from './pair-moves.js';
import { play } from './sound.js';

/**
 * @typedef {import('./kinds.js').GameModule} GameModule
 * @typedef {import('./game-store.js').GameStore} GameStore
 * @typedef {object} Ui The page's own choices, beside the game.
 * @property {string | null} selected the square picked for a move
 * @property {boolean} flipped whether the viewer turned the board
 * @property {string} notation the move list's notation
 * @property {number | null} replayPly the ply shown (null: now)
 * @property {string | null} premove the queued premove (from+to)
 * @property {string | null} preFrom the premove's piece, while its target is still to come
 * @property {string[] | null} chooserOpen the moves the open chooser picks between
 * @property {any} ratings the rating changes of the finished game
 */

/** @param {number} ms */
function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// Replay buttons drawn as SVG (no font has to have ⏮ ◀ ▶ ⏭).
/** @type {Record<string, string>} */
const ICON = {
  first: 'M5 4h2v12H5zM16 4v12L8 10z', prev: 'M14 4v12L6 10z', next: 'M6 4v12l8-6z', last: 'M13 4h2v12h-2zM4 4v12l8-6z',
};
/** A speaker, with waves when sounds are on, crossed out when off. @param {boolean} on */
export const speaker = (on) => `<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" style="vertical-align:-3px"><path d="M3 7h3l4-4v14l-4-4H3z" fill="currentColor"/>${on ? '<path d="M13 6.5a5 5 0 0 1 0 7M15.5 4a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.6"/>' : '<path d="M13 7l5 6M18 7l-5 6" stroke="currentColor" stroke-width="1.8"/>'}</svg>`;
/** @param {string} k */
const icon = (k) => `<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="${ICON[k]}" fill="currentColor"/></svg>`;

/**
 * What a game allows besides moves: {offer, claim, pgn, resign}; a module may narrow it.
 * @param {Partial<GameModule> | null} mod
 * @param {Record<string, any>} state
 */
export function extras(mod, state) {
  /** @type {{ offer: boolean, claim: boolean, pgn: boolean, resign: boolean, resignWhy?: string, leave?: string }} */
  const base = { offer: true, claim: true, pgn: true, resign: true };
  return mod && mod.extras ? { ...base, ...mod.extras(state) } : base;
}

/** The page's markup, before the game is known. @param {string} id */
export function pageHtml(id) {
  return `<div class="game">
    <div class="board-wrap">
      <div class="player" id="top-bar"><span id="top-name"></span><span class="clock" id="top-clock" data-testid="clock-top"></span></div>
      <svg id="board" data-testid="board"></svg>
      <div class="player" id="bot-bar"><span id="bot-name"></span><span class="clock" id="bot-clock" data-testid="clock-bottom"></span></div>
    </div>
    <div id="seats" class="card"></div>
    <div class="side card">
      <div id="title"></div>
      <div class="scores" id="scores" data-testid="scores"></div>
      <div class="status" id="status" data-testid="status"></div>
      <div class="muted small" id="premove" data-testid="premove" hidden></div>
      <div id="notice"></div>
      <div class="low-time" id="low-time" data-testid="low-time" role="alert" hidden></div>
      <div id="offer"></div>
      <div id="result"></div>
      <div class="err" id="err" data-testid="error"></div>
      <div class="buttons" id="buttons"></div>
      <div class="tools"><span id="notation-wrap">${t('moves')}${t('colon')}<select id="notation" data-testid="notation"><option value="iccs">ICCS</option><option value="wxf">WXF</option><option value="chinese">中文</option></select></span>
        <span id="themes-wrap" hidden>${t('board_theme')}${t('colon')}<select id="board-theme" data-testid="board-theme">${Object.keys(BOARDS).map((b) => `<option value="${b}"${b === boardTheme() ? ' selected' : ''}>${t('board_' + b)}</option>`).join('')}</select>
        ${t('piece_theme')}${t('colon')}<select id="piece-theme" data-testid="piece-theme">${Object.keys(PIECES).map((p) => `<option value="${p}"${p === pieceTheme() ? ' selected' : ''}>${t('pieces_' + p)}</option>`).join('')}</select></span>
        <button id="flip" data-testid="flip">${t('flip')}</button> <button id="sound" data-testid="sound" aria-pressed="false"></button> <a id="pgn" href="/api/games/${esc(id)}/pgn" data-testid="pgn">${t('pgn')}</a> <a id="study-link" data-testid="study-link" title="${esc(t('study_open_title'))}" hidden>${t('study_open')}</a></div>
      ${typedHtml()}
      <div class="opening small" id="opening" data-testid="opening" hidden></div>
      <div class="moves"><table id="moves" data-testid="moves"></table></div>
      <div id="replay" class="buttons"></div>
      <div class="fen-box small" id="fen-box" hidden><span class="muted">${t('fen')}</span> <code id="fen" data-testid="fen"></code> <button data-f="copy-fen" data-testid="copy-fen">${t('copy_fen')}</button></div>
      <div id="chat" class="chat" hidden></div>
    </div></div><div id="chooser"></div>`;
}

/**
 * The chooser between moves of the same squares (a module's `chooser` names them).
 * @param {string[]} cands
 * @param {Partial<GameModule>} mod
 */
export function chooserHtml(cands, mod) {
  const c = mod.chooser;
  const label = (/** @type {string} */ m) => (c ? c.label(m, t) : m);
  const testid = (/** @type {string} */ m) => (c ? c.testid(m) : `choice-${m}`);
  return `<div class="chooser-back" data-testid="chooser-backdrop"></div><div class="chooser" data-testid="class-chooser" role="dialog"><b>${t(c ? c.title : 'choose_move')}</b>${cands.map((m) => `<button data-mv="${esc(m)}" data-testid="${esc(testid(m))}">${esc(label(m))}</button>`).join('')}<button class="cancel" data-testid="class-cancel">${t('cancel')} (Esc)</button></div>`;
}

/**
 * The draw offer's notice: one to answer, ours waiting, or ours declined a moment ago.
 * @param {Record<string, any>} state the store's state
 * @param {GameStore} store
 * @param {{ offer: boolean }} ex
 */
function offerHtml(state, store, ex) {
  const mySeat = state.seat;
  const now = performance.now();
  if (state.status !== 'playing' || mySeat == null || !ex.offer) return '';
  if (state.draw_offer != null && state.draw_offer !== mySeat) {
    const who = esc(seatLabel(state.seats[state.draw_offer]));
    return `<div class="offer" data-testid="draw-offer"><b>${t('offers_draw').replace('{name}', who)}</b><div class="buttons"><button class="primary" data-f="accept" data-testid="accept-draw">${t('accept_draw')}</button><button data-f="decline" data-testid="decline-draw">${t('decline_draw')}</button></div></div>`;
  }
  if (state.draw_offer === mySeat) return `<div class="offer muted" data-testid="draw-pending">${t('draw_offered_wait')}</div>`;
  if (store.declinedAt && now - store.declinedAt < 10000) return `<div class="offer declined" data-testid="draw-declined">${t('draw_declined')}<div class="small muted" data-testid="foul-about">${t('foul_about')}</div></div>`;
  return '';
}

/**
 * Resigning while the game keeps it closed: the disabled button, why, and
 * (where the module offers one) a Leave button with what leaving costs.
 * @param {ReturnType<typeof extras>} ex
 */
function resignClosedHtml(ex) {
  const why = ex.resignWhy || t('resign_later');
  const leave = ex.leave ? ` <button data-f="leave" data-testid="leave">${t('leave_game')}</button>` : '';
  const about = ex.leave ? `<div class="muted small leave-about" data-testid="leave-about">${esc(ex.leave)}</div>` : '';
  return `<button disabled data-testid="resign-later" title="${esc(why)}">${t('resign')}</button>${leave}<div class="muted small leave-about" data-testid="resign-why">${esc(why)}</div>${about}`;
}

/**
 * The buttons under the status line.
 * @param {Record<string, any>} state the store's state
 * @param {GameStore} store
 * @param {Partial<GameModule>} mod
 * @param {ReturnType<typeof extras>} ex
 * @param {boolean} out whether the viewer left a game the others play on
 * @param {any} me
 */
function buttonsHtml(state, store, mod, ex, out, me) {
  const myTurn = store.myTurn();
  const legal = state.legal || [];
  const b = [];
  if (state.status === 'playing' && state.seat != null && !out) {
    if (myTurn && legal.some((/** @type {string} */ m) => m === '0000' || m === 'pass')) b.push(`<button data-f="pass" data-testid="pass">${t('pass')}</button>`);
    // A simultaneous set-up phase: the server draws a legal set-up.
    if (myTurn && legal.includes('random')) b.push(`<button data-f="random" data-testid="random-setup">${t('random_setup')}</button>`);
    // A module's own moves as buttons (say, send the set-up being edited).
    if (myTurn && mod.actions) for (const a of mod.actions(state, t)) b.push(`<button data-f="action" data-move="${esc(a.move)}" data-testid="${esc(a.testid)}"${a.disabled ? ` disabled title="${esc(a.why || '')}"` : ''}>${esc(a.label)}</button>`);
    if (state.abortable) b.push(`<button data-f="abort" data-testid="abort" title="${esc(t('abort_about'))}">${t('abort')}</button>`);
    if (ex.offer && state.draw_offer == null) b.push(`<button data-f="draw" data-testid="offer-draw">${t('offer_draw')}</button>`);
    b.push(takebackButton(state));
    // A claim only when the server says it would be granted, with the reason in plain words.
    if (ex.claim && state.claimable) b.push(`<span class="claim-offer" data-testid="claim-offer"><button class="primary" data-f="claim" data-testid="claim">${t('claim')}</button> <span class="small" data-testid="claim-why">${esc(mod.claimWhy ? mod.claimWhy(state, t) : t('claim_valid'))}</span></span>`);
    b.push(ex.resign ? `<button data-f="resign" data-testid="resign">${t('resign')}</button>` : resignClosedHtml(ex));
  }
  if (mayJoin(state, me)) b.push(`<button data-f="join" data-testid="join">${t('join')}</button>`);
  return b.join(' ');
}

/**
 * The move list: the module's rows, or two moves a row.
 * @param {Record<string, any>} state
 * @param {Partial<GameModule>} mod
 * @param {Ui} ui
 */
function movesHtml(state, mod, ui) {
  if (mod.moveRows) return mod.moveRows(state, ui.replayPly, esc, ui.notation);
  const rec = state.records || [];
  const rows = [];
  for (let i = 0; i < rec.length; i += 2) {
    const cell = (/** @type {number} */ j) => rec[j] ? `<td class="${ui.replayPly === j + 1 ? 'cur' : ''}" data-ply="${j + 1}">${esc(mod.moveText ? mod.moveText(rec[j], t) : rec[j][ui.notation] || rec[j].iccs)}</td>` : '<td></td>';
    rows.push(`<tr><td class="muted">${i / 2 + 1}.</td>${cell(i)}${cell(i + 1)}</tr>`);
  }
  return rows.join('');
}

/**
 * The game's named opening above the move list (games that classify
 * openings send `opening`: a code and names; Chinese pages show the name
 * players use, English ones our short English name with that one on hover).
 * @param {HTMLElement} el
 * @param {{ code: string, name: string, name_en: string } | null | undefined} opening
 */
function openingLine(el, opening) {
  el.hidden = !opening;
  if (!opening) return;
  const zh = getLang() === 'zh';
  el.textContent = t('opening_name', { code: opening.code, name: zh ? opening.name : opening.name_en });
  el.title = t('opening_about', { zh: opening.name });
}

/**
 * The notices that count down, drawn again on every tick: the first move's
 * time (the game is aborted when it runs out) and, once the opponent has
 * left during their turn, the time until the game may be claimed, then the
 * claim's two buttons.
 * @param {Record<string, any>} state the store's state
 * @param {GameStore} store
 * @param {number} now performance.now()
 */
export function noticeHtml(state, store, now) {
  if (state.status !== 'playing') return '';
  const out = [];
  const secs = (/** @type {number} */ ms, /** @type {number} */ at) => Math.max(0, Math.ceil((ms - (now - at)) / 1000));
  if (state.first_move_ms != null && state.to_move != null) {
    // Seconds, or days and hours (a correspondence game's first move has the whole time).
    const left = secs(state.first_move_ms, store.receivedAt);
    const n = left < 3600 ? t('secs').replace('{n}', String(left)) : longClock(left * 1000);
    const mine = state.seat != null && store.myTurn();
    const text = mine ? t('first_move_you').replace('{n}', n) : t('first_move_them').replace('{name}', esc(seatLabel(state.seats[state.to_move]))).replace('{n}', n);
    out.push(`<div class="offer first-move${mine ? ' mine' : ''}" data-testid="first-move">${text}</div>`);
  }
  const c = store.claim;
  if (c && state.seat != null && !store.myTurn()) {
    const n = secs(c.ms, c.at);
    out.push(`<div class="offer" data-testid="opponent-left"><b>${t('opponent_left')}</b> · ${n > 0
      ? `<span data-testid="claim-countdown">${t('claim_in').replace('{n}', String(n))}</span>`
      : `${t('claim_now')}<div class="buttons"><button class="primary" data-f="claim-win" data-testid="claim-win">${t('claim_win')}</button> <button data-f="claim-draw" data-testid="claim-draw">${t('claim_draw')}</button></div>`}</div>`);
  }
  return out.join('');
}

/** @param {number} plies */
function replayHtml(plies) {
  return plies ? `${t('replay')}${t('colon')}<button data-r="0" title="${t('replay_first')}" data-testid="replay-first">${icon('first')}</button><button data-r="-1" data-testid="replay-prev" title="${t('replay_prev')}">${icon('prev')}</button><button data-r="1" data-testid="replay-next" title="${t('replay_next')}">${icon('next')}</button><button data-r="end" data-testid="replay-last" title="${t('replay_last')}">${icon('last')}</button>` : '';
}

/**
 * The drawing of one game page into `view` (its markup already there).
 * @param {HTMLElement} view
 * @param {{ id: string, me: any, store: GameStore, ui: Ui, onClick: (sq: string) => void, rerender: () => void }} page
 */
export function gameRenderer(view, { id, me, store, ui, onClick, rerender }) {
  const $ = (/** @type {string} */ x) => /** @type {any} */ (document.getElementById(x));
  let shownNames = '', shownPlies = -1, shownNotice = '';

  /** Draws the page for `mod` (the game's module, loaded). @param {GameModule} mod */
  function render(mod) {
    const state = store.state;
    if (!state) return;
    const mySeat = state.seat;
    const flip = ui.flipped !== (mySeat === 1);
    const rec = state.records || [];
    const lastRec = ui.replayPly == null ? rec[rec.length - 1] : rec[ui.replayPly - 1];
    // Board and piece themes dress the boards whose module takes them.
    $('themes-wrap').hidden = !mod.themes;
    const ex = extras(mod, state);
    const legal = state.legal || [];
    const last = (mod.last || pairLast)(lastRec);
    const targets = (mod.targets || pairTargets)(legal, ui.selected);
    mod.draw($('board'), { state, replayPly: ui.replayPly, flipped: flip, userFlipped: ui.flipped, selected: ui.selected || ui.preFrom, targets, last, onClick, notation: ui.notation });
    if (ui.premove && ui.replayPly == null) markPremove($('board'), ui.premove);
    $('premove').hidden = !ui.premove;
    $('premove').textContent = ui.premove ? t('premove').replace('{m}', ui.premove) : '';
    // A game of any number of seats lists them itself, instead of the two
    // bars above and below the board.
    const ctx = { t, esc, seatLabel, titleSlot, replayPly: ui.replayPly, rerender, fen: mod.fenAt ? mod.fenAt(state, ui.replayPly) : state.fen };
    $('top-bar').hidden = $('bot-bar').hidden = !!mod.seats;
    /** @type {HTMLElement} */ (view.querySelector('.game')).classList.toggle('seated', !!mod.seats);
    $('notation-wrap').hidden = mod.notations === false;
    $('flip').textContent = t(mod.flipLabel || 'flip');
    $('pgn').hidden = !ex.pgn;
    // The record in the move list's notation (a game without notations has one).
    const withNotation = mod.notations !== false && ui.notation !== 'iccs';
    $('pgn').setAttribute('href', `/api/games/${encodeURIComponent(id)}/pgn${withNotation ? `?notation=${encodeURIComponent(ui.notation)}` : ''}`);
    $('pgn').textContent = mod.notations === false ? t('pgn') : t('pgn_in').replace('{notation}', t('notation_' + ui.notation));
    // The analysis board at the position shown, with the game's moves as its main line.
    const recs = state.records || [];
    const link = studyLink(state.game, state.start_fen, recs.map((/** @type {any} */ r) => r.iccs), ui.replayPly == null ? recs.length : ui.replayPly, state);
    $('study-link').hidden = !link;
    if (link) $('study-link').setAttribute('href', link);
    if (mod.seats) { $('seats').innerHTML = mod.seats(state, ctx); decorate($('seats')); }
    const top = flip ? 0 : 1, bot = flip ? 1 : 0;
    // A seat may have no colour yet (the game's module says: its `sideOf`).
    const side = (/** @type {number} */ seat) => (mod.sideOf ? mod.sideOf(state, seat) : seat === 0 ? 'red' : 'black');
    const nameHtml = (/** @type {number} */ seat) => `${side(seat) ? `<span class="side-${side(seat)}">${t(side(seat))}</span>${t('colon')}` : ''}${esc(seatLabel(state.seats[seat]))}${botBadge(state.seats[seat])}${titleSlot(state.game, state.seats[seat])}`;
    const names = `${nameHtml(top)}|${nameHtml(bot)}`;
    if (names !== shownNames && !mod.seats) {
      // Only when the seats change: the titles are fetched, not redrawn per move.
      shownNames = names;
      $('top-name').innerHTML = nameHtml(top);
      $('bot-name').innerHTML = nameHtml(bot);
      decorate(view.querySelector('.board-wrap'));
    }
    // The position shown, as text to copy (games whose module gives it).
    const fenShown = mod.fenAt ? ctx.fen : '';
    $('fen-box').hidden = !fenShown;
    $('fen').textContent = fenShown || '';
    $('title').innerHTML = `<b>${esc(t(state.game))}</b> · <span data-testid="clock-rule">${clockText(state.clock, state.game)}</span>${state.rated ? ' · ' + t('rated') : ''}`;
    $('scores').innerHTML = mod.info(state, t, ctx);
    // A seat that left a game the others play on only watches.
    const out = mySeat != null && !!(state.progress && state.progress.seats && (state.progress.seats[mySeat] || {}).out);
    let status = '';
    if (state.status === 'waiting') status = t('waiting');
    else if (state.status === 'finished') status = resultLine(state, mod, ctx);
    else if (mySeat == null) status = t('spectator');
    else if (out) status = t('out_of_game');
    else status = store.myTurn() ? t('your_turn') : t('their_turn');
    if (state.status === 'playing' && state.turn_state === 2) status += ` · ${t('second_move')}`;
    $('status').textContent = status;
    // Once over, the result panel says it all (the line stays for readers of the page's text).
    $('status').hidden = state.status === 'finished';
    $('offer').innerHTML = offerHtml(state, store, ex) + takebackHtml(state) + waitingHtml(state, me);
    $('result').innerHTML = state.status === 'finished' ? resultPanel(state, mod, ctx, ui.ratings) + analysisHtml(state, id, mod, ui.notation, ui.replayPly) : '';
    decorate($('result'));
    $('buttons').innerHTML = buttonsHtml(state, store, mod, ex, out, me);
    $('moves').innerHTML = movesHtml(state, mod, ui);
    openingLine($('opening'), state.opening);
    // The newest move in sight (a long list scrolls).
    if (ui.replayPly == null && rec.length !== shownPlies) { const box = /** @type {HTMLElement} */ (view.querySelector('.moves')); box.scrollTop = box.scrollHeight; }
    shownPlies = rec.length;
    $('replay').innerHTML = replayHtml(rec.length);
    $('typed').hidden = !(state.status === 'playing' && mySeat != null && !out);
    $('typed-input').placeholder = typedExample(mod);
    document.title = tabTitle(state, { myTurn: store.myTurn(), out, result: state.status === 'finished' ? resultLine(state, mod, ctx) : '' });
    tick();
  }

  // The low-time warning: once per turn of one's own when the clock
  // passes the line (a sound and a notice beside the red clock).
  let lowWarned = false;
  /** The low-time line of a game: 20 s, or a third of a short base time. @param {Record<string, any>} state */
  const lowLine = (state) => Math.min(20000, ((state.clock && state.clock.initial_s) || 600) * 1000 / 3);

  /** The clocks, counting down from the last state; an old "declined" notice goes. */
  function tick() {
    const state = store.state;
    if (!state) return;
    lowTime(state);
    const flip = ui.flipped !== (state.seat === 1);
    const top = flip ? 0 : 1, bot = flip ? 1 : 0;
    const now = performance.now();
    const days = clockDays(state.clock);
    const show = (/** @type {HTMLElement | null} */ e, /** @type {number} */ seat) => {
      if (!e || state.clocks[seat] == null) return;
      let ms = state.clocks[seat];
      const running = state.status === 'playing' && state.running === seat;
      if (running) ms -= now - store.receivedAt;
      // A correspondence clock counts days and hours.
      e.textContent = days ? longClock(ms) : fmtClock(ms);
      e.classList.toggle('running', running);
      e.classList.toggle('low', ms < 20000);
    };
    show($('top-clock'), top);
    show($('bot-clock'), bot);
    const notice = noticeHtml(state, store, now);
    if (notice !== shownNotice) { shownNotice = notice; $('notice').innerHTML = notice; }
    view.querySelectorAll('[data-clock-seat]').forEach((e) => show(/** @type {HTMLElement} */ (e), Number(/** @type {HTMLElement} */ (e).dataset.clockSeat)));
    if (store.declinedAt && now - store.declinedAt > 10000 && $('offer').querySelector('[data-testid="draw-declined"]')) { store.declinedAt = 0; $('offer').innerHTML = ''; }
  }

  /** Warns the player whose own clock runs low. @param {Record<string, any>} state */
  function lowTime(state) {
    const seat = state.seat;
    const box = $('low-time');
    const mine = state.status === 'playing' && seat != null && state.running === seat && state.clocks[seat] != null && !clockDays(state.clock);
    const ms = mine ? state.clocks[seat] - (performance.now() - store.receivedAt) : Infinity;
    const low = mine && ms < lowLine(state) && ms > 0;
    if (low && !lowWarned) { lowWarned = true; play('lowtime'); }
    if (!mine || ms >= lowLine(state)) lowWarned = false;
    box.hidden = !low;
    if (low) box.textContent = t('low_time').replace('{n}', String(Math.max(0, Math.ceil(ms / 1000))));
  }

  /** The names are drawn again on the next render (their titles changed). */
  const forgetNames = () => { shownNames = ''; };
  return { render, tick, forgetNames };
}
