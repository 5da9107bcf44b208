// @ts-check
// Tiaoqi's geometry and position text for the page (rules T11-T13): the 121
// cells, the six camps, rows still to go (T9) and positions rebuilt from the
// move record for replay and animation. No drawing here.

/** Cells per row, row 1 (south tip) to row 17 (north tip). */
export const LEN = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
/** The six camp letters in play order (T12), a south, then clockwise. */
export const LETTERS = 'abcdef';
/** The seated letters by number of seats (T12). */
export const SEATINGS = { 2: 'ad', 3: 'ace', 4: 'acdf', 6: 'abcdef' };

/** Doubled coordinates of cell (row, col) (T11). */
export function xy(row, col) { return { x: 2 * (col - 1) - (LEN[row - 1] - 1), y: row }; }

/** Every cell as {name, row, col, x, y, camp}, row 17 first (the text's order). */
export const CELLS = (() => {
  const out = [];
  for (let row = 17; row >= 1; row--) {
    for (let col = 1; col <= LEN[row - 1]; col++) out.push({ name: `${row}.${col}`, row, col, ...xy(row, col), camp: campOf(row, col) });
  }
  return out;
})();

const BY_NAME = new Map(CELLS.map((c) => [c.name, c]));

/** The cell named `ROW.COL`, or undefined. */
export function cell(name) { return BY_NAME.get(name); }

/** The camp letter of a cell, or '' for the hexagon (T11). */
function campOf(row, col) {
  const n = LEN[row - 1];
  if (row <= 4) return 'a';
  if (row >= 14) return 'd';
  if (row <= 8) { const k = 9 - row; return col <= k ? 'b' : col > n - k ? 'f' : ''; }
  if (row >= 10) { const k = row - 9; return col <= k ? 'c' : col > n - k ? 'e' : ''; }
  return '';
}

/** The letter across the board (T2): a↔d, b↔e, c↔f. */
export function opposite(letter) { return LETTERS[(LETTERS.indexOf(letter) + 3) % 6]; }

/** The seated letters of a game of `n` seats, in seat-index order. */
export function seatLetters(n) { return SEATINGS[n] || LETTERS.slice(0, n); }

/** Rows still to go for a piece of `letter` on cell `c` (T9; geometry.rs DISTANCE). */
export function rowsToGo(letter, c) {
  const { x, y } = c;
  switch (letter) {
    case 'a': return 17 - y;
    case 'b': return (25 - x - y) / 2;
    case 'c': return (7 - x + y) / 2;
    case 'd': return y - 1;
    case 'e': return (x + y + 7) / 2;
    default: return (x - y + 25) / 2;
  }
}

/** The start holes of `letter` with `pieces` pieces (T3): its camp, plus row 5's or 13's middle five. */
export function startCells(letter, pieces) {
  return CELLS.filter((c) => c.camp === letter
    || (pieces === 15 && ((letter === 'a' && c.row === 5) || (letter === 'd' && c.row === 13)) && c.col >= 5 && c.col <= 9));
}

/** The holes `letter` must fill (T8): the start holes of the seat across. */
export function targetCells(letter, pieces) { return startCells(opposite(letter), pieces); }

/** Parses a position text (T13) into {board: Map name→letter, toMove, inPlay}. */
export function parse(fen) {
  const [rows = '', toMove = '', inPlay = ''] = String(fen || '').split(' ');
  const board = new Map();
  const parts = rows.split('/');
  let i = 0;
  for (let p = 0; p < 17; p++) {
    const row = 17 - p, text = parts[p] || '';
    for (let col = 1; col <= LEN[row - 1]; col++, i++) {
      const ch = text[col - 1];
      if (ch && ch !== '.') board.set(`${row}.${col}`, ch);
    }
  }
  return { board, toMove, inPlay };
}

/** The position text of a parsed position. */
export function write({ board, toMove, inPlay }) {
  const rows = [];
  for (let row = 17; row >= 1; row--) {
    let s = '';
    for (let col = 1; col <= LEN[row - 1]; col++) s += board.get(`${row}.${col}`) || '.';
    rows.push(s);
  }
  return `${rows.join('/')} ${toMove} ${inPlay}`;
}

/** Pieces each in a game (10, or 15 in a two-player game, T3), from a position. */
export function piecesEach(board) {
  const n = {};
  for (const ch of board.values()) n[ch] = (n[ch] || 0) + 1;
  return Math.max(10, ...Object.values(n)) >= 15 ? 15 : 10;
}

