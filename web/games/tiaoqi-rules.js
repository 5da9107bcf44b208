// @ts-check
// Tiaoqi's rules in the page, for the analysis board (tiaoqi-study.js): the
// legal moves of a position text (T13) as the server's generator makes them
// (crates/qiyuan-tiaoqi: steps, jump chains found by a flood fill, the
// moving piece lifted for its chain, camps closed to a piece neither stood
// on nor jumped over, T4-T6; each start-end pair once, then the pass), one
// shortest chain of each, the position after a move (a filled target T8:
// with more than two in play the seat leaves the turn order and the rest
// play on for places, T10; with two the game is over), and why a text is
// not a position. T7's repetitions need a game's history, which a text does
// not carry: like the server reading a text, these start with none.
import { CELLS, LETTERS, SEATINGS, cell, opposite, parse, write, finished } from './tiaoqi-geo.js';

/** The six directions in doubled coordinates (T11). */
const DIRS = [[2, 0], [1, 1], [-1, 1], [-2, 0], [-1, -1], [1, -1]];
const AT = new Map(CELLS.map((c) => [`${c.x},${c.y}`, c]));
const at = (/** @type {number} */ x, /** @type {number} */ y) => AT.get(`${x},${y}`);

/** Whether a piece of `letter` may stand on (or be jumped over at) cell `c` (T5). @param {string} letter @param {{ camp: string }} c */
const open = (letter, c) => !c.camp || c.camp === letter || c.camp === opposite(letter);

/** Pieces each in a position: 15 where a seat has more than 10 (T3). @param {Map<string, string>} board */
export function piecesOf(board) {
  /** @type {Record<string, number>} */
  const n = {};
  for (const ch of board.values()) n[ch] = (n[ch] || 0) + 1;
  return Math.max(0, ...Object.values(n)) > 10 ? 15 : 10;
}

/**
 * Where the piece on `from` can end a move (T4, T5), each with one
 * shortest path: steps, then the flood fill of jump chains (the moving
 * piece is lifted for its chain: nothing jumps it, and its hole is visited).
 * @param {Map<string, string>} board @param {string} from @param {string} letter
 * @returns {Map<string, string[]>}
 */
export function reach(board, from, letter) {
  const out = new Map();
  const c0 = cell(from);
  if (!c0) return out;
  for (const [dx, dy] of DIRS) {
    const n = at(c0.x + dx, c0.y + dy);
    if (n && !board.has(n.name) && open(letter, n)) out.set(n.name, [from, n.name]);
  }
  /** @type {Map<string, string>} */
  const parent = new Map([[from, '']]);
  let frontier = [c0];
  while (frontier.length) {
    const next = [];
    for (const c of frontier) {
      for (const [dx, dy] of DIRS) {
        const over = at(c.x + dx, c.y + dy), land = at(c.x + 2 * dx, c.y + 2 * dy);
        if (!over || !land || over.name === from || !board.has(over.name) || !open(letter, over)) continue;
        if (board.has(land.name) || !open(letter, land) || parent.has(land.name)) continue;
        parent.set(land.name, c.name);
        next.push(land);
      }
    }
    frontier = next;
  }
  for (const end of parent.keys()) {
    if (end === from) continue;
    const path = [end];
    for (let k = end; parent.get(k);) { k = /** @type {string} */ (parent.get(k)); path.push(k); }
    out.set(end, path.reverse());
  }
  return out;
}

/** Whether the game of a position is over: one seat or none in play, or a seat in play home with one other (T8, T10). @param {string} fen */
export function isOver(fen) {
  const { board, inPlay } = parse(fen);
  const pieces = piecesOf(board);
  return inPlay.length <= 1 || inPlay.split('').some((l) => finished(board, l, pieces));
}

/** The legal moves (`start-end`, then `pass`), none once the game is over. @param {string} fen */
export function legalMoves(fen) {
  if (isOver(fen)) return [];
  const { board, toMove } = parse(fen);
  const out = [];
  for (const c of CELLS.slice().reverse()) {
    if (board.get(c.name) !== toMove) continue;
    for (const end of reach(board, c.name, toMove).keys()) out.push(`${c.name}-${end}`);
  }
  out.push('pass');
  return out;
}

/** The hops of a legal move (one shortest chain), or [] for a pass or a move that is not legal. @param {string} fen @param {string} mv */
export function pathIn(fen, mv) {
  const [from, to] = mv.split('-');
  if (!to) return [];
  const { board, toMove } = parse(fen);
  if (board.get(from) !== toMove) return [];
  return reach(board, from, toMove).get(to) || [];
}

