// The page's architecture: a shared module (every web/*.js but the per-game
// ones listed below) names no game, so a new game adds its module under
// web/games/ and changes no shared file. A game's name or variant id in a
// shared module, in code or in a comment, fails the check.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '../../web');

// The files of web/ that are not shared (web/games/* are all per-game),
// each with what it is. The move list stays where the browser tests import
// it from (/static/movelist.js).
const PER_GAME = {
  'movelist.js': 'the Xiangqi family: the move list',
  // Not a module with branches: the message catalogue, keyed by variant id
  // (the lobby lists every variant's name before any game module loads).
  'i18n.js': 'the messages of every game',
};

// Every kind and variant id the server registers (GET /api/kinds), and the
// games' names in the page's languages.
const NAMES = [
  'xiangqi', 'jifen', 'banqi', 'tiaoqi', 'junqi', 'siguo',
  '象棋', '积分', '翻翻棋', '跳棋', '军棋', '四国',
  'chinese checkers', 'flip chess',
];

const shared = readdirSync(WEB).filter((f) => f.endsWith('.js') && !(f in PER_GAME)).sort();
const found = [];
for (const f of shared) {
  readFileSync(join(WEB, f), 'utf8').split('\n').forEach((line, i) => {
    const low = line.toLowerCase();
    for (const n of NAMES) if (low.includes(n)) found.push(`web/${f}:${i + 1}: names "${n}": ${line.trim().slice(0, 120)}`);
  });
}
for (const f of Object.keys(PER_GAME)) if (!readdirSync(WEB).includes(f)) found.push(`web/${f}: listed as per-game but missing (update PER_GAME)`);
if (found.length) {
  console.error(`Shared web modules name a game (move the branch into the game's module, web/games/, behind a hook in kinds.js):\n${found.join('\n')}`);
  process.exit(1);
}
console.log(`no game named in ${shared.length} shared web modules: ${shared.join(', ')}`);
