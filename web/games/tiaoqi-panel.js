// @ts-check
// Tiaoqi's panels beside the board: the list of every seat (camp letter and
// colour, player, clock, whose turn, distance left and the marks of
// `state.progress`: dead-game countdown, place earned, out), the dead-game
// banner, the finishing order once the game is over, the result line and
// the move list with each move's mover.
import { distances, finished, parse, piecesEach, replayOf, seatLetters } from './tiaoqi-geo.js';
import { COLOUR } from './tiaoqi-colours.js';
import { getLang } from '../i18n.js';

/** The move list has no other notations to choose from. */
export const notations = false;

const fill = (s, n) => String(s).replace('{n}', n);
/** A message with its `{name}` places filled. @param {string} key @param {Record<string, any>} vars */
const tf = (t, key, vars) => Object.entries(vars).reduce((s, [k, v]) => s.split(`{${k}}`).join(String(v)), t(key));

/** A camp's colour in words ("Green", "绿"). */
export function colourName(l, t) { return t('tq_colour_' + l); }

/**
 * The name of seat `i` as this game shows it: a player's name, an AI by its
 * colour ("Computer (Green)", 电脑（绿）) so that two AIs are told apart.
 */
export function nameOf(state, i, ctx) {
  const s = (state.seats || [])[i];
  const l = seatLetters((state.seats || []).length)[i];
  if (s && s.kind === 'ai' && l) return tf(ctx.t, 'tq_ai', { colour: colourName(l, ctx.t) });
  return ctx.seatLabel(s);
}

/** Seat `i` as a result names it: "Green (alice)", or an AI's own name (it has the colour). */
function who(state, i, ctx) {
  const s = (state.seats || [])[i];
  if (s && s.kind === 'ai') return nameOf(state, i, ctx);
  const l = seatLetters((state.seats || []).length)[i];
  return tf(ctx.t, 'tq_who', { colour: colourName(l, ctx.t), name: ctx.seatLabel(s) });
}

/** A place in the UI's language: 1st, 2nd … or 第1名 …. */
export function ordinal(n, t) {
  if (getLang() === 'zh') return fill(t('tq_place'), n);
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  return `${n}${s}`;
}

const swatch = (l) => `<span class="tq-swatch" style="background:${COLOUR[l] || '#888'}">${l}</span>`;

/**
 * Each seat's standing: the server's `progress` while the game is shown as
 * it is now, else worked out from the position shown (distance left, out
 * when its pieces left the board, done when it filled its target).
 */
export function progressOf(state, fen, replay) {
  const letters = seatLetters((state.seats || []).length);
  const { board } = parse(fen);
  const dist = distances(board), pieces = piecesEach(board);
  const own = letters.split('').map((l, i) => ({
    to_go: dist[l] ?? null,
    done: l in dist && finished(board, l, pieces),
    out: letters.length > 2 && !(l in dist),
    i,
  }));
  const p = !replay && state.progress;
  if (!p || !Array.isArray(p.seats)) return { seats: own.map((s) => ({ ...s, countdown: null, place: null })), dead_game: false, quiet_left: null };
  return {
    seats: own.map((s, i) => {
      const q = p.seats[i] || {};
      return { ...s, to_go: q.to_go ?? s.to_go, countdown: q.countdown ?? null, place: q.place ?? null, out: q.out ?? s.out, done: s.done || q.place != null };
    }),
    dead_game: !!p.dead_game,
    quiet_left: p.quiet_left ?? null,
  };
}

/** The place of each seat index once the game is over: {index: place}. */
function placesOf(state) {
  const out = {};
  let place = 1;
  for (const group of state.placings || []) {
    for (const i of group) out[i] = { place, tied: group.length > 1 };
    place += group.length;
  }
  return out;
}

/**
 * The seat list: one line per seat, in play order. `ctx` has the page's
 * helpers {t, esc, seatLabel, titleSlot, fen, replayPly}; clocks are the
 * `[data-clock-seat]` spans the page's ticker fills.
 */
export function seats(state, ctx) {
  const { t, esc, titleSlot } = ctx;
  const letters = seatLetters((state.seats || []).length);
  const prog = progressOf(state, ctx.fen, ctx.replayPly != null);
  const places = state.status === 'finished' ? placesOf(state) : {};
  const toMove = ctx.replayPly != null ? parse(ctx.fen).toMove : state.status === 'playing' ? letters[state.to_move] : null;
  const family = letters.length > 2 ? 'tiaoqi-multi' : state.game;
  const rows = letters.split('').map((l, i) => {
    const s = prog.seats[i], turn = l === toMove;
    const marks = [];
    const place = places[i] ? places[i].place : s.place;
    if (place != null) marks.push(`<span class="tq-mark tq-place" data-testid="place-mark-${l}">${ordinal(place, t)}</span>`);
    else if (s.done) marks.push(`<span class="tq-mark tq-place">${t('tq_done')}</span>`);
    if (s.out) marks.push(`<span class="tq-mark tq-out" data-testid="out-mark-${l}">${t('tq_out')}</span>`);
    if (s.countdown != null) marks.push(`<span class="tq-mark tq-countdown" data-testid="countdown-${l}" title="${esc(t('tq_dead_game'))}">⚠ ${fill(t('tq_countdown'), s.countdown)}</span>`);
    const you = state.seat === i ? ` <span class="tq-you">${t('tq_you')}</span>` : '';
    return `<div class="tq-seat${turn ? ' turn' : ''}${s.out ? ' out' : ''}" data-testid="seat-${l}" data-seat="${i}">
      <span class="tq-turn" aria-label="${turn ? esc(t('tq_to_move')) : ''}">${turn ? '▶' : ''}</span>${swatch(l)}
      <span class="tq-name"${state.seats[i] && state.seats[i].kind === 'ai' ? ` title="${esc(fill(t('tq_ai_level'), state.seats[i].level))}"` : ''}>${state.seats[i] && state.seats[i].kind === 'open' ? `<span class="muted">${t('tq_open')}</span>` : esc(nameOf(state, i, ctx))}${you}${titleSlot(family, state.seats[i])}</span>
      <span class="tq-togo" data-testid="to-go-${l}" title="${esc(t('tq_to_go'))}">${s.to_go ?? '—'}</span>
      <span class="tq-marks">${marks.join(' ')}</span>
      ${s.out || state.status === 'finished' ? '<span></span>' : `<span class="clock tq-clock" data-clock-seat="${i}"></span>`}</div>`;
  });
  return `<div class="tq-seats" data-testid="seats"><div class="tq-seat tq-head muted"><span class="tq-turn"></span><span class="tq-swatch tq-blank"></span><span class="tq-name">${t('players')}</span><span class="tq-togo">${t('tq_to_go')}</span><span class="tq-marks"></span><span class="tq-clock-head"></span></div>${rows.join('')}</div>`;
}

