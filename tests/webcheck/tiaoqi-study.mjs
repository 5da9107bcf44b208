// Tiaoqi's rules on the analysis board (web/games/tiaoqi-rules.js) against
// the Rust generator's perft (`qiyuan perft --variant tiaoqi --players N
// [--fen POS] D`, crates/qiyuan-tiaoqi: each start-end pair once, then the
// pass, T13), from the start of every seating and from positions some
// moves into 2-, 3- and 6-player games; then a finish (T8, T10) and the
// reasons a text is refused.
import assert from 'node:assert/strict';
import { legalMoves, play, normal, isOver, why, seatingOf, pathIn } from '../../web/games/tiaoqi-rules.js';
import { startFen, startCells, write, SEATINGS } from '../../web/games/tiaoqi-geo.js';

const perft = (fen, d) => { if (!d) return 1; let n = 0; for (const m of legalMoves(fen)) n += perft(play(fen, m), d - 1); return n; };
const cases = [
  [startFen(SEATINGS[2], 10), [15, 225, 5415]],
  [startFen(SEATINGS[2], 15), [19, 361]],
  [startFen(SEATINGS[3], 10), [15, 225, 3375]],
  [startFen(SEATINGS[4], 10), [15, 225, 15 * 226]],
  [startFen(SEATINGS[6], 10), [15, 226, 3405, 51301]],
  ['./dd/.../..../............./...d....d.../..d..d..d../....d...../...ad.a../....daa.../........a../........a.../............./a.../a../aa/. a ad', [46, 2202, 106103]],
  ['./../.../..../.c..cc...eee./c..........e/.cc.....e../..cc.a..../.....e..e/.c...e..e./..c...aa.../.......ae.../......a....../a..a/a../aa/. a ace', [55, 3084, 147420]],
  ['d/d./.dd/.dd./.c..c.dcee.e./ccc...d..ee./c.cc....eee/cd......d./.......ff/ba......ef/b.b....ff../bbb.....efff/.b..bbabaff../.aaa/aa./aa/. a abcdef', [35, 1437, 75336]],
];
for (const [fen, counts] of cases) counts.forEach((n, i) => assert.equal(perft(fen, i + 1), n, `perft ${i + 1} of ${fen}`));

// Every move's path is a chain of single hops (or one step) to its end.
const mid = cases[7][0];
for (const m of legalMoves(mid)) {
  if (m === 'pass') continue;
  const p = pathIn(mid, m);
  assert.equal(`${p[0]}-${p[p.length - 1]}`, m);
}

// T8/T10: red's last piece steps home (13.8-14.4). With three in play red
// leaves the turn order and the others play on; with two the game is over.
const nearlyHome = (letters) => {
  const board = new Map();
  for (const c of startCells('d', 10)) if (c.name !== '14.4') board.set(c.name, 'a');
  board.set('13.8', 'a');
  for (const l of letters.slice(1)) for (const c of startCells(l, 10)) if (!board.has(c.name)) board.set(c.name, l);
  // Green stays out of its own camp (red fills it): rows 5 and 6's middle.
  if (letters.includes('d')) for (const c of startCells('d', 10)) if (board.get(c.name) === 'd') board.delete(c.name);
  if (letters.includes('d')) ['5.5', '5.6', '5.7', '5.8', '5.9', '6.4', '6.5', '6.6', '6.7', '6.8'].forEach((n) => board.set(n, 'd'));
  return write({ board, toMove: 'a', inPlay: letters });
};
const two = nearlyHome('ad');
assert.equal(why(two, 2), null, two);
assert.ok(!isOver(two));
assert.ok(legalMoves(two).includes('13.8-14.4'));
const home = play(two, '13.8-14.4');
assert.ok(isOver(home), home);
assert.deepEqual(legalMoves(home), []);
const three = nearlyHome('ace');
assert.equal(why(three, 3), null, three);
const after = play(three, '13.8-14.4');
assert.equal(after.split(' ')[2], 'ce', 'red, home, leaves the turn order');
assert.equal(after.split(' ')[1], 'c');
assert.ok(!isOver(after));
assert.equal(normal(after), after);

// Reasons, and the seating a text needs.
assert.equal(why('x', 2).key, 'tq_fen_fields');
assert.equal(why(startFen(SEATINGS[3], 10), 2).key, 'tq_fen_char');
assert.equal(seatingOf(startFen(SEATINGS[3], 10)), 3);
assert.equal(seatingOf(startFen(SEATINGS[4], 10)), 4);
assert.equal(why(startFen(SEATINGS[2], 10).replace(' a ad', ' d a'), 2).key, 'tq_fen_turn');
assert.equal(why(startFen(SEATINGS[2], 10).replace('/a', '/.'), 2).key, 'tq_fen_count');
console.log('tiaoqi study rules: perft as the engine, finishes and reasons');
