// @ts-check
// The Xiangqi family's page module: the board (with the Jifen classes) and
// the side panel (Jifen scores). app.js loads a game's module by the
// `web_module` its kind names at /api/kinds.
import { drawBoard, drawArrows, parseBoard, modifierHeld, NAMES } from './xiangqi-board.js';
import { moveRows as rows } from '../movelist.js';
import { pairClick } from '../pair-moves.js';
import { lineIn, moveIn } from './xiangqi-notation.js';
import { jifenRules } from './jifen-study.js';
import { legalMoves, play, fenProblem, fenWhy, fullFen, inCheck, toPgn, redToMove, START as STUDY_START, PALETTE, putPiece, movePiece, setSide, pieceOn } from './xiangqi-study.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w';

/** The position at `replayPly` (null: now). @param {Record<string, any>} state @param {number | null} replayPly */
export function fenAt(state, replayPly) {
  const rec = state.records || [];
  if (replayPly == null) return state.fen;
  return replayPly === 0 ? (state.start_fen || START + ' - - 0 1') : rec[replayPly - 1].fen;
}

/** Draws the position at `replayPly` (null: now). */
export function draw(svg, { state, replayPly, flipped, selected, targets, last, onClick, notation }) {
  const fen = fenAt(state, replayPly);
  // The pieces one may drag: those a legal move starts from, on one's turn, at the live position.
  const mine = state.status === 'playing' && state.seat != null && (state.seats_to_move || [state.to_move]).includes(state.seat);
  const movable = new Set(replayPly == null && mine ? (state.legal || []).filter((m) => /^[a-i]\d[a-i]\d/.test(m)).map((m) => m.slice(0, 2)) : []);
  // After checkmate the server still names the mated general: its ring stays.
  const mated = state.status === 'finished' && state.reason === 'checkmate';
  const coords = notation === 'wxf' || notation === 'chinese' ? notation : 'iccs';
  drawBoard(svg, { fen, flipped, selected, targets, last, alerts: replayPly == null ? state.alerts : [], mated, coords, onClick, movable });
}

/** The move list: a row a round, a double turn (Jifen contest) as one entry. */
export function moveRows(state, replayPly, esc, notation) { return rows(state, replayPly, esc, notation); }

/** A line of moves from `fen` (the engine's) in `notation`. @param {string} fen @param {string[]} moves @param {string} notation */
export function line(fen, moves, notation) { return lineIn(fen, moves, notation); }

/** Why a draw may be claimed now (the server says that it may). @param {Record<string, any>} _state @param {(k: string) => string} t */
export function claimWhy(_state, t) { return t('claim_why'); }

// The Jifen classes each rule set has (J1), and what its moves score (the J table).
/** @type {Record<string, string[]>} */
const CLASSES = { 'jifen-simple': ['normal', 'idle'], 'jifen-match': ['normal', 'small', 'idle'], 'jifen-contest': ['normal', 'small', 'royal', 'idle'] };
/** @type {Record<string, string>} */
const MARK = { normal: '=', small: '-', royal: '+', idle: '*' };
/** @type {Record<string, string>} */
const WORD = { normal: '普', small: '小', royal: '王', idle: '闲' };

// The chooser after a Jifen move opens only when asked: the box in the side
// panel (kept in localStorage) or Shift/Alt held on the click or the drop.
const CHOOSER_KEY = 'qy-class-chooser';
const chooserWanted = () => localStorage.getItem(CHOOSER_KEY) === 'on' || modifierHeld();
let legendOpen = false;
if (typeof document !== 'undefined') {
  document.addEventListener('change', (e) => {
    const el = /** @type {HTMLInputElement} */ (e.target);
    if (el && el.dataset && el.dataset.testid === 'class-chooser-toggle') localStorage.setItem(CHOOSER_KEY, el.checked ? 'on' : 'off');
  });
  // The legend is drawn again on every change: it stays open once opened.
  document.addEventListener('toggle', (e) => {
    const el = /** @type {HTMLDetailsElement} */ (e.target);
    if (el && el.dataset && el.dataset.testid === 'class-legend') legendOpen = el.open;
  }, true);
}

/**
 * What the classes and marks of a Jifen rule set mean, where they are shown.
 * @param {string} game @param {(k: string) => string} t
 */
