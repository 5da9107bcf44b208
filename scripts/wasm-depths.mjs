// How long the engine in the browser (web/engine.wasm) takes to reach depths
// 10, 12 and 14 from the opening position, with 1 and 3 best lines, asked
// depth after depth as the analysis board asks it (node runs the same
// WebAssembly as the page's worker). Usage: node scripts/wasm-depths.mjs
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const wasm = readFileSync(fileURLToPath(new URL('../web/engine.wasm', import.meta.url)));
const fen = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
for (const lines of [1, 3]) {
  // A fresh instance each time: no table left from the run before.
  const e = /** @type {any} */ ((await WebAssembly.instantiate(wasm, {})).instance.exports);
  const ask = (/** @type {string} */ text) => {
    const req = new TextEncoder().encode(text);
    const at = e.qy_input(req.length);
    new Uint8Array(e.memory.buffer, at, req.length).set(req);
    const n = e.qy_analyse();
    return JSON.parse(new TextDecoder().decode(new Uint8Array(e.memory.buffer, e.qy_output(), n)));
  };
  const t0 = Date.now();
  for (let d = 1; d <= 14; d++) {
    const r = ask(`xiangqi\n${fen}\n\n${d}\n${lines}`);
    if ([10, 12, 14].includes(d)) console.log(`${lines} line(s): depth ${d} after ${Date.now() - t0} ms (best ${r.best}, ${r.score} cp for red)`);
  }
}
