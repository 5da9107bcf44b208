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
console.log('jifen study rules: perft and scores as the engine');