/** The banners above the status: the dead-game countdown and the finishing order. */
export function info(state, t, ctx) {
  if (!ctx) return '';
  const { esc } = ctx;
  const out = [];
  const prog = progressOf(state, state.fen, false);
  if (state.status === 'playing' && prog.dead_game) {
    const due = prog.seats.filter((s) => s.countdown != null);
    out.push(`<div class="tq-banner tq-dead" data-testid="dead-game"><b>${t('tq_dead_title')}</b> ${t('tq_dead_game')}${due.length ? `<div>${due.map((s) => `${swatch(seatLetters(state.seats.length)[s.i])} ${fill(t('tq_countdown'), s.countdown)}`).join(' · ')}</div>` : ''}</div>`);
  } else if (state.status === 'playing' && prog.quiet_left != null && prog.quiet_left <= 5) {
    out.push(`<div class="tq-banner tq-quiet" data-testid="quiet-left">${fill(t('tq_quiet'), prog.quiet_left)}</div>`);
  }
  if (state.status === 'finished' && Array.isArray(state.placings) && state.placings.length) {
    const letters = seatLetters(state.seats.length);
    let place = 1;
    const items = state.placings.map((group) => {
      const line = `<li data-testid="finish-place-${place}"><b>${ordinal(place, t)}${group.length > 1 ? '=' : ''}</b> ${group.map((i) => `${swatch(letters[i])} ${esc(nameOf(state, i, { ...ctx, t }))}${state.seat === i ? ` ${t('tq_you')}` : ''}`).join(t('list_sep'))}</li>`;
      place += group.length;
      return line;
    });
    out.push(`<div class="tq-finish" data-testid="finish-order"><b>${t('tq_finish_order')}</b><ol>${items.join('')}</ol></div>`);
  }
  return out.join('');
}

/** The result line: who won (by colour and name), or a draw. */
export function result(state, t, ctx) {
  const letters = seatLetters((state.seats || []).length);
  const i = letters.indexOf(state.result);
  if (i < 0) return t('result_draw');
  return fill(t('tq_wins'), who(state, i, { ...ctx, t }));
}

/** What ended the game, in words, naming colours and players (T8, T9, T14). */
export function explain(state, t, ctx) {
  const c = { ...ctx, t };
  const letters = seatLetters((state.seats || []).length);
  const w = letters.indexOf(state.result);
  const pl = state.placings || [];
  // In a two-player game the other seat is the one that left.
  const loser = letters.length === 2 && w >= 0 ? 1 - w : -1;
  switch (state.reason) {
    case 'points': return w >= 0 ? tf(t, 'tq_x_filled', { who: who(state, w, c) }) : null;
    case 'dead-position': return t('tq_dead_over');
    case 'resignation':
      if (loser >= 0) return tf(t, 'tq_x_resigned', { who: who(state, loser, c) });
      return w >= 0 && pl.length > 1 ? tf(t, 'tq_others_left', { who: who(state, w, c) }) : t('tq_players_left');
    case 'timeout': return loser >= 0 ? tf(t, 'tq_x_timeout', { who: who(state, loser, c) }) : null;
    default: return null;
  }
}

/** The move list: two seats a row (a, d) in a two-player game, else one move a row, each with its mover. */
export function moveRows(state, replayPly, esc) {
  const rec = state.records || [];
  const who = replayOf(state).movers;
  const cellOf = (j) => rec[j] ? `<td class="${replayPly === j + 1 ? 'cur' : ''}" data-ply="${j + 1}">${who[j] ? swatch(who[j]) + ' ' : ''}${esc(rec[j].iccs)}</td>` : '<td></td>';
  const rows = [];
  if ((state.seats || []).length === 2) {
    for (let i = 0; i < rec.length; i += 2) rows.push(`<tr><td class="muted">${i / 2 + 1}.</td>${cellOf(i)}${cellOf(i + 1)}</tr>`);
  } else {
    for (let i = 0; i < rec.length; i++) rows.push(`<tr><td class="muted">${i + 1}.</td>${cellOf(i)}</tr>`);
  }
  return rows.join('');
}
