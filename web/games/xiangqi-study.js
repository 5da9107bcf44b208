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
function pseudo(b, red) {
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
function general(b, red) {
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

/**
 * Why `fen` cannot be analysed (a message key), or null: the board has nine
 * files and ten ranks of known pieces, each side one general in its palace,
 * and the side not to move is not in check.
 * @param {string} fen
 */
export function fenProblem(fen) {
  const parts = String(fen || '').trim().split(/\s+/);
  const rows = (parts[0] || '').split('/');
  if (rows.length !== 10) return 'fen_bad_board';
  for (const row of rows) {
    let n = 0;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) n += Number(ch);
      else if (/[kabnrcpheKABNRCPHE]/.test(ch)) n += 1;
      else return 'fen_bad_board';
    }
    if (n !== 9) return 'fen_bad_board';
  }
  if (parts[1] && !/^[wrb]$/.test(parts[1])) return 'fen_bad_side';
  const b = boardOf(parts[0]);
  for (const red of [true, false]) {
    const g = general(b, red);
    if (!g || !inPalace(red, g[0], g[1])) return 'fen_no_general';
  }
  // The side that just moved may not have left its general attacked.
  if (exposed(b, parts[1] === 'b')) return 'fen_side_in_check';
  return null;
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
 */
export function toPgn(nodes, start, notation, tags = []) {
  const fmt = notation === 'wxf' ? 'WXF' : notation === 'chinese' ? 'Chinese' : 'ICCS';
  /** @type {[string, string][]} */
  const head = [['Game', 'Chinese Chess'], ...tags.filter(([k]) => !/^(Game|FEN|Format)$/i.test(k))];
  if (fullFen(start) !== START) head.push(['FEN', fullFen(start)]);
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
  const jobs = [{ line: 0, fen: fullFen(start), force: true }];
  while (jobs.length) {
    const job = /** @type {{ line: number, fen: string, force: boolean } | string} */ (jobs.pop());
    if (typeof job === 'string') { out.push(job); continue; }
    const kids = nodes[job.line].children;
    if (!kids.length) continue;
    const main = nodes[kids[0]];
    const after0 = play(job.fen, main.mv);
    let text = moveText(job.fen, main.mv, job.force);
    if (main.comment) text += brace(main.comment);
    out.push(text);
    // Pushed in reverse: the side lines first, then the main line goes on.
    jobs.push({ line: kids[0], fen: after0, force: kids.length > 1 || !!main.comment });
    for (let i = kids.length - 1; i >= 1; i--) {
      const alt = nodes[kids[i]];
      jobs.push(')');
      jobs.push({ line: kids[i], fen: play(job.fen, alt.mv), force: !!alt.comment });
      jobs.push(`(${moveText(job.fen, alt.mv, true)}${alt.comment ? brace(alt.comment) : ''}`);
    }
  }
  const body = out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  const root = nodes[0] && nodes[0].comment ? `${brace(nodes[0].comment).trim()}\n` : '';
  return `${head.map(([k, v]) => `[${k} "${quote(v)}"]`).join('\n')}\n\n${root}${body}${body ? ' ' : ''}*\n`;
}