/** Each letter's total rows to go in a position: {letter: N}. */
export function distances(board) {
  const out = {};
  for (const [name, ch] of board) out[ch] = (out[ch] || 0) + rowsToGo(ch, cell(name));
  return out;
}

/** Whether `letter` has filled its target (T8: every hole taken, by its own pieces or the stayers'). */
export function finished(board, letter, pieces) {
  const stayer = opposite(letter);
  return targetCells(letter, pieces).every((c) => { const ch = board.get(c.name); return ch === letter || ch === stayer; })
    && targetCells(letter, pieces).some((c) => board.get(c.name) === letter);
}

/** The normal start position of `letters` seated with `pieces` each. */
export function startFen(letters, pieces) {
  const board = new Map();
  for (const l of letters) for (const c of startCells(l, pieces)) board.set(c.name, l);
  return write({ board, toMove: letters[0], inPlay: letters });
}

/** The cells of a move's path (`4.2-6.7-8.7`), or [] for pass, timeout, resign. */
export function pathOf(move) { return move && move.includes('-') ? move.split('-') : []; }

/**
 * Every position of a game, ply 0 (the start) to the last, rebuilt from its
 * record: moves carry the piece along, `timeout` is a lost turn (the third
 * takes the seat out, T14), `resign` takes out a seat that has no pieces in
 * the current position and never moves again. Seats that filled their
 * target leave the turn order. Returns {fens, movers}: the position texts
 * and the letter of the seat behind each record.
 */
export function replay(state) {
  const rec = (state.records || []).map((r) => r.iccs);
  const letters = seatLetters((state.seats || []).length || 2);
  const now = parse(state.fen);
  const pieces = piecesEach(now.board);
  const start = parse(state.start_fen || startFen(letters, pieces));
  const board = new Map(start.board);
  let inPlay = start.inPlay || letters;
  let toMove = start.toMove || inPlay[0];
  const timeouts = {};
  // Who made each move (the piece on its first cell), found on a plain
  // replay first, for `resign` below.
  const lastMove = {};
  const plain = new Map(start.board);
  rec.forEach((m, i) => {
    const p = pathOf(m);
    if (!p.length) return;
    const who = plain.get(p[0]);
    plain.delete(p[0]);
    plain.set(p[p.length - 1], who);
    lastMove[who] = i;
  });
  const nowLetters = new Set(now.board.values());
  // A seat that left: no pieces now and no moves after ply i.
  const gone = (l, i) => !nowLetters.has(l) && (lastMove[l] ?? -1) < i;
  const next = (l) => nextIn(letters, l, inPlay);
  const remove = (l) => {
    for (const [k, v] of [...board]) if (v === l) board.delete(k);
    inPlay = inPlay.replace(l, '');
  };
  const fens = [write({ board, toMove, inPlay })], movers = [];
  rec.forEach((m, i) => {
    const p = pathOf(m);
    let who = toMove;
    if (p.length) {
      who = board.get(p[0]) || toMove;
      board.delete(p[0]);
      board.set(p[p.length - 1], who);
      toMove = next(who);
      if (inPlay.length > 1 && finished(board, who, pieces)) {
        inPlay = inPlay.replace(who, '');
        if (toMove === who) toMove = inPlay[0] || '';
      }
    } else if (m === 'timeout') {
      timeouts[who] = (timeouts[who] || 0) + 1;
      toMove = next(who);
      if (timeouts[who] >= 3 && letters.length > 2) remove(who);
    } else if (m === 'resign') {
      who = inPlay.split('').find((l) => gone(l, i)) || '';
      if (who) {
        const wasToMove = toMove === who;
        const after = next(who);
        remove(who);
        if (wasToMove) toMove = after;
      }
    } else {
      toMove = next(toMove);
    }
    movers.push(who);
    fens.push(write({ board, toMove, inPlay }));
  });
  return { fens, movers };
}

/** @type {{ key: string, value: ReturnType<typeof replay> | null }} */
let cached = { key: '', value: null };

/** `replay` of the game as it is now, worked out once per new move. */
export function replayOf(state) {
  const key = `${state.id}:${(state.records || []).length}:${state.fen}`;
  if (cached.key === key && cached.value) return cached.value;
  const value = replay(state);
  cached = { key, value };
  return value;
}

/** The letter after `l` in `order` that is still in play. */
function nextIn(order, l, inPlay) {
  const i = order.indexOf(l);
  for (let k = 1; k <= order.length; k++) {
    const x = order[(i + k) % order.length];
    if (inPlay.includes(x)) return x;
  }
  return '';
}
