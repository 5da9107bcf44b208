// @ts-check
// Four-army Junqi's page module (四国军棋, S1-S15): the board turned so that
// the viewer's army is at the bottom (siguo-board.js draws it; geometry and
// position text in siguo-geo.js); the set-up editor and saved set-ups of the
// two-army game (junqi.js exports them: the same set-up text serves every
// army, S7); clicks on a piece and a target among the legal moves (`g2g16`);
// the four seats with their teams, clocks and the armies that are out; each
// clash in words and the path of each army's latest move since one's own.
//
// A move record carries its army (`army`), the posts it passed (`path`), a
// clash's outcome (`clash`) and the armies it put out (`out`: `e:flag-taken`,
// several separated by commas), as notations beside its text.
import { t } from '../i18n.js';
import { seatLabel } from '../util.js';
import { ALLY, ARMIES, parse, setupPost, splitMove, turnFor } from './siguo-geo.js';
import { COLOUR, drawBoard } from './siguo-board.js';
import { bindDrag, editorActions, editorClick, editorDraft, inSetup, legend, presetBar } from './junqi.js';

/** The kind whose saved set-ups the editor lists and saves (four-army Junqi's own). */
const PRESET_KIND = 'siguo';

/** The army of a seat (0-3: s e n w). @param {number | null | undefined} seat */
export const armyOf = (seat) => (seat == null ? null : ARMIES[seat] || null);

/** @param {Record<string, any>} rec */
const isSetupRec = (rec) => rec.iccs === 'setup' || String(rec.iccs || '').length === 30;

/** The posts a record's move passed (its `path`, else its two posts). @param {Record<string, any> | undefined} rec @returns {string[]} */
export function pathOf(rec) {
  if (!rec) return [];
  if (rec.path) return String(rec.path).trim().split(/\s+/);
  return splitMove(rec.iccs) || [];
}

/** The armies a record put out, with why. @param {Record<string, any>} rec */
export function outsOf(rec) {
  return String(rec.out || '').split(/[,;\s]+/).filter(Boolean).map((x) => { const [army, why] = x.split(':'); return { army, why: why || '' }; });
}

/** The viewer's army, while it plays (null: a spectator). @param {Record<string, any>} state */
const mineOf = (state) => armyOf(state.seat);

/** Whether the game is in its set-up phase (move number 0). @param {Record<string, any>} state */
const setupPhase = (state) => state.status === 'playing' && parse(state.fen).moveNo === 0;

/**
 * The records to show as "since your last move": walking back from the
 * newest, every other army's record until one's own (or, for a spectator or
 * an army that is out, until an army comes round again: one round).
 * @param {Record<string, any>[]} records @param {string | null} mine
 * @returns {number[]} indices, oldest first
 */
export function recentRecords(records, mine) {
  /** @type {number[]} */
  const out = [];
  const seen = new Set();
  for (let j = records.length - 1; j >= 0; j--) {
    const r = records[j], a = r.army;
    if (!a || isSetupRec(r) || a === mine || seen.has(a)) break;
    seen.add(a);
    out.unshift(j);
  }
  return out;
}

/** Own moves made (not set-ups, lost turns). @param {Record<string, any>} state */
function ownMoves(state) {
  const mine = mineOf(state);
  return (state.records || []).filter((r) => r.army === mine && splitMove(r.iccs)).length;
}

/** Every army that is out, with why (from the records; the position says who). @param {Record<string, any>} state */
function outReasons(state) {
  /** @type {Record<string, string>} */
  const why = {};
  for (const r of state.records || []) for (const o of outsOf(r)) why[o.army] = o.why;
  for (const a of parse(state.fen).out) if (!(a in why)) why[a] = '';
  return why;
}

