// @ts-check
// Xiangqi moves in the notations players read: WXF (`C2.5`, `H8+7`, `C+.5`)
// and Chinese (`炮二平五`, `马８进７`, `前车进一`), written from the position
// before the move and the move's ICCS coordinates (`h2e2`, with a Jifen
// class mark after: `h2e2*`). The rules are the ones the server's records
// follow (crates/qiyuan-xiangqi/src/notation), so a line the engine finds in
// the browser reads like the move list: files numbered 1-9 from each side's
// own right, red's in Chinese numerals and black's in full-width digits;
// 进 forward, 退 back, 平 along the rank; the last number is the destination
// file for a sideways move and for the horse, elephant and advisor, the
// number of steps otherwise; 前/中/后 (and 一二三… for four or five pawns)
// name a piece that shares its file with others of its kind.

/** @typedef {{ letter: string, red: boolean, kind: string }} Piece */

const CN = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FW = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/** The kind letters of both sides (E and H are read as B and N). */
const KIND = /** @type {Record<string, string>} */ ({ K: 'K', A: 'A', B: 'B', E: 'B', N: 'N', H: 'N', R: 'R', C: 'C', P: 'P' });
const RED_NAME = /** @type {Record<string, string>} */ ({ K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵' });
const BLACK_NAME = /** @type {Record<string, string>} */ ({ K: '将', A: '士', B: '象', N: '马', R: '车', C: '炮', P: '卒' });
const WXF_LETTER = /** @type {Record<string, string>} */ ({ K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' });
/** A Jifen class mark (J22) and its word in Chinese notation. */
const CLASS_WORD = /** @type {Record<string, string>} */ ({ '=': '普', '-': '小', '+': '王', '*': '闲' });

/**
 * The board of a FEN (Xiangqi or Jifen: a class mark after a letter is skipped):
 * `board[file][rank]`, file 0 = `a`, rank 0 = red's back rank.
 * @param {string} fen
 * @returns {(Piece | null)[][]}
 */
export function boardOf(fen) {
  /** @type {(Piece | null)[][]} */
  const board = Array.from({ length: 9 }, () => Array(10).fill(null));
  const rows = String(fen || '').split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) { file += Number(ch); continue; }
      const kind = KIND[ch.toUpperCase()];
      if (!kind) continue; // a class mark
      if (file < 9 && rank >= 0) board[file][rank] = { letter: ch, red: ch === ch.toUpperCase(), kind };
      file++;
    }
  });
  return board;
}

/** File number 1-9 of ICCS file `file` (0 = `a`) seen from the side's right. @param {boolean} red @param {number} file */
export const fileNumber = (red, file) => (red ? 9 - file : file + 1);

/** Ranks advanced from `fr` to `tr` by the side (negative: back). @param {boolean} red @param {number} fr @param {number} tr */
const advance = (red, fr, tr) => (red ? tr - fr : fr - tr);

/**
 * Direction ('+' forward, '-' back, '.' sideways) and the last number.
 * @param {boolean} red @param {number[]} from [file, rank] @param {number[]} to
 */
function motion(red, from, to) {
  const adv = advance(red, from[1], to[1]);
  const dir = adv > 0 ? '+' : adv < 0 ? '-' : '.';
  const arg = dir !== '.' && from[0] === to[0] ? Math.abs(adv) : fileNumber(red, to[0]);
  return { dir, arg };
}

/**
 * The side's pieces of `kind` on `file`, front (nearest the opponent) first, as ranks.
 * @param {(Piece | null)[][]} b @param {boolean} red @param {string} kind @param {number} file
 */
function onFile(b, red, kind, file) {
  const out = [];
  for (let r = 0; r < 10; r++) { const p = b[file][r]; if (p && p.red === red && p.kind === kind) out.push(r); }
  return out.sort((x, y) => (red ? y - x : x - y));
}

