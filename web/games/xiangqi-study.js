// @ts-check
// Xiangqi on the analysis board (web/analysis-board.js, the `study` hook of
// the game's module): the legal moves of any position (the rules of
// crates/qiyuan-xiangqi: palace, river, the horse's leg, the elephant's eye,
// the cannon's screen, no move that leaves one's general attacked or facing
// the other; repetition rulings are the server's and are not judged here),
// the position after a move as a full FEN, and the tree as PGN with
// variations and comments in any of the three notations.
import { boardOf, after, moveIn } from './xiangqi-notation.js';

/** @typedef {import('./xiangqi-notation.js').Piece} Piece */
/** @typedef {(Piece | null)[][]} Board */

export const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

const sq = (/** @type {number} */ f, /** @type {number} */ r) => String.fromCharCode(97 + f) + r;
const on = (/** @type {number} */ f, /** @type {number} */ r) => f >= 0 && f < 9 && r >= 0 && r < 10;
const inPalace = (/** @type {boolean} */ red, /** @type {number} */ f, /** @type {number} */ r) => f >= 3 && f <= 5 && (red ? r <= 2 : r >= 7);
const ownSide = (/** @type {boolean} */ red, /** @type {number} */ r) => (red ? r <= 4 : r >= 5);

/** Whether red is to move in `fen`. @param {string} fen */
export const redToMove = (fen) => String(fen || '').split(' ')[1] !== 'b';

/**
 * Every move of the side `red` that follows how its pieces move, whatever
 * it leaves its own general in: [from file, from rank, to file, to rank].
 * @param {Board} b @param {boolean} red
 */
export function pseudo(b, red) {
  /** @type {number[][]} */
  const out = [];
  const can = (/** @type {number} */ f, /** @type {number} */ r) => on(f, r) && (!b[f][r] || /** @type {Piece} */ (b[f][r]).red !== red);
  for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) {
    const p = b[f][r];
    if (!p || p.red !== red) continue;
    const add = (/** @type {number} */ tf, /** @type {number} */ tr) => { if (can(tf, tr)) out.push([f, r, tf, tr]); };
    switch (p.kind) {
      case 'K':
        for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) if (inPalace(red, f + df, r + dr)) add(f + df, r + dr);
        break;
      case 'A':
        for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) if (inPalace(red, f + df, r + dr)) add(f + df, r + dr);
        break;
      case 'B':
        for (const [df, dr] of [[2, 2], [2, -2], [-2, 2], [-2, -2]]) {
          const tf = f + df, tr = r + dr;
          if (on(tf, tr) && ownSide(red, tr) && !b[f + df / 2][r + dr / 2]) add(tf, tr);
        }
        break;
      case 'N':
        for (const [df, dr, lf, lr] of [[1, 2, 0, 1], [-1, 2, 0, 1], [1, -2, 0, -1], [-1, -2, 0, -1], [2, 1, 1, 0], [2, -1, 1, 0], [-2, 1, -1, 0], [-2, -1, -1, 0]]) {
          if (on(f + df, r + dr) && !b[f + lf][r + lr]) add(f + df, r + dr);
        }
        break;
      case 'R':
      case 'C':
        for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          let tf = f + df, tr = r + dr, screen = false;
          while (on(tf, tr)) {
            const q = b[tf][tr];
            if (p.kind === 'R') {
              if (!q) add(tf, tr); else { if (q.red !== red) add(tf, tr); break; }
            } else if (!screen) {
              if (!q) add(tf, tr); else screen = true;
            } else if (q) { if (q.red !== red) add(tf, tr); break; }
            tf += df; tr += dr;
          }
        }
        break;
      case 'P': {
        const fwd = red ? 1 : -1;
        add(f, r + fwd);
        if (!ownSide(red, r)) { add(f + 1, r); add(f - 1, r); }
        break;
      }
      default:
    }
  }
  return out;
}

/** Where `red`'s general stands. @param {Board} b @param {boolean} red */
export function general(b, red) {
  for (let f = 3; f <= 5; f++) for (let r = 0; r < 10; r++) {
    const p = b[f][r];
    if (p && p.kind === 'K' && p.red === red) return [f, r];
  }
  return null;
}

