// @ts-check
// The engine in the browser: a Web Worker that loads web/engine.wasm (the
// Rust engine built by scripts/build-wasm.sh) and searches each position of
// a game, posting one result per ply. The wasm speaks through three exports:
// qy_input(len) gives a buffer for the UTF-8 request, qy_analyse() answers it
// and returns the answer's length, qy_output() where the JSON answer is.
let engine = null;

async function load() {
  const bytes = await (await fetch('/static/engine.wasm')).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  engine = instance.exports;
}

function ask(text) {
  const req = new TextEncoder().encode(text);
  const at = engine.qy_input(req.length);
  new Uint8Array(engine.memory.buffer, at, req.length).set(req);
  const n = engine.qy_analyse();
  const out = engine.qy_output();
  return JSON.parse(new TextDecoder().decode(new Uint8Array(engine.memory.buffer, out, n)));
}

/**
 * The analysis board's search: one position, depth after depth (the
 * searcher's table is kept between them, so each depth costs little more
 * than its own), `lines` best lines each time, until `maxDepth` or until
 * the page ends the worker (its Stop button, another position). An engine
 * that deepens by more than one names the `next` depth worth asking; with
 * `nodes` each search stays within that many nodes, and once one has
 * `spent` them a deeper one would only repeat it. `ms`: how long the
 * answer took.
 */
async function live({ variant, fen, lines, maxDepth, nodes }) {
  for (let depth = 1; depth <= maxDepth;) {
    const t0 = Date.now();
    const r = ask(`${variant}\n${fen}\n\n${depth}\n${lines}${nodes ? `\n${nodes}` : ''}`);
    self.postMessage({ live: true, depth, ms: Date.now() - t0, ...r });
    if (r.error || r.over || r.spent) break;
    depth = r.next > depth ? r.next : depth + 1;
  }
  self.postMessage({ live: true, done: true });
}

/**
 * One position of a finished game within a budget: depth after depth (the
 * table kept between them) up to `maxDepth`, stopping once `budgetMs` is
 * spent or the next depth would likely overrun it (each depth costs a few
 * times the one before); the deepest answer. Without a budget, `maxDepth`.
 */
function budgeted(variant, fen, moves, maxDepth, budgetMs) {
  const begun = Date.now();
  let best = null;
  for (let depth = budgetMs ? 1 : maxDepth; depth <= maxDepth; depth++) {
    const r = ask(`${variant}\n${fen}\n${moves.join(' ')}\n${depth}`);
    if (r.error) return r;
    best = r;
    const spent = Date.now() - begun;
    if (r.over || spent >= budgetMs || spent * 3 > budgetMs) break;
  }
  return best;
}

/**
 * The explorer's engine view, round after round: the position at depth
 * d + 1 (its best move) and the position after each of `moves` at depth d,
 * so every row is scored by the same search as the best move; each round
 * posted, until `maxDepth` or until the next round would likely overrun
 * `budgetMs` (the table is kept between rounds).
 */
function each({ variant, fen, moves, maxDepth, budgetMs }) {
  const begun = Date.now();
  for (let d = 1; d <= maxDepth; d++) {
    const root = ask(`${variant}\n${fen}\n\n${d + 1}`);
    if (root.error) { self.postMessage({ each: true, error: root.error }); return; }
    const rows = moves.map((mv) => ({ move: mv, ...ask(`${variant}\n${fen}\n${mv}\n${d}`) }));
    self.postMessage({ each: true, depth: d + 1, root, rows });
    if (root.over || (Date.now() - begun) * 3 > budgetMs) break;
  }
  self.postMessage({ each: true, done: true });
}

self.onmessage = async (e) => {
  const { variant, fen, moves, depth } = e.data;
  try {
    if (!engine) await load();
    if (e.data.live) { await live(e.data); return; }
    if (e.data.each) { each(e.data); return; }
    for (let k = 0; k <= moves.length; k++) self.postMessage({ ply: k, ...budgeted(variant, fen, moves.slice(0, k), depth, e.data.budgetMs) });
    self.postMessage({ done: true });
  } catch (err) {
    self.postMessage({ error: String(err && err.message || err) });
  }
};