/** How many files hold two or more of the side's pawns. @param {(Piece | null)[][]} b @param {boolean} red */
function doubledPawnFiles(b, red) {
  let n = 0;
  for (let f = 0; f < 9; f++) if (onFile(b, red, 'P', f).length >= 2) n++;
  return n;
}

/**
 * Whether an advisor or elephant on a shared file is told apart by its file
 * number: no other one on the file could make a move of the same direction
 * and destination file onto a point of its own.
 * @param {boolean} red @param {string} kind @param {number[]} ranks @param {number[]} from @param {number[]} to
 */
function diagonalFileFormUnique(red, kind, ranks, from, to) {
  const { dir } = motion(red, from, to);
  const df = Math.abs(to[0] - from[0]);
  const dr = Math.abs(advance(red, from[1], to[1]));
  return ranks.filter((r) => r !== from[1]).every((r) => {
    const step = dir === '+' ? dr : -dr;
    const rank = red ? r + step : r - step;
    const file = to[0];
    if (rank < 0 || rank > 9 || Math.abs(file - from[0]) !== df) return true;
    const home = kind === 'A' ? file >= 3 && file <= 5 && (red ? rank <= 2 : rank >= 7) : (red ? rank <= 4 : rank >= 5);
    return !home;
  });
}

/**
 * Where the moving piece stands among its kind on its file: null (alone, or
 * an advisor/elephant named by its file), else its index (0 = front) and the count.
 * @param {(Piece | null)[][]} b @param {Piece} p @param {number[]} from @param {number[]} to
 */
function standing(b, p, from, to) {
  const same = onFile(b, p.red, p.kind, from[0]);
  if (same.length <= 1) return null;
  if ((p.kind === 'A' || p.kind === 'B') && diagonalFileFormUnique(p.red, p.kind, same, from, to)) return null;
  return { index: Math.max(0, same.indexOf(from[1])), count: same.length };
}

/**
 * The WXF sign of the `index`-th (0 = front) of `count` pieces on a file:
 * '+', '-', or null for the middle one (named by its file).
 * @param {number} index @param {number} count
 */
function wxfSign(index, count) {
  if ((count === 3 && index === 1) || (count === 5 && index === 2)) return null;
  const front = index === 0 || (count >= 4 && index === 1);
  return front ? '+' : '-';
}

/** @param {string} mv */
function parseMove(mv) {
  const m = /^([a-i])(\d)([a-i])(\d)([=*+-]?)$/.exec(String(mv || ''));
  if (!m) return null;
  return { from: [m[1].charCodeAt(0) - 97, Number(m[2])], to: [m[3].charCodeAt(0) - 97, Number(m[4])], cls: m[5] };
}

/**
 * The move in WXF notation (`C2.5`, `H8+7`, `C+.5`, `3-.4`, `C2.5*`); the move
 * as given if it is not a move of a piece of the position.
 * @param {string} fen the position before the move
 * @param {string} mv ICCS, with an optional Jifen class mark
 */
export function toWxf(fen, mv) {
  const m = parseMove(mv);
  if (!m) return String(mv);
  const b = boardOf(fen);
  const p = b[m.from[0]][m.from[1]];
  if (!p) return String(mv);
  const { dir, arg } = motion(p.red, m.from, m.to);
  const file = String(fileNumber(p.red, m.from[0]));
  const letter = WXF_LETTER[p.kind];
  let s = '';
  const st = standing(b, p, m.from, m.to);
  if (!st) s = letter + file;
  else {
    const { index, count } = st;
    const signOf = wxfSign(index, count);
    if (p.kind === 'P' && doubledPawnFiles(b, p.red) >= 2) s = file + (signOf || file);
    else if (signOf && count >= 4 && (index === 0 || index === count - 1)) s = signOf + signOf;
    else if (signOf) s = letter + signOf;
    else s = letter + file;
  }
  return s + dir + String(arg) + (m.cls || '');
}