/** Whether `red`'s general is attacked, or faces the other on an open file. @param {Board} b @param {boolean} red */
function exposed(b, red) {
  const g = general(b, red), o = general(b, !red);
  if (!g) return false;
  if (o && o[0] === g[0]) {
    let open = true;
    for (let r = Math.min(g[1], o[1]) + 1; r < Math.max(g[1], o[1]); r++) if (b[g[0]][r]) { open = false; break; }
    if (open) return true;
  }
  return pseudo(b, !red).some((m) => m[2] === g[0] && m[3] === g[1]);
}

/**
 * The legal moves of `fen` in ICCS (`h2e2`).
 * @param {string} fen
 * @returns {string[]}
 */
export function legalMoves(fen) {
  const b = boardOf(fen), red = redToMove(fen);
  const out = [];
  for (const [f, r, tf, tr] of pseudo(b, red)) {
    const taken = b[tf][tr];
    b[tf][tr] = b[f][r]; b[f][r] = null;
    if (!exposed(b, red)) out.push(sq(f, r) + sq(tf, tr));
    b[f][r] = b[tf][tr]; b[tf][tr] = taken;
  }
  return out;
}

/** Whether the side to move in `fen` is in check. @param {string} fen */
export function inCheck(fen) {
  const b = boardOf(fen), red = redToMove(fen);
  const g = general(b, red);
  return !!g && exposed(b, red) ? sq(g[0], g[1]) : null;
}

/**
 * The position after `mv` as a full FEN (the halfmove clock resets on a
 * capture; the move number grows after black's move).
 * @param {string} fen @param {string} mv
 */
export function play(fen, mv) {
  const parts = String(fen || '').split(' ');
  const b = boardOf(fen);
  const to = [mv.charCodeAt(2) - 97, Number(mv[3])];
  const capture = on(to[0], to[1]) && !!b[to[0]][to[1]];
  const half = capture ? 0 : (Number(parts[4]) || 0) + 1;
  const full = (Number(parts[5]) || 1) + (redToMove(fen) ? 0 : 1);
  return `${after(fen, mv)} - - ${half} ${full}`;
}

/** The most pieces of each kind one side has. */
const MOST = /** @type {Record<string, number>} */ ({ K: 1, A: 2, B: 2, N: 2, R: 2, C: 2, P: 5 });
/** The points (file, rank from the side's own back rank) advisors and elephants can ever stand on. */
const ADVISOR_POINTS = [[3, 0], [5, 0], [4, 1], [3, 2], [5, 2]];
const ELEPHANT_POINTS = [[2, 0], [6, 0], [0, 2], [4, 2], [8, 2], [2, 4], [6, 4]];

/**
 * Whether a piece of `kind` of the side `red` can ever stand on file `f`,
 * rank `r`: generals in their palace, advisors on its five points,
 * elephants on their seven on their own side, soldiers never behind their
 * starting rank nor, before the river, off their five files.
 * @param {string} kind @param {boolean} red @param {number} f @param {number} r
 */
export function canStand(kind, red, f, r) {
  const own = red ? r : 9 - r;
  const at = (/** @type {number[][]} */ pts) => pts.some(([a, b]) => a === f && b === own);
  if (kind === 'K') return inPalace(red, f, r);
  if (kind === 'A') return at(ADVISOR_POINTS);
  if (kind === 'B') return at(ELEPHANT_POINTS);
  if (kind === 'P') return own >= 5 || (own >= 3 && f % 2 === 0);
  return true;
}

/**
 * Why `fen` cannot be analysed, with what to say it with, or null: the
 * board has nine files and ten ranks of known pieces; each side has one
 * general and no more of a kind than a set holds; every piece stands where
 * it could have come; the generals do not face each other on an open file;
 * the side not to move is not in check. `params` values starting with `@`
 * are message keys (the page says them in its language).
 * @param {string} fen
 * @returns {{ key: string, params?: Record<string, string | number> } | null}
 */