/** The move text (T13) of a move: its hops joined by `-`, or `pass`. @param {string} fen @param {string} mv */
export const moveText = (fen, mv) => (mv === 'pass' ? 'pass' : pathIn(fen, mv).join('-') || mv);

/** The next letter in play after `l` (T12). @param {string} inPlay @param {string} l */
function nextAfter(inPlay, l) {
  for (let k = 1; k <= 6; k++) {
    const x = LETTERS[(LETTERS.indexOf(l) + k) % 6];
    if (inPlay.includes(x)) return x;
  }
  return l;
}

/**
 * Seats home leave the turn order while more than two are in play (T10, the
 * room option that ranks the rest; with two the game is over).
 * @param {{ board: Map<string, string>, toMove: string, inPlay: string }} p @param {string} first who to judge first (the mover)
 */
function retireFinished(p, first) {
  const pieces = piecesOf(p.board);
  for (const l of [first, ...p.inPlay.split('').filter((x) => x !== first)]) {
    if (p.inPlay.length <= 2 || !p.inPlay.includes(l) || !finished(p.board, l, pieces)) continue;
    const after = nextAfter(p.inPlay, l);
    p.inPlay = p.inPlay.replace(l, '');
    if (p.toMove === l) p.toMove = after;
  }
}

/** The position after a legal move. @param {string} fen @param {string} mv */
export function play(fen, mv) {
  const p = parse(fen);
  const mover = p.toMove;
  if (mv !== 'pass') {
    const [from, to] = mv.split('-');
    p.board.delete(from);
    p.board.set(to, mover);
  }
  p.toMove = nextAfter(p.inPlay, mover);
  retireFinished(p, mover);
  return write(p);
}

/** The position written in full, seats home out of the turn order (T10). @param {string} fen */
export function normal(fen) {
  const p = parse(fen);
  retireFinished(p, p.toMove);
  return write(p);
}

/** The smallest seating (2, 3, 4 or 6 players) that has every letter a position names. @param {string} fen */
export function seatingOf(fen) {
  const [rows = '', toMove = '', inPlay = ''] = String(fen || '').trim().split(' ');
  const used = new Set((rows + toMove + inPlay).replace(/[^a-f]/g, ''));
  return [2, 3, 4, 6].find((n) => [...used].every((l) => SEATINGS[/** @type {2|3|4|6} */ (n)].includes(l))) || 6;
}

/**
 * Why a position text cannot be studied with `players` seated (T3, T5,
 * T11-T13), or null: a message key and its parameters (`letter` a seat's
 * letter, which the page names by its colour).
 * @param {string} fen @param {number} players
 * @returns {{ key: string, params?: Record<string, string | number> } | null}
 */
export function why(fen, players) {
  const seated = SEATINGS[/** @type {2|3|4|6} */ (players)] || '';
  const fields = String(fen || '').trim().split(' ');
  if (fields.length !== 3) return { key: 'tq_fen_fields' };
  const [rows, toMove, inPlay] = fields;
  const parts = rows.split('/');
  if (parts.length !== 17) return { key: 'tq_fen_rows', params: { n: parts.length } };
  /** @type {Record<string, number>} */
  const count = {};
  for (let i = 0; i < 17; i++) {
    const row = 17 - i, text = parts[i];
    const len = CELLS.filter((c) => c.row === row).length;
    if (text.length !== len) return { key: 'tq_fen_row_len', params: { row, n: len } };
    for (let col = 1; col <= len; col++) {
      const ch = text[col - 1];
      if (ch === '.') continue;
      if (!seated.includes(ch)) return { key: 'tq_fen_char', params: { cell: `${row}.${col}`, ch } };
      const c = /** @type {{ camp: string }} */ (cell(`${row}.${col}`));
      if (!open(ch, c)) return { key: 'tq_fen_closed', params: { cell: `${row}.${col}` } };
      count[ch] = (count[ch] || 0) + 1;
    }
  }
  let last = -1;
  for (const l of inPlay) {
    const k = LETTERS.indexOf(l);
    if (!seated.includes(l) || k <= last) return { key: 'tq_fen_seats' };
    last = k;
  }
  if (!inPlay || toMove.length !== 1 || !inPlay.includes(toMove)) return { key: 'tq_fen_turn' };
  const pieces = Math.max(0, ...Object.values(count)) > 10 ? 15 : 10;
  if (pieces === 15 && players !== 2) return { key: 'tq_fen_count', params: { letter: Object.keys(count).find((l) => count[l] > 10) || '', n: 10 } };
  for (const l of seated) {
    const n = count[l] || 0;
    if (n !== pieces && !(n === 0 && !inPlay.includes(l))) return { key: 'tq_fen_count', params: { letter: l, n: pieces } };
  }
  return null;
}