/**
 * The move in Chinese notation (`炮二平五`, `马８进７`, `前车进一`, `二兵平六`,
 * `炮二平五闲`); the move as given if it is not a move of a piece of the position.
 * @param {string} fen the position before the move
 * @param {string} mv ICCS, with an optional Jifen class mark
 */
export function toChinese(fen, mv) {
  const m = parseMove(mv);
  if (!m) return String(mv);
  const b = boardOf(fen);
  const p = b[m.from[0]][m.from[1]];
  if (!p) return String(mv);
  const num = (/** @type {number} */ n) => (p.red ? CN : FW)[Math.min(9, Math.max(1, n)) - 1];
  const name = (p.red ? RED_NAME : BLACK_NAME)[p.kind];
  const { dir, arg } = motion(p.red, m.from, m.to);
  const file = num(fileNumber(p.red, m.from[0]));
  let s = '';
  const st = standing(b, p, m.from, m.to);
  if (!st) s = name + file;
  else {
    const { index, count } = st;
    const designator = count <= 3 ? (index === 0 ? '前' : count === 3 && index === 1 ? '中' : '后') : CN[Math.min(index, 8)];
    s = designator + (p.kind === 'P' && doubledPawnFiles(b, p.red) >= 2 ? file : name);
  }
  return s + ({ '+': '进', '-': '退', '.': '平' })[dir] + num(arg) + (m.cls ? CLASS_WORD[m.cls] : '');
}

/**
 * The move `mv` of the position `fen` in `notation` ('iccs', 'wxf' or
 * 'chinese'); a pass (`0000`) stays as it is.
 * @param {string} fen @param {string} mv @param {string} notation
 */
export function moveIn(fen, mv, notation) {
  if (notation === 'wxf') return toWxf(fen, mv);
  if (notation === 'chinese') return toChinese(fen, mv);
  return String(mv);
}

/**
 * The board after `mv` (the piece lands, a Jifen class mark changes its
 * class), as a FEN board with the side to move flipped: enough to write the
 * next move of a line. Other fields are dropped.
 * @param {string} fen @param {string} mv
 */
export function after(fen, mv) {
  const parts = String(fen || '').split(' ');
  const side = parts[1] === 'b' ? 'w' : 'b';
  const m = parseMove(mv);
  if (!m) return `${parts[0]} ${side}`;
  // Rows of cells: a letter with its class mark, or ''.
  const rows = parts[0].split('/').map((row) => {
    const cells = [];
    for (let j = 0; j < row.length; j++) {
      const ch = row[j];
      if (/[0-9]/.test(ch)) { for (let k = 0; k < Number(ch); k++) cells.push(''); continue; }
      let cell = ch;
      if (/[-+*]/.test(row[j + 1] || '')) { cell += row[j + 1]; j++; }
      cells.push(cell);
    }
    return cells;
  });
  const at = (/** @type {number[]} */ sq) => rows[9 - sq[1]];
  const piece = at(m.from)[m.from[0]] || '';
  at(m.from)[m.from[0]] = '';
  const cls = m.cls === '=' ? '' : m.cls;
  at(m.to)[m.to[0]] = m.cls ? piece[0] + cls : piece;
  const board = rows.map((cells) => {
    let out = '', gap = 0;
    for (const c of cells) { if (!c) { gap++; continue; } if (gap) out += gap; gap = 0; out += c; }
    return out + (gap ? gap : '');
  }).join('/');
  return `${board} ${side}`;
}

/**
 * A line of moves from `fen` (say, the engine's best line), each in `notation`.
 * @param {string} fen @param {string[]} moves @param {string} notation
 */
export function lineIn(fen, moves, notation) {
  const out = [];
  let pos = fen;
  for (const mv of moves) {
    out.push(mv === '0000' ? mv : moveIn(pos, mv, notation));
    pos = mv === '0000' ? after(pos, '') : after(pos, mv);
  }
  return out;
}