export function fenWhy(fen) {
  const parts = String(fen || '').trim().split(/\s+/);
  const rows = (parts[0] || '').split('/');
  if (rows.length !== 10) return { key: 'fen_bad_board' };
  for (const row of rows) {
    let n = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) n += Number(ch);
      else if (/[kabnrcpheKABNRCPHE]/.test(ch)) n += 1;
      else return { key: 'fen_bad_board' };
    }
    if (n !== 9) return { key: 'fen_bad_board' };
  }
  if (parts[1] && !/^[wrb]$/.test(parts[1])) return { key: 'fen_bad_side' };
  const b = boardOf(parts[0]);
  /** @type {Record<string, number>} */
  const count = {};
  for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) {
    const p = b[f][r];
    if (!p) continue;
    const id = (p.red ? 'r' : 'b') + p.kind;
    count[id] = (count[id] || 0) + 1;
  }
  for (const red of [true, false]) {
    for (const kind of Object.keys(MOST)) {
      const n = count[(red ? 'r' : 'b') + kind] || 0;
      if (n > MOST[kind]) return { key: 'fen_too_many', params: { side: red ? '@red' : '@black', piece: `@piece_${kind}`, n, max: MOST[kind] } };
    }
    if (!count[(red ? 'r' : 'b') + 'K']) return { key: 'fen_no_general' };
  }
  for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) {
    const p = b[f][r];
    if (p && !canStand(p.kind, p.red, f, r)) return { key: 'fen_bad_square', params: { side: p.red ? '@red' : '@black', piece: `@piece_${p.kind}`, square: sq(f, r) } };
  }
  const g = /** @type {number[]} */ (general(b, true)), o = /** @type {number[]} */ (general(b, false));
  if (g[0] === o[0]) {
    let open = true;
    for (let r = g[1] + 1; r < o[1]; r++) if (b[g[0]][r]) open = false;
    if (open) return { key: 'fen_generals_facing' };
  }
  // The side that just moved may not have left its general attacked.
  if (exposed(b, parts[1] === 'b')) return { key: 'fen_side_in_check' };
  return null;
}

/**
 * Why `fen` cannot be analysed (a message key), or null (see `fenWhy`).
 * @param {string} fen
 */
export function fenProblem(fen) {
  const why = fenWhy(fen);
  return why ? why.key : null;
}

/** Piece letters of the editor's palette: red's, then black's. */
export const PALETTE = ['K', 'A', 'B', 'N', 'R', 'C', 'P', 'k', 'a', 'b', 'n', 'r', 'c', 'p'];

/** The board of `fen` written back as its first field. @param {Board} b */
function boardText(b) {
  const rows = [];
  for (let r = 9; r >= 0; r--) {
    let row = '', gap = 0;
    for (let f = 0; f < 9; f++) {
      const p = b[f][r];
      if (!p) { gap++; continue; }
      if (gap) { row += gap; gap = 0; }
      row += p.letter;
    }
    rows.push(row + (gap ? gap : ''));
  }
  return rows.join('/');
}

/**
 * The editor's changes: `letter` (a palette letter, or '' to clear) put on
 * `square`; `from` moved to `to`; the side to move set. Each gives the FEN.
 * @param {string} fen @param {string} square @param {string} letter
 */
export function putPiece(fen, square, letter) {
  const b = boardOf(fen);
  const f = square.charCodeAt(0) - 97, r = Number(square[1]);
  if (!on(f, r)) return fen;
  b[f][r] = letter ? { letter, red: letter === letter.toUpperCase(), kind: letter.toUpperCase() } : null;
  return `${boardText(b)} ${redToMove(fen) ? 'w' : 'b'} - - 0 1`;
}
/** @param {string} fen @param {string} from @param {string} to */
export function movePiece(fen, from, to) {
  const p = boardOf(fen)[from.charCodeAt(0) - 97][Number(from[1])];
  if (!p || from === to) return fen;
  return putPiece(putPiece(fen, from, ''), to, p.letter);
}
/** @param {string} fen @param {boolean} red */
export function setSide(fen, red) {
  return `${String(fen).split(' ')[0]} ${red ? 'w' : 'b'} - - 0 1`;
}
/** The letter on `square`, or ''. @param {string} fen @param {string} square */
export function pieceOn(fen, square) {
  const p = boardOf(fen)[square.charCodeAt(0) - 97][Number(square[1])];
  return p ? p.letter : '';
}