function legend(game, t) {
  const classes = CLASSES[game] || [];
  const items = classes.map((c) => `<li data-class="${c}"><b>${t(c)}</b> <code>${MARK[c]}</code> ${WORD[c]} — ${t(`class_${c}_about`)}</li>`).join('');
  return `<details class="class-legend" data-testid="class-legend"${legendOpen ? ' open' : ''}><summary>${t('class_legend')}</summary>
    <p>${t('class_legend_intro')}</p><ul>${items}</ul>
    <p data-testid="class-marks">${t('class_marks_about').replace('{marks}', classes.map((c) => t('class_mark_item').replace('{mark}', MARK[c]).replace('{name}', t(c)).replace('{word}', WORD[c])).join(t('class_mark_sep')))}</p>
    <p data-testid="class-scoring">${t(`scoring_${game.replace('jifen-', '')}`)}</p></details>`;
}

/** The side panel's line: the Jifen scores (whose is whose, and the target), if the game has them. */
export function info(state, t, ctx) {
  if (!state.scores) return '';
  const name = (i) => (ctx && state.seats && state.seats[i] ? ctx.esc(ctx.seatLabel(state.seats[i])) : '');
  const score = `<span class="score-badge-big" data-testid="score-badge"><span class="score-side red-side" data-testid="score-red-side">${t('red')} <span class="muted">${name(0)}</span> <b data-testid="score-red">${state.scores[0]}</b></span> : <span class="score-side" data-testid="score-black-side"><b data-testid="score-black">${state.scores[1]}</b> ${t('black')} <span class="muted">${name(1)}</span></span></span> <span class="muted" data-testid="score-target">· ${t('score_target').replace('{n}', state.target)}</span>`;
  const playing = state.status === 'playing' && state.seat != null;
  const toggle = playing ? `<label class="small class-toggle"><input type="checkbox" data-testid="class-chooser-toggle"${localStorage.getItem(CHOOSER_KEY) === 'on' ? ' checked' : ''}> ${t('class_chooser_toggle')}</label>` : '';
  return `${score}<div class="jifen-help">${toggle}${legend(state.game, t)}</div>`;
}

/** The board and piece themes (board-theme.js) dress this board. */
export const themes = true;

/** The seats are the colours: the creator of a game picks one. */
export const colourChoice = true;

/** The lobby's one-click starts open plain Xiangqi. */
export const quickPlay = 'xiangqi';

/**
 * The position editor of plain Xiangqi (position-editor.js).
 * @type {import('../kinds.js').StudyEditor}
 */
const XQ_EDITOR = {
  palette: PALETTE,
  label: (letter) => ({ text: NAMES[letter] || '?', first: letter === letter.toUpperCase() }),
  empty: '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1',
  at: pieceOn,
  put: putPiece,
  move: movePiece,
  side: setSide,
  why: fenWhy,
  // The board without the move markers: pieces one may drag anywhere.
  draw(svg, { fen, flipped, selected, onClick, notation, drag }) {
    const coords = notation === 'wxf' || notation === 'chinese' ? notation : 'iccs';
    const movable = new Set(drag ? Object.keys(parseBoard(fen)) : []);
    drawBoard(svg, { fen, flipped, selected, targets: new Set(), last: [], alerts: [], coords, onClick, movable });
  },
};

/**
 * The analysis board (analysis-board.js): plain Xiangqi positions, its legal
 * moves, the position after a move, move names and PGN.
 * @type {import('../kinds.js').Study}
 */
export const study = {
  variants: ['xiangqi', 'jifen-simple', 'jifen-match', 'jifen-contest'],
  forVariant: (v) => (v.startsWith('jifen-') ? jifenStudy(v) : study),
  start: STUDY_START,
  legal: legalMoves,
  play,
  problem: fenProblem,
  normal: fullFen,
  check: inCheck,
  turn: (fen) => ({ number: Number(String(fen).split(' ')[5]) || 1, first: redToMove(fen) }),
  name: moveIn,
  pgn: toPgn,
  draw(svg, { fen, flipped, selected, targets, last, onClick, notation, check, arrows }) {
    const coords = notation === 'wxf' || notation === 'chinese' ? notation : 'iccs';
    const legal = legalMoves(fen);
    const movable = new Set(legal.map((m) => m.slice(0, 2)));
    drawBoard(svg, { fen, flipped, selected, targets, last, alerts: check ? [check] : [], mated: check && !legal.length, coords, onClick, movable });
    if (arrows && arrows.length) drawArrows(svg, arrows, !!flipped);
  },
  editor: XQ_EDITOR,
};