/** Draws the board: the viewer's army at the bottom (South for a spectator), the flip button turns it half round. */
export function draw(svg, { state, userFlipped, selected, targets, onClick }) {
  svg.__jqClick = onClick;
  bindDrag(svg);
  const game = svg.closest && svg.closest('.game');
  if (game) { game.classList.toggle('jq-setup', inSetup(state) && state.seat != null); game.classList.add('sg-game'); }
  const mine = mineOf(state);
  const pos = parse(state.fen);
  const pieces = pos.pieces;
  if (inSetup(state) && mine) {
    const draft = editorDraft(state, { kind: PRESET_KIND, postOf: (seat, i) => setupPost(armyOf(seat) || 's', i) });
    for (const [p, ch] of draft) pieces.set(p, { army: mine, piece: ch });
  }
  const records = state.records || [];
  const why0 = outReasons(state);
  // A player's own moves end the list while it plays; once out, or once over, the last round.
  const own = mine && !(mine in why0) && state.status === 'playing' ? mine : null;
  const recent = setupPhase(state) ? [] : recentRecords(records, own).filter((j) => pathOf(records[j]).length >= 2);
  const paths = recent.map((j, k) => ({ army: records[j].army, path: pathOf(records[j]), age: recent.length - 1 - k, newest: j === records.length - 1 }));
  const why = why0;
  const toSetUp = new Set(state.seats_to_move || []);
  const corners = ARMIES.split('').map((a, seat) => ({
    army: a,
    seat,
    name: seatLabel((state.seats || [])[seat]),
    ai: ((state.seats || [])[seat] || {}).kind === 'ai' ? state.seats[seat].level : null,
    state: /** @type {'' | 'out' | 'ready' | 'setting'} */ (a in why ? 'out' : setupPhase(state) ? (toSetUp.has(seat) ? 'setting' : 'ready') : ''),
    clock: state.status === 'playing',
  }));
  drawBoard(svg, {
    turn: (turnFor(mine || 's') + (userFlipped ? 2 : 0)) % 4,
    pieces,
    out: new Set(Object.keys(why)),
    mine,
    toMove: state.status === 'playing' && !setupPhase(state) ? pos.toMove : null,
    selected: selected || null,
    targets: targets || new Set(),
    paths,
    corners,
    onClick,
  });
}

/** A click on `post`: a swap in the set-up editor; else the move from the selected piece to it, or a new selection. */
export function click(legal, selected, post) {
  if (legal.includes('random')) return editorClick(selected, post);
  if (selected && legal.includes(selected + post)) return { move: selected + post };
  if (post === selected) return { select: null };
  return { select: legal.some((m) => (splitMove(m) || [])[0] === post) ? post : null };
}

/** Every post the selected piece can reach. */
export function targets(legal, selected) {
  return new Set(selected ? legal.map(splitMove).filter((s) => s && s[0] === selected).map((s) => (s ? s[1] : '')) : []);
}

/** The last move's posts (its start and end). */
export function last(rec) { const p = pathOf(rec); return p.length >= 2 ? [p[0], p[p.length - 1]] : []; }

const CLASH = { 'attacker-wins': 'jq_attacker_wins', 'defender-wins': 'jq_defender_wins', 'both-removed': 'jq_both_removed', 'flag-taken': 'jq_flag_taken' };

/** An army in words, in its colour. @param {string} a */
const armyHtml = (a) => `<b style="color:${COLOUR[a] || 'inherit'}">${t('sg_army_' + a)}</b>`;
/** An army's round swatch. @param {string} a */
const swatch = (a) => `<span class="tq-swatch sg-swatch" style="background:${COLOUR[a] || '#888'}">${t('sg_short_' + a)}</span>`;

/** Why an army went out, in words. @param {string} why */
const whyText = (why) => (why && t('sg_out_' + why) !== 'sg_out_' + why ? t('sg_out_' + why) : t('sg_out'));

/** What a record did, in words (without its army): a move and its clash, a lost turn, a resignation, a set-up. @param {Record<string, any>} rec */
function recText(rec) {
  const mv = splitMove(rec.iccs);
  if (mv) return `${mv[0]}→${mv[1]}${rec.clash ? t('colon') + t(CLASH[rec.clash] || rec.clash) : ''}`;
  if (rec.iccs === 'timeout') return t('sg_lost_turn');
  if (rec.iccs === 'surrender') return t('sg_resigned');
  if (isSetupRec(rec)) return t('sg_setup_rec');
  return String(rec.iccs || '');
}

/** The armies a record put out, in words. @param {Record<string, any>} rec */
const outsText = (rec) => outsOf(rec).map((o) => wentOut(o.army, o.why)).join(' ');

