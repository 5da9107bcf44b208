// @ts-check
// Jifen (积分象棋) on the analysis board: the three rule sets of
// shared/rules/jifen.md in the page, as the `study` hook needs them: the
// legal moves of a position with each class change a move may make (J7-J9,
// a mark after the ICCS move, J22), captures and checks as each class
// allows (J4-J6), the scores after a move (the J table, J10), the double
// turns of the contest rules (J13-J16, a pass `0000`), and the ten-field
// FEN (J21). Geometry is plain Xiangqi's (J2): xiangqi-study.js.
import { pseudo, general, fenWhy, redToMove } from './xiangqi-study.js';

/** @typedef {{ letter: string, red: boolean, kind: string, cls: string }} JPiece */
/** @typedef {(JPiece | null)[][]} JBoard */

/** The classes of each rule set (J1) and their FEN marks (J21). */
export const RULES = /** @type {Record<string, { classes: string[], target: number }>} */ ({
  'jifen-simple': { classes: ['normal', 'idle'], target: 30 },
  'jifen-match': { classes: ['normal', 'small', 'idle'], target: 100 },
  'jifen-contest': { classes: ['normal', 'small', 'royal', 'idle'], target: 100 },
});
const MARK = /** @type {Record<string, string>} */ ({ normal: '', small: '-', royal: '+', idle: '*' });
const MOVE_MARK = /** @type {Record<string, string>} */ ({ normal: '=', small: '-', royal: '+', idle: '*' });
const OF_MARK = /** @type {Record<string, string>} */ ({ '=': 'normal', '-': 'small', '+': 'royal', '*': 'idle' });
const KIND = /** @type {Record<string, string>} */ ({ K: 'K', A: 'A', B: 'B', E: 'B', N: 'N', H: 'N', R: 'R', C: 'C', P: 'P' });

/** Whether a piece of class `a` may capture one of class `v` (J4). @param {string} a @param {string} v */
const mayTake = (a, v) => a !== 'idle' && !(a === 'small' && v === 'small');
/** Plies with no capture and no change of score that end the game (J20). */
export const MOVE_LIMIT = 300;

/**
 * A Jifen FEN's parts: the board with classes, side, clocks, scores, turn state, capture flag.
 * @param {string} fen
 */
export function parse(fen) {
  const f = String(fen || '').trim().split(/\s+/);
  /** @type {JBoard} */
  const board = Array.from({ length: 9 }, () => Array(10).fill(null));
  (f[0] || '').split('/').forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) { file += Number(ch); continue; }
      if (/[-+*=]/.test(ch)) {
        const p = file > 0 && rank >= 0 ? board[file - 1][rank] : null;
        if (p) p.cls = OF_MARK[ch];
        continue;
      }
      const kind = KIND[ch.toUpperCase()];
      if (kind && file < 9 && rank >= 0) board[file][rank] = { letter: ch, red: ch === ch.toUpperCase(), kind, cls: 'normal' };
      file++;
    }
  });
  return {
    board,
    red: f[1] !== 'b',
    half: Number(f[4]) || 0,
    full: Number(f[5]) || 1,
    scores: [Number(f[6]) || 0, Number(f[7]) || 0],
    second: f[8] === '2',
    captured: f[9] === 'x',
  };
}
/** @typedef {ReturnType<typeof parse>} JPos */

/** The board as a FEN field, with class marks. @param {JBoard} b */
function boardText(b) {
  const rows = [];
  for (let r = 9; r >= 0; r--) {
    let row = '', gap = 0;
    for (let f = 0; f < 9; f++) {
      const p = b[f][r];
      if (!p) { gap++; continue; }
      if (gap) { row += gap; gap = 0; }
      row += p.letter + MARK[p.cls];
    }
    rows.push(row + (gap || ''));
  }
  return rows.join('/');
}
/** @param {JPos} p */
const write = (p) => `${boardText(p.board)} ${p.red ? 'w' : 'b'} - - ${p.half} ${p.full} ${p.scores[0]} ${p.scores[1]} ${p.second ? 2 : 1} ${p.captured ? 'x' : '-'}`;

