// The Jifen rules of the analysis board (web/games/jifen-study.js) against
// the Rust engine's perft (crates/qiyuan-xiangqi/tests/it/jifen_perft.rs,
// J23: every class-change form and every pass is its own move), and a
// few scores after moves (the J table).
import assert from 'node:assert/strict';
import { jifenRules } from '../../web/games/jifen-study.js';

const expected = { 'jifen-simple': [88, 7692], 'jifen-match': [132, 17298], 'jifen-contest': [42, 1978, 114619] };
for (const [v, counts] of Object.entries(expected)) {
  const j = jifenRules(v);
  const perft = (fen, d) => { if (!d) return 1; let n = 0; for (const m of j.legal(fen)) n += perft(j.play(fen, m), d - 1); return n; };
  const start = j.normal(j.start);
  counts.forEach((n, i) => assert.equal(perft(start, i + 1), n, `${v} perft ${i + 1}`));
}
// Scores: match rules, a Normal piece moved gives the opponent 1; an Idle one the mover 1.
const m = jifenRules('jifen-match');
const after1 = m.play(m.start, 'h2e2');
assert.deepEqual(m.scores(after1), [0, 1]);
assert.deepEqual(m.scores(m.play(after1, 'h9g7*')), [1, 1], 'the class while moving counts (Normal), not the one after (Idle)');
// Contest: turn 1 is one move; black's quiet first move gives a second (or a pass).
const c = jifenRules('jifen-contest');
const b1 = c.play(c.start, 'h2e2');
assert.equal(b1.split(' ')[1], 'b');
const b2 = c.play(b1, 'h9g7');
assert.equal(c.second(b2), true);
assert.ok(c.legal(b2).includes('0000'));
assert.equal(c.play(b2, '0000').split(' ')[1], 'w');
// Reasons: a class the rule set lacks; a won game.
assert.equal(jifenRules('jifen-simple').problem('rnbakabnr/9/1c-5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 0 0 1 -'), 'fen_jifen_class');
assert.equal(jifenRules('jifen-simple').problem('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 30 0 1 -'), 'fen_jifen_won');
// Contest rules: the capture flag must agree with the board and the turn state (J8, J13, J14, J20).
const full = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR';
assert.equal(c.problem(`${full} b - - 0 3 0 0 2 -`), null, 'a second move before any capture');
assert.equal(c.problem('3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 9 0 0 1 -'), 'fen_jifen_missing', 'pieces gone without a capture');
assert.equal(c.problem('3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 9 0 0 1 x'), null);
assert.equal(jifenRules('jifen-match').problem('3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 9 0 0 1 -'), null, 'the flag changes nothing in match rules');
assert.equal(c.problem(`${full.replace('R', 'R*')} w - - 0 5 0 0 1 -`), 'fen_jifen_class_early');
assert.equal(c.problem(`${full} w - - 0 1 0 0 2 -`), 'fen_jifen_turn_one');
assert.equal(c.problem('rnbakabnr/4R4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 3 0 0 2 -'), 'fen_jifen_second_check');
assert.equal(c.problem(`${full} w - - 300 90 0 0 1 -`), 'fen_jifen_limit');
assert.equal(c.problem(`${full} w - - 299 90 0 0 1 -`), null);
// The editor keeps the state it is given when pieces change; its setters write the fields.
assert.equal(c.editor.setCounters(`${full} b - - 0 1 0 0 1 -`, 12, 7), `${full} b - - 12 7 0 0 1 -`);
assert.equal(c.editor.setSecond(`${full} b - - 12 7 0 0 1 -`, true), `${full} b - - 12 7 0 0 2 -`);
assert.equal(c.editor.move(`${full} b - - 12 7 0 0 2 -`, 'a9', 'a8').split(' ').slice(1).join(' '), 'b - - 12 7 0 0 2 -');
assert.equal(jifenRules('jifen-match').editor.setSecond, undefined, 'double turns are the contest rules\' alone');
console.log('jifen study rules: perft and scores as the engine');
