// Unit tests of web/games/xiangqi-notation.js (issue 37, item 1): the page
// writes the engine's lines and any move of a position in WXF and Chinese
// notation, as the server's records do. Known cases first, then (with
// QIYUAN_BIN) every legal move of some crowded positions against the
// server's own `qiyuan notation`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { toChinese, toWxf, lineIn, after, moveIn } from '../../web/games/xiangqi-notation.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

test('opening moves: 炮二平五, 马８进７, 马八进七 and their WXF', () => {
  assert.equal(toChinese(START, 'h2e2'), '炮二平五');
  assert.equal(toWxf(START, 'h2e2'), 'C2.5');
  const b1 = after(START, 'h2e2');
  assert.equal(toChinese(b1, 'h9g7'), '马８进７');
  assert.equal(toWxf(b1, 'h9g7'), 'H8+7');
  assert.deepEqual(lineIn(START, ['h2e2', 'h9g7', 'b0c2', 'i9h9'], 'chinese'), ['炮二平五', '马８进７', '马八进七', '车９平８']);
  assert.deepEqual(lineIn(START, ['h2e2', 'h9g7', 'b0c2', 'i9h9'], 'wxf'), ['C2.5', 'H8+7', 'H8+7', 'R9.8']);
  assert.equal(moveIn(START, 'h2e2', 'iccs'), 'h2e2');
  // Straight moves count steps; a cannon going back.
  assert.equal(toChinese(START, 'h2h6'), '炮二进四');
  assert.equal(toChinese(START, 'a0a2'), '车九进二');
  assert.equal(toChinese(START, 'e0e1'), '帅五进一');
  assert.equal(toChinese(START, 'd0e1'), '仕六进五');
  assert.equal(toChinese(START, 'c0e2'), '相七进五');
});

test('two pieces on a file: 前车进一, 后车平四; black counts from its own right', () => {
  // Red chariots on e4 and e2, kings off the e-file.
  const fen = '3k5/9/9/9/9/4R4/9/4R4/9/5K3 w - - 0 1';
  assert.equal(toChinese(fen, 'e4e5'), '前车进一');
  assert.equal(toWxf(fen, 'e4e5'), 'R++1');
  assert.equal(toChinese(fen, 'e2f2'), '后车平四');
  assert.equal(toWxf(fen, 'e2f2'), 'R-.4');
  // Black cannons on b7 and b5: black's front is the lower rank.
  const blk = '4k4/9/1c7/9/1c7/9/9/9/9/3K5 b - - 0 1';
  assert.equal(toChinese(blk, 'b5b4'), '前炮进１');
  assert.equal(toChinese(blk, 'b7b8'), '后炮退１');
  assert.equal(toWxf(blk, 'b7b8'), 'C--1');
});

test('pawns: three on a file (前/中/后), two files doubled (前三平四)', () => {
  const three = '4k4/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1';
  assert.equal(toChinese(three, 'c7d7'), '前兵平六');
  assert.equal(toChinese(three, 'c6d6'), '中兵平六');
  assert.equal(toChinese(three, 'c5b5'), '后兵平八');
  assert.equal(toWxf(three, 'c6d6'), 'P7.6');
  assert.equal(toWxf(three, 'c7c8'), 'P++1');
  const two = '4k4/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1';
  assert.equal(toChinese(two, 'g6f6'), '前三平四');
  assert.equal(toWxf(two, 'g6f6'), '3+.4');
  assert.equal(toChinese(two, 'c5b5'), '后七平八');
});

test('Jifen: the class word after the move, class marks in the position ignored for the geometry', () => {
  assert.equal(toChinese(START, 'h2e2*'), '炮二平五闲');
  assert.equal(toWxf(START, 'h2e2*'), 'C2.5*');
  const jifen = 'rnbakabnr/9/1c-5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R*NBAKABNR b - - 2 2 5 -3 1 -';
  assert.equal(toChinese(jifen, 'b7e7'), '炮２平５');
  assert.equal(toChinese(jifen, 'b7e7='), '炮２平５普');
  // The position after a class change keeps the mark; the next move reads the same.
  assert.match(after(START, 'h2e2*'), /1C2C\*4/);
  assert.deepEqual(lineIn(START, ['h2e2*', 'h9g7', '0000'], 'chinese').slice(0, 2), ['炮二平五闲', '马８进７']);
});

test('a move of no piece stays as given', () => {
  assert.equal(toChinese(START, 'e5e6'), 'e5e6');
  assert.equal(toWxf(START, 'nonsense'), 'nonsense');
});

// The server's own notation (the move list's records) for every legal move
// of positions with doubled pieces, advisors and elephants sharing files.
const bin = process.env.QIYUAN_BIN;
test('every legal move of crowded positions reads as the server writes it', { skip: !bin || !existsSync(bin) ? 'QIYUAN_BIN not set' : false }, () => {
  const fens = [
    START,
    '2bak4/4a4/4b4/2P6/2P3P2/2P3P2/9/4B4/4A4/3AK1B2 w - - 0 1',
    '3akab2/9/4b4/p1p1p1p1p/9/2B6/P1P1P1P1P/3A5/9/2BAK4 w - - 0 1',
    '4k4/4a4/3a5/2c6/2c6/2p1p4/2p3p2/2p6/9/3K5 b - - 0 1',
    '2r1k4/2r6/9/9/9/9/9/2R6/2R6/3K5 w - - 0 1',
    '4k4/9/4P4/4P4/4P4/4P4/4P4/9/9/3K5 w - - 0 1',
    '3k5/9/9/9/9/9/9/2N6/2N6/4K4 w - - 0 1',
  ];
  let n = 0;
  for (const fen of fens) {
    const moves = execFileSync(bin, ['moves', '--fen', fen], { encoding: 'utf8' }).split('\n').map((s) => s.trim()).filter(Boolean);
    assert.ok(moves.length > 0, fen);
    for (const mv of moves) {
      const out = execFileSync(bin, ['notation', '--fen', fen, mv], { encoding: 'utf8' });
      const want = Object.fromEntries(out.trim().split('\n').map((l) => { const i = l.indexOf(' '); return [l.slice(0, i), l.slice(i + 1)]; }));
      assert.equal(toWxf(fen, mv), want.wxf, `${fen} ${mv} wxf`);
      assert.equal(toChinese(fen, mv), want.chinese, `${fen} ${mv} chinese`);
      n++;
    }
  }
  assert.ok(n > 100, `compared ${n} moves`);
});