/** Whether a side's royal piece (its general, and in contest rules its Royal pieces, J5) is attacked. @param {JBoard} b @param {boolean} red @param {boolean} royals */
function royalAttacked(b, red, royals) {
  for (const [f, r, tf, tr] of pseudo(/** @type {any} */ (b), !red)) {
    const v = b[tf][tr], a = b[f][r];
    if (!v || !a || v.red !== red) continue;
    if ((v.kind === 'K' || (royals && v.cls === 'royal')) && mayTake(a.cls, v.cls)) return true;
  }
  return false;
}
/** Whether the generals face each other on an open file. @param {JBoard} b */
function facing(b) {
  const g = general(/** @type {any} */ (b), true), o = general(/** @type {any} */ (b), false);
  if (!g || !o || g[0] !== o[0]) return false;
  for (let r = Math.min(g[1], o[1]) + 1; r < Math.max(g[1], o[1]); r++) if (b[g[0]][r]) return false;
  return true;
}

/**
 * The study hook of one rule set.
 * @param {string} variant
 */
export function jifenRules(variant) {
  const rules = RULES[variant];
  const royals = variant === 'jifen-contest';
  /** Contest rules' turn 1 (J13): red's first move, no capture. @param {JPos} p */
  const firstTurn = (p) => royals && p.red && p.full === 1 && !p.second && !p.captured;

  /** Applies a move to a parsed position (no checks). @param {JPos} p @param {string} mv */
  function apply(p, mv) {
    const b = p.board.map((col) => col.map((x) => (x ? { ...x } : null)));
    const next = { ...p, board: b, scores: /** @type {number[]} */ ([...p.scores]) };
    if (mv === '0000') { next.red = !p.red; next.second = false; if (!p.red) next.full++; return { next, took: false, check: false, cls: '' }; }
    const f = mv.charCodeAt(0) - 97, r = Number(mv[1]), tf = mv.charCodeAt(2) - 97, tr = Number(mv[3]);
    const piece = /** @type {JPiece} */ (b[f][r]);
    const cls = piece.cls;
    const took = !!b[tf][tr];
    b[tf][tr] = piece; b[f][r] = null;
    if (mv[4]) piece.cls = OF_MARK[mv[4]];
    const check = royalAttacked(b, !p.red, royals);
    // The J table: the mover's class while moving, the check after it (J10).
    const me = p.red ? 0 : 1, them = 1 - me;
    if (variant === 'jifen-simple') { if (check) next.scores[me] -= 1; else if (cls === 'idle') next.scores[me] += 1; }
    else if (variant === 'jifen-match') { if (check) next.scores[them] += 2; else if (cls === 'normal') next.scores[them] += 1; else if (cls === 'idle') next.scores[me] += 1; }
    else if (cls === 'normal') next.scores[them] += 1; else if (cls === 'royal' || cls === 'idle') next.scores[me] += 1;
    const scored = next.scores[0] !== p.scores[0] || next.scores[1] !== p.scores[1];
    next.half = took || scored ? 0 : p.half + 1;
    // Contest rules before the first capture: a quiet first move of a turn (not turn 1) gives a second (J14, J15).
    const double = royals && !p.captured && !took && !check && !p.second && !firstTurn(p);
    next.captured = p.captured || took;
    if (double) next.second = true;
    else { next.second = false; next.red = !p.red; if (!p.red) next.full++; }
    return { next, took, check, cls };
  }

  /** @param {string} fen @returns {string[]} */
  function legal(fen) {
    const p = parse(fen);
    if (p.scores[0] >= rules.target || p.scores[1] >= rules.target) return [];
    const out = [];
    for (const [f, r, tf, tr] of pseudo(/** @type {any} */ (p.board), p.red)) {
      const a = /** @type {JPiece} */ (p.board[f][r]), v = p.board[tf][tr];
      if (v && (!mayTake(a.cls, v.cls) || (firstTurn(p)))) continue;
      const base = String.fromCharCode(97 + f) + r + String.fromCharCode(97 + tf) + tr;
      // J7-J9: keep the class, or change it (contest: only from the first capture on, J8).
      const changes = royals && !p.captured && !v ? [] : rules.classes.filter((c) => c !== a.cls);
      for (const mv of [base, ...changes.map((c) => base + MOVE_MARK[c])]) {
        const { next } = apply(p, mv);
        if (!royalAttacked(next.board, p.red, royals) && !facing(next.board)) out.push(mv);
      }
    }
    if (p.second) out.push('0000');
    return out;
  }

  /** How many of each piece a side starts with, by FEN letter (upper case). */
  const START_COUNT = /** @type {Record<string, number>} */ ({ K: 1, A: 2, B: 2, N: 2, R: 2, C: 2, P: 5 });
  /** Whether a piece has left the board (pieces leave it only when taken). @param {JPos} p */
  const pieceMissing = (p) => {
    /** @type {Record<string, number>} */
    const n = {};
    for (const col of p.board) for (const x of col) if (x) { const k = (x.red ? 'w' : 'b') + x.kind; n[k] = (n[k] || 0) + 1; }
    return Object.entries(START_COUNT).some(([k, c]) => (n[`w${k}`] || 0) < c || (n[`b${k}`] || 0) < c);
  };

  /**
   * Why a position cannot be analysed: the board as in Xiangqi (its class
   * marks aside), classes of this rule set, a game not already won, turn
   * state 2 only before the first capture (J21), the side not to move not
   * in check by what its pieces may capture. Contest rules hang on the
   * capture flag (J8, J13, J14), so there it must agree with the board: a
   * piece off the board or a class other than Normal means a capture has
   * happened; a second move is never red's turn 1 (J13), and never with
   * the side to move in check (its first move could not leave it so, J5).
   * A move counter at the limit (J20) means the game is over.
   * @param {string} fen
   * @returns {{ key: string, params?: Record<string, string | number> } | null}
   */
  function why(fen) {
    const f = String(fen || '').trim().split(/\s+/);
    if (f.length > 6 && f.length !== 10) return { key: 'fen_jifen_fields' };
    const plain = [(f[0] || '').replace(/[-+*=]/g, ''), ...f.slice(1, 6)].join(' ');
    const base = fenWhy(plain);
    if (base && base.key !== 'fen_side_in_check') return base;
    for (const m of (f[0] || '').match(/[-+*]/g) || []) if (!rules.classes.includes(OF_MARK[m])) return { key: 'fen_jifen_class', params: { cls: `@${OF_MARK[m]}` } };
    if (f.length === 10 && (!/^-?\d+$/.test(f[6]) || !/^-?\d+$/.test(f[7]) || !/^[12]$/.test(f[8]) || !/^[x-]$/.test(f[9]))) return { key: 'fen_jifen_fields' };
    const p = parse(fen);
    if (p.scores[0] >= rules.target || p.scores[1] >= rules.target) return { key: 'fen_jifen_won', params: { n: rules.target } };
    if (p.second && (p.captured || !royals)) return { key: 'fen_jifen_second' };
    if (royalAttacked(p.board, !p.red, royals)) return { key: 'fen_side_in_check' };
    if (royals && !p.captured && pieceMissing(p)) return { key: 'fen_jifen_missing' };
    if (royals && !p.captured && p.board.some((col) => col.some((x) => x && x.cls !== 'normal'))) return { key: 'fen_jifen_class_early' };
    if (p.second && p.red && p.full === 1) return { key: 'fen_jifen_turn_one' };
    if (p.second && royalAttacked(p.board, p.red, royals)) return { key: 'fen_jifen_second_check' };
    if (p.half >= MOVE_LIMIT) return { key: 'fen_jifen_limit', params: { n: MOVE_LIMIT } };
    return null;
  }

  /** The editor's changes (position-editor.js): each gives the FEN; the game's state (capture flag, turn state, counters) stays as set. */
  const edit = (/** @type {string} */ fen, /** @type {(p: JPos) => void} */ change) => {
    const p = parse(fen);
    change(p);
    return write(p);
  };
  const at = (/** @type {string} */ square) => [square.charCodeAt(0) - 97, Number(square[1])];
  const editor = {
    classes: rules.classes,
    /** @param {string} fen @param {string} square @param {string} letter @param {string} [cls] */
    put: (fen, square, letter, cls = 'normal') => edit(fen, (p) => {
      const [f, r] = at(square);
      if (f < 0 || f > 8 || !(r >= 0 && r <= 9)) return;
      p.board[f][r] = letter ? { letter, red: letter === letter.toUpperCase(), kind: KIND[letter.toUpperCase()], cls: rules.classes.includes(cls) ? cls : 'normal' } : null;
    }),
    /** @param {string} fen @param {string} from @param {string} to */
    move: (fen, from, to) => edit(fen, (p) => {
      const [f, r] = at(from), [tf, tr] = at(to);
      if (from === to || !p.board[f][r]) return;
      p.board[tf][tr] = p.board[f][r];
      p.board[f][r] = null;
    }),
    /** @param {string} fen @param {boolean} red */
    side: (fen, red) => edit(fen, (p) => { p.red = red; }),
    /** @param {string} fen @param {string} square */
    at: (fen, square) => { const [f, r] = at(square); const x = parse(fen).board[f][r]; return x ? x.letter : ''; },
    /** @param {string} fen @param {string} square */
    classAt: (fen, square) => { const [f, r] = at(square); const x = parse(fen).board[f][r]; return x ? x.cls : ''; },
    /** @param {string} fen @param {string} square @param {string} cls */
    setClass: (fen, square, cls) => edit(fen, (p) => { const [f, r] = at(square); const x = p.board[f][r]; if (x && rules.classes.includes(cls)) x.cls = cls; }),
    /** @param {string} fen */
    scores: (fen) => parse(fen).scores,
    /** @param {string} fen @param {number} red @param {number} black */
    setScores: (fen, red, black) => edit(fen, (p) => { p.scores = [Math.trunc(red) || 0, Math.trunc(black) || 0]; }),
    /** Whether a capture has happened (contest rules' class changes and double turns hang on it). @param {string} fen */
    captured: (fen) => parse(fen).captured,
    /** @param {string} fen @param {boolean} x */
    setCaptured: (fen, x) => edit(fen, (p) => { p.captured = x; }),
    /** The second move of a double turn (contest rules only, J14). @param {string} fen */
    second: royals ? (/** @type {string} */ fen) => parse(fen).second : undefined,
    setSecond: royals ? (/** @type {string} */ fen, /** @type {boolean} */ x) => edit(fen, (p) => { p.second = x; }) : undefined,
    /** The move number and the plies since the last capture or change of score (J20). @param {string} fen */
    counters: (fen) => { const p = parse(fen); return { half: p.half, full: p.full }; },
    /** @param {string} fen @param {number} half @param {number} full */
    setCounters: (fen, half, full) => edit(fen, (p) => { p.half = Math.max(0, Math.trunc(half) || 0); p.full = Math.max(1, Math.trunc(full) || 1); }),
  };

  return {
    editor,
    variants: [variant],
    start: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 0 0 1 -`,
    target: rules.target,
    classes: rules.classes,
    legal,
    /** @param {string} fen @param {string} mv */
    play: (fen, mv) => write(apply(parse(fen), mv).next),
    why,
    /** @param {string} fen */
    problem: (fen) => { const w = why(fen); return w ? w.key : null; },
    /** A FEN with all ten fields. @param {string} fen */
    normal: (fen) => write(parse(fen)),
    /** The square of a royal piece in check of the side to move (the general's), if any. @param {string} fen */
    check(fen) {
      const p = parse(fen);
      if (!royalAttacked(p.board, p.red, royals)) return null;
      const g = general(/** @type {any} */ (p.board), p.red);
      return g ? String.fromCharCode(97 + g[0]) + g[1] : null;
    },
    /** @param {string} fen */
    turn: (fen) => { const p = parse(fen); return { number: p.full, first: redToMove(fen) }; },
    /** The scores of a position. @param {string} fen */
    scores: (fen) => parse(fen).scores,
    /** Whether the side to move is on the second move of a double turn. @param {string} fen */
    second: (fen) => parse(fen).second,
  };
}