/** "East is out: its flag was taken." (without a known reason: "East is out."). @param {string} army @param {string} why */
function wentOut(army, why) {
  const known = why && t('sg_out_' + why) !== 'sg_out_' + why;
  return known ? t('sg_went_out', { army: t('sg_army_' + army), why: t('sg_out_' + why) }) : t('sg_went_out_plain', { army: t('sg_army_' + army) });
}

/** The side panel: the set-up phase (with saved set-ups), or the moves since one's own with their clashes; the legend. */
export function info(state, _t, ctx) {
  const redraw = ctx && ctx.rerender ? ctx.rerender : null;
  if (setupPhase(state)) {
    if (inSetup(state) && state.seat != null) return `<span data-testid="setup-phase">${t('setup_phase')}</span>${presetBar(state, redraw)}`;
    return `<span data-testid="setup-phase">${t(state.seat != null ? 'sg_setup_sent' : 'sg_setup_watch')}</span>`;
  }
  const mine = mineOf(state);
  const records = state.records || [];
  const why = outReasons(state);
  const own = mine && !(mine in why) && state.status === 'playing';
  const items = recentRecords(records, own ? mine : null).map((j) => {
    const r = records[j];
    const outs = outsText(r);
    return `<li data-testid="recent-move" data-ply="${j + 1}">${swatch(r.army)} ${armyHtml(r.army)} <span data-testid="${r.clash ? 'clash' : 'move-words'}">${recText(r)}</span>${outs ? ` <span class="sg-outs" data-testid="went-out">${outs}</span>` : ''}</li>`;
  });
  const head = `<div class="small muted">${t(own ? 'sg_since_own' : 'sg_latest')}</div>`;
  const list = items.length ? `<ul class="sg-recent" data-testid="recent-moves">${items.join('')}</ul>` : `<div class="muted small">${t('sg_no_moves_yet')}</div>`;
  const revealed = state.status === 'finished' ? `<div class="muted small" data-testid="jq-revealed">${t('sg_revealed')}</div>` : '';
  const extra = `<span><svg width="22" height="12" aria-hidden="true"><path d="M1 11 Q1 1 21 1" fill="none" stroke="#3a3a3a" stroke-width="4"/></svg> ${t('sg_legend_arc')}</span> `
    + `<span><svg width="22" height="8" aria-hidden="true"><line x1="1" y1="4" x2="21" y2="4" stroke="${COLOUR.e}" stroke-width="4" stroke-linecap="round"/></svg> ${t('sg_legend_path')}</span> `
    + `<span><svg width="18" height="14" aria-hidden="true"><rect x="1" y="1" width="16" height="12" rx="3" fill="${COLOUR.w}"/></svg> ${t('sg_hidden_piece')}</span>`;
  return `<div class="sg-info">${head}${list}</div>${revealed}${legend(extra)}`;
}

/**
 * The four seats in turn order: army and team, player, whose turn, clock;
 * an army that is out greyed with why; in the set-up phase who has set up.
 */
export function seats(state, ctx) {
  const { esc, titleSlot } = ctx;
  const mine = mineOf(state);
  const pos = parse(state.fen);
  const why = outReasons(state);
  const setup = setupPhase(state);
  const toSetUp = new Set(state.seats_to_move || []);
  const rows = ARMIES.split('').map((a, i) => {
    const s = (state.seats || [])[i];
    const out = a in why;
    const turn = state.status === 'playing' && !setup && !out && pos.toMove === a;
    const marks = [];
    if (out) marks.push(`<span class="tq-mark tq-out" data-testid="out-mark-${a}" title="${esc(whyText(why[a]))}">${t('sg_out')}${why[a] ? t('colon') + whyText(why[a]) : ''}</span>`);
    else if (setup) marks.push(`<span class="tq-mark ${toSetUp.has(i) ? 'sg-setting' : 'tq-place'}" data-testid="setup-mark-${a}">${t(toSetUp.has(i) ? 'sg_setting_up' : 'sg_ready')}</span>`);
    if (mine && a === ALLY[mine]) marks.push(`<span class="tq-mark sg-ally">${t('sg_ally')}</span>`);
    const you = state.seat === i ? ` <span class="tq-you">${t('sg_you')}</span>` : '';
    const name = s && s.kind === 'open' ? `<span class="muted">${t('tq_open')}</span>` : esc(seatLabel(s));
    const team = a === 's' || a === 'n' ? 'sn' : 'ew';
    return `<div class="tq-seat sg-seat sg-team-${team}${turn ? ' turn' : ''}${out ? ' out' : ''}" data-testid="seat-${a}" data-seat="${i}" style="--sg-army:${COLOUR[a]}">
      <span class="tq-turn" aria-label="${turn ? esc(t('tq_to_move')) : ''}">${turn ? '▶' : ''}</span>${swatch(a)}
      <span class="tq-name"><b style="color:${out ? '#888' : COLOUR[a]}">${t('sg_army_' + a)}</b> <span class="sg-player">${name}${you}</span>${titleSlot(state.game, s)}</span>
      <span class="tq-togo sg-teamname" title="${esc(t('sg_team_' + team))}">${t('sg_teamshort_' + team)}</span>
      <span class="tq-marks">${marks.join(' ')}</span>
      ${out || state.status === 'finished' ? '<span></span>' : `<span class="clock tq-clock" data-clock-seat="${i}"></span>`}</div>`;
  });
  return `<div class="tq-seats sg-seats" data-testid="seats"><div class="tq-seat tq-head muted"><span class="tq-turn"></span><span class="tq-swatch tq-blank"></span><span class="tq-name">${t('players')}</span><span class="tq-togo">${t('sg_team')}</span><span class="tq-marks"></span><span class="tq-clock-head"></span></div>${rows.join('')}</div>`;
}