/**
 * The analysis board of a Jifen rule set (jifen-study.js): its legal moves
 * with class changes, scores and double turns; the board shows the classes.
 * @param {string} v
 * @returns {import('../kinds.js').Study}
 */
function jifenStudy(v) {
  const j = jifenRules(v);
  return {
    variants: [v],
    start: j.start,
    legal: j.legal,
    play: j.play,
    problem: j.problem,
    normal: j.normal,
    check: j.check,
    turn: j.turn,
    name: moveIn,
    pgn: (nodes, start, notation, tags = []) => toPgn(nodes, start, notation, [...tags, ['Variant', v]], { play: j.play, full: j.normal, start: j.start }),
    info: (fen, t) => {
      const [red, black] = j.scores(fen);
      return `${t('study_scores', { red, black, n: j.target })}${j.second(fen) ? t('study_second_move') : ''}`;
    },
    draw: study.draw,
    editor: {
      ...XQ_EDITOR,
      // A cleared board has lost its pieces to captures: the flag says so (contest rules hang on it).
      empty: '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 0 0 1 x',
      at: j.editor.at,
      put: j.editor.put,
      move: j.editor.move,
      side: j.editor.side,
      why: j.why,
      classes: j.editor.classes,
      classAt: j.editor.classAt,
      setClass: j.editor.setClass,
      scores: j.editor.scores,
      setScores: j.editor.setScores,
      captured: j.editor.captured,
      setCaptured: j.editor.setCaptured,
      second: j.editor.second,
      setSecond: j.editor.setSecond,
      counters: j.editor.counters,
      setCounters: j.editor.setCounters,
    },
  };
}

/** The engine (engine-worker.js) analyses these games; `start` when a game names no position. */
export const analysis = { start: START + ' - - 0 1' };

/**
 * Premoves (premove.js): whether `sq` holds a piece of the viewer's (red is seat 0).
 * @param {Record<string, any>} state
 * @param {string} sq
 */
export function ownPiece(state, sq) {
  const p = parseBoard(state.fen)[sq];
  return !!p && (p.letter === p.letter.toUpperCase()) === (state.seat === 0);
}

/** A Jifen move may end in the piece's class after it (`h2e2=`, `-`, `+`, `*`). */
const CLASS = /^[=*+-]$/;

/**
 * A typed move: the square pair, maybe with a class (`h2e2*`); without one,
 * every class version of the move goes to the chooser.
 * @param {string} raw
 * @param {string[]} legal
 */
export function typed(raw, legal) {
  const versions = legal.filter((x) => x.startsWith(raw) && CLASS.test(x.slice(raw.length)));
  // A move typed without a class keeps the piece's class, unless the chooser is asked for.
  if (legal.includes(raw)) return { moves: versions.length && chooserWanted() ? [raw, ...versions] : [raw] };
  const m = /^([a-i]\d{1,2})-?([a-i]\d{1,2})([=*+-]?)$/.exec(raw);
  if (!m) return null;
  const pair = m[1] + m[2];
  if (m[3] && legal.includes(pair + m[3])) return { moves: [pair + m[3]] };
  const cands = legal.filter((x) => x === pair || (x.startsWith(pair) && CLASS.test(x.slice(pair.length))));
  return cands.length ? { moves: cands } : { illegal: true };
}

export const typedExample = 'h2e2';

/**
 * A click on the board: square pairs, and a Jifen move that could also
 * change the piece's class is played keeping the class (one click for the
 * common case); the chooser opens when asked for (the box, or Shift/Alt).
 * @param {string[]} legal @param {string | null} selected @param {string} sq
 */
export function click(legal, selected, sq) {
  const r = pairClick(legal, selected, sq);
  if (r.choose && !chooserWanted()) {
    const plain = r.choose.find((m) => m.length === 4);
    if (plain) return { move: plain };
  }
  return r;
}

/** The chooser after a Jifen move asks for the class the piece ends with, saying what each means. */
export const chooser = {
  title: 'choose_class',
  /** @param {string} m @param {(k: string) => string} t */
  label: (m, t) => {
    const c = ({ '=': 'normal', '-': 'small', '+': 'royal', '*': 'idle' })[m.slice(4)];
    if (m.length === 4) return t('keep');
    return c ? `${t(c)} ${MARK[c]} · ${t(`class_${c}_short`)}` : m;
  },
  /** @param {string} m */
  testid: (m) => `class-${m.length > 4 ? m[4] : 'keep'}`,
};
