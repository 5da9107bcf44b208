// The page's catalogue (web/strings/*.js) is complete: every key has an
// English and a Chinese text, both with the same {placeholders}, no key is
// defined in two files, and every error code the server can answer
// (crates/qiyuan-hall/src/error.rs, the list the OpenAPI document prints) has
// a message of its own (key `code_<code>`), so the page never shows the
// server's English sentence.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DIR = join(ROOT, 'web/strings');
const problems = [];
const where = new Map();
const all = {};
let glossary = {};
for (const f of readdirSync(DIR).filter((n) => n.endsWith('.js')).sort()) {
  // A data: URL: the file is a module whatever node guesses from its folder.
  const mod = await import(`data:text/javascript,${encodeURIComponent(readFileSync(join(DIR, f), 'utf8'))}`);
  if (f === 'glossary.js') { glossary = mod.default; continue; }
  for (const [k, v] of Object.entries(mod.default)) {
    if (where.has(k)) problems.push(`${k}: in ${where.get(k)} and in ${f}`);
    where.set(k, f);
    all[k] = v;
    for (const l of ['en', 'zh']) {
      if (typeof v[l] !== 'string' || !v[l].trim()) problems.push(`${f}: ${k} has no ${l} text`);
    }
    const ph = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    if (ph(v.en) !== ph(v.zh)) problems.push(`${f}: ${k}: placeholders differ: en {${ph(v.en)}} zh {${ph(v.zh)}}`);
  }
}
// Chinese as a Chinese player writes it: one word per idea (the glossary)
// and full-width punctuation (no ASCII brackets, no ASCII comma or colon
// after a Chinese character).
for (const [k, v] of Object.entries(all)) {
  const zh = String(v.zh).replace(/<[^>]*>/g, '');
  for (const [idea, g] of Object.entries(glossary)) {
    for (const bad of g.avoid) if (zh.includes(bad)) problems.push(`${where.get(k)}: ${k}: "${bad}": write ${g.zh} for ${idea} (glossary.js)`);
  }
  if (/[()]/.test(zh)) problems.push(`${where.get(k)}: ${k}: ASCII brackets in Chinese: ${zh.slice(0, 60)}`);
  if (/[\u4e00-\u9fff][,:;!?]/.test(zh)) problems.push(`${where.get(k)}: ${k}: ASCII punctuation after a Chinese character: ${zh.slice(0, 60)}`);
}
const errorRs = readFileSync(join(ROOT, 'crates/qiyuan-hall/src/error.rs'), 'utf8');
const codes = [...errorRs.matchAll(/^\s+\w+ = \("([a-z_]+)", \d{3}\),$/gm)].map((m) => m[1]);
if (codes.length < 20) problems.push(`read only ${codes.length} error codes from error.rs: has its format changed?`);
for (const c of codes) if (!all[`code_${c}`]) problems.push(`error code ${c} has no message (key code_${c} in web/strings/errors.js)`);
if (problems.length) {
  console.error(`The page's catalogue is incomplete:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`${Object.keys(all).length} keys in both languages; ${codes.length} error codes each with a message`);