/** The move list: one record a row, with its army. */
export function moveRows(state, replayPly, esc) {
  const rec = state.records || [];
  return rec.map((r, j) => {
    const outs = outsText(r);
    return `<tr><td class="muted">${j + 1}.</td><td class="${replayPly === j + 1 ? 'cur' : ''}" data-ply="${j + 1}">${r.army ? swatch(r.army) + ' ' : ''}${esc(recText(r))}${outs ? ` <span class="muted small">${esc(outs)}</span>` : ''}</td></tr>`;
  }).join('');
}

/** The winning team (`sn`, `ew`), or null: a draw, an aborted game, not known. @param {Record<string, any>} state */
export function winningTeam(state) {
  const pl = state.placings;
  if (Array.isArray(pl) && pl.length > 1 && pl[0].length) { const a = armyOf(pl[0][0]); return a === 's' || a === 'n' ? 'sn' : 'ew'; }
  const r = String(state.result || '').toLowerCase();
  if (/south|north|^sn$/.test(r)) return 'sn';
  if (/east|west|^ew$/.test(r)) return 'ew';
  return null;
}

/** Who won: a team, or a draw. */
export function result(state) {
  const w = winningTeam(state);
  return w ? t('sg_team_wins', { team: t('sg_team_' + w) }) : t('result_draw');
}

/** How the game went for a seated viewer: its team's result. */
export function viewerResult(state) {
  const mine = mineOf(state);
  if (!mine || state.status !== 'finished' || state.reason === 'aborted') return null;
  const w = winningTeam(state);
  if (!w) return state.result === 'draw' ? 'draw' : null;
  return w.includes(mine) ? 'won' : 'lost';
}

/** What ended the game: the two armies put out, and how. */
export function explain(state) {
  if (state.reason === 'move-limit') return t('jq_quiet_draw');
  const w = winningTeam(state);
  if (!w) return null;
  const why = outReasons(state);
  const losers = ARMIES.split('').filter((a) => !w.includes(a));
  const lines = losers.map((a) => wentOut(a, why[a] || ''));
  return lines.join(' ');
}

/** No claims or PGN; resigning from one's own 20th move on (S10). */
export function extras(state) {
  const n = ownMoves(state);
  const may = state.status !== 'playing' || state.seat == null || n >= 19;
  return { claim: false, pgn: false, resign: may, resignWhy: may ? undefined : t('sg_resign_from', { n }) };
}

/** A seat's army, as its colour word (profiles, results). */
export function sideOf(_state, seat) { return armyOf(seat) ? 'sg_army_' + armyOf(seat) : null; }

/** The flip button turns the board half round. */
export const flipLabel = 'turn_board';
/** Moves are post pairs: no other notation to choose. */
export const notations = false;
/** The set-up phase's buttons: send the edited set-up, or a planned one. */
export const actions = editorActions;
/** The typed-move box's example. */
export const typedExample = 'g2g16';