/** A FEN with all six fields (the side `w` or `b`). @param {string} fen */
export function fullFen(fen) {
  const parts = String(fen || '').trim().split(/\s+/);
  const side = parts[1] === 'b' ? 'b' : 'w';
  return `${parts[0]} ${side} - - ${Number(parts[4]) || 0} ${Number(parts[5]) || 1}`;
}

/**
 * @typedef {{ mv: string, comment: string, children: number[], parent: number | null }} TreeNode
 * Node 0 is the start position (its comment is the game's).
 */

/**
 * The tree as PGN: header tags, then the moves with variations in
 * parentheses and comments in braces, in `notation` (`iccs`, `wxf`,
 * `chinese`; the `Format` tag says which).
 * @param {TreeNode[]} nodes @param {string} start @param {string} notation
 * @param {[string, string][]} [tags]
 * @param {{ play: (fen: string, mv: string) => string, full: (fen: string) => string, start: string }} [rules]
 *   another rule set's (Jifen's) positions; plain Xiangqi's without
 */
export function toPgn(nodes, start, notation, tags = [], rules = { play, full: fullFen, start: START }) {
  const { play: next, full } = rules;
  const fmt = notation === 'wxf' ? 'WXF' : notation === 'chinese' ? 'Chinese' : 'ICCS';
  /** @type {[string, string][]} */
  const head = [['Game', 'Chinese Chess'], ...tags.filter(([k]) => !/^(Game|FEN|Format)$/i.test(k))];
  if (full(start) !== full(rules.start)) head.push(['FEN', full(start)]);
  head.push(['Format', fmt]);
  const quote = (/** @type {string} */ s) => String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const brace = (/** @type {string} */ s) => ` {${String(s).replace(/[{}]/g, '')}}`;
  const out = [];
  // The move number and side of a position.
  const numberOf = (/** @type {string} */ fen) => Number(String(fen).split(' ')[5]) || 1;
  /** A move with its number where one is due. @param {string} fen @param {string} mv @param {boolean} force */
  const moveText = (fen, mv, force) => {
    const name = moveIn(fen, mv, notation);
    if (redToMove(fen)) return `${numberOf(fen)}. ${name}`;
    return force ? `${numberOf(fen)}... ${name}` : name;
  };
  // Iterative: a stack of jobs, so a long line cannot overflow the call stack.
  /** @type {({ line: number, fen: string, force: boolean } | string)[]} */
  const jobs = [{ line: 0, fen: full(start), force: true }];
  while (jobs.length) {
    const job = /** @type {{ line: number, fen: string, force: boolean } | string} */ (jobs.pop());
    if (typeof job === 'string') { out.push(job); continue; }
    const kids = nodes[job.line].children;
    if (!kids.length) continue;
    const main = nodes[kids[0]];
    const after0 = next(job.fen, main.mv);
    let text = moveText(job.fen, main.mv, job.force);
    if (main.comment) text += brace(main.comment);
    out.push(text);
    // Pushed in reverse: the side lines first, then the main line goes on.
    jobs.push({ line: kids[0], fen: after0, force: kids.length > 1 || !!main.comment });
    for (let i = kids.length - 1; i >= 1; i--) {
      const alt = nodes[kids[i]];
      jobs.push(')');
      jobs.push({ line: kids[i], fen: next(job.fen, alt.mv), force: !!alt.comment });
      jobs.push(`(${moveText(job.fen, alt.mv, true)}${alt.comment ? brace(alt.comment) : ''}`);
    }
  }
  const body = out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  const root = nodes[0] && nodes[0].comment ? `${brace(nodes[0].comment).trim()}\n` : '';
  return `${head.map(([k, v]) => `[${k} "${quote(v)}"]`).join('\n')}\n\n${root}${body}${body ? ' ' : ''}*\n`;
}
