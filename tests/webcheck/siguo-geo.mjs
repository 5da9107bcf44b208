// Four-army Junqi's board geometry (web/games/siguo-geo.js), checked in node:
// the 129 posts of S3, the camps and headquarters of S4, the links of S5, and
// for each of the four turns of the board (each army at the bottom) that every
// post lands on its own point inside the viewBox, with that army's block at
// the bottom and its left (facing the centre) on the screen's left.
import assert from 'node:assert/strict';
import * as G from '../../web/games/siguo-geo.js';

let checks = 0;
const ok = (cond, msg) => { assert.ok(cond, msg); checks++; };

// S3: 129 posts, 30 per block and the nine of the centre, all distinct.
ok(G.POSTS.length === 129 && G.POST_SET.size === 129, `129 distinct posts, got ${G.POST_SET.size}`);
for (const a of G.ARMIES) ok(G.POSTS.filter((p) => G.armyOfPost(p) === a).length === 30, `30 posts of ${a}`);
const block = { s: ['ghijk', 1, 6], n: ['ghijk', 12, 17], w: ['abcdef', 7, 11], e: ['lmnopq', 7, 11] };
for (const [a, [files, lo, hi]] of Object.entries(block)) {
  for (const f of files) for (let r = lo; r <= hi; r++) ok(G.armyOfPost(f + r) === a, `${f}${r} is ${a}'s`);
}
// S4: camps and headquarters, with the decision's own examples.
const camps = { s: 'h3 j3 i4 h5 j5', n: 'j15 h15 i14 j13 h13', w: 'c10 c8 d9 e10 e8', e: 'o8 o10 n9 m8 m10' };
const hq = { s: 'h1 j1', n: 'j17 h17', w: 'a10 a8', e: 'q8 q10' };
for (const a of G.ARMIES) {
  for (const p of camps[a].split(' ')) ok(G.CAMPS.has(p) && G.armyOfPost(p) === a, `camp ${p}`);
  for (const p of hq[a].split(' ')) ok(G.HQ.has(p) && G.armyOfPost(p) === a, `headquarters ${p}`);
}
ok(G.CAMPS.size === 20 && G.HQ.size === 8, 'twenty camps, eight headquarters');
// S4 own frames: a set-up text's first character is the own back-left post, the 30th the own front-right.
const corners = { s: ['g1', 'k6'], n: ['k17', 'g12'], w: ['a11', 'f7'], e: ['q7', 'l11'] };
for (const a of G.ARMIES) ok(G.setupPost(a, 0) === corners[a][0] && G.setupPost(a, 29) === corners[a][1], `${a}'s own frame: ${G.setupPost(a, 0)}..${G.setupPost(a, 29)}`);
// S5: the links, the four arcs among the railways, nothing else between blocks.
const key = (a, b) => [a, b].sort().join('-');
const links = new Map(G.LINKS.map(([a, b, k]) => [key(a, b), k]));
ok(links.size === G.LINKS.length, 'each link once');
for (const [a, b] of [['g6', 'f7'], ['k6', 'l7'], ['k12', 'l11'], ['g12', 'f11']]) ok(links.get(key(a, b)) === 'arc', `arc ${a}-${b}`);
for (const [a, b] of [['g6', 'g7'], ['i6', 'i7'], ['f9', 'g9'], ['l11', 'k11'], ['g7', 'i7'], ['i9', 'i11'], ['g2', 'k2'.replace('k', 'h')]]) ok(links.get(key(a, b)) === 'rail', `railway ${a}-${b}`);
ok(links.get(key('h1', 'h2')) === 'road' && links.get(key('g1', 'g2')) === 'road' && links.get(key('h3', 'g2')) === 'road', 'roads h1-h2, g1-g2, the camp h3 to g2');
for (const [a, b] of G.LINKS) {
  const x = G.armyOfPost(a), y = G.armyOfPost(b);
  if (x && y && x !== y) ok(links.get(key(a, b)) === 'arc', `only arcs join two blocks: ${a}-${b}`);
}
for (const p of G.POSTS) ok(G.LINKS.some(([a, b]) => a === p || b === p), `${p} is linked`);

// The screen, for each army at the bottom.
for (const a of G.ARMIES) {
  const turn = G.turnFor(a);
  const pts = G.POSTS.map((p) => G.point(p, turn));
  const distinct = new Set(pts.map(([x, y]) => `${x},${y}`));
  ok(distinct.size === 129, `${a} at the bottom: 129 distinct points, got ${distinct.size}`);
  for (const [x, y] of pts) ok(x >= G.STEP / 2 && y >= G.STEP / 2 && x <= G.SIZE - G.STEP / 2 && y <= G.SIZE - G.STEP / 2, `${a}: (${x}, ${y}) inside the viewBox of ${G.SIZE} with room for a piece`);
  // The army's own back rank is the bottom row, its front rank above it; own left on the left.
  const [bx, by] = G.point(G.setupPost(a, 0), turn), [fx, fy] = G.point(G.setupPost(a, 29), turn);
  ok(by === Math.max(...pts.map((p) => p[1])), `${a}: its back rank at the bottom`);
  ok(fy < by && fx > bx, `${a}: its front above its back, its right on the right`);
  // The ally at the top, and turn order s e n w goes counterclockwise seen from above (S1).
  const ally = G.point(G.setupPost(G.ALLY[a], 0), turn);
  ok(ally[1] === Math.min(...pts.map((p) => p[1])), `${a}: the ally ${G.ALLY[a]} at the top`);
  const next = G.ARMIES[(G.ARMIES.indexOf(a) + 1) % 4];
  ok(G.point(G.setupPost(next, 0), turn)[0] === Math.max(...pts.map((p) => p[0])), `${a}: the next army ${next} on the right`);
  // Coordinates: every column and row that has posts is labelled, inside the viewBox.
  const { cols, rows } = G.axisLabels(turn);
  ok(cols.length === 17 && rows.length === 17, `${a}: 17 column and 17 row labels`);
  const bottom = cols.filter((c) => c.below === 16).map((c) => c.text).join('');
  const expect = { s: 'ghijk', e: '7891011', n: 'kjihg', w: '1110987' }[a];
  ok(bottom === expect, `${a}: the bottom labels read ${expect}, got ${bottom}`);
  // Each army's corner is free of posts and inside the board.
  for (const b of G.ARMIES) {
    const [cx, cy] = G.cornerOf(b, turn);
    ok(!G.POSTS.some((p) => { const [c, r] = G.gridOf(p, turn); return Math.abs(c - cx) < 3 && Math.abs(r - cy) < 3; }), `${a}: ${b}'s corner holds no post`);
  }
}
// The position text (S15).
const pos = G.parse('sFh1,sMg1,eXl9,nSi12 e w 3 7');
ok(pos.pieces.size === 4 && pos.pieces.get('l9').army === 'e' && pos.pieces.get('l9').piece === 'X', 'pieces read');
ok(pos.toMove === 'e' && pos.out.has('w') && pos.quiet === 3 && pos.moveNo === 7, 'fields read');
ok(G.parse('- s - 0 0').pieces.size === 0, 'a set-up phase without pieces');
ok(G.splitMove('g2g16')?.join() === 'g2,g16' && G.splitMove('h8h9') === null, 'moves split; h8 is no post');
console.log(`siguo geometry: ${checks} checks passed`);
