// @ts-check
// Four-army Junqi's board as data (S3-S6) and its position text (S15), with
// no drawing: the 129 posts of the 17 × 17 grid, each army's own frame (S4),
// camps and headquarters, roads and railways (the four arcs among them), and
// where a post lands on the screen when the board is turned so that one army
// sits at the bottom. Pure, so that node checks it (tests/webcheck/siguo-geo.mjs).

export const FILES = 'abcdefghijklmnopq';
/** The armies in seat and turn order (S1): South, East, North, West. */
export const ARMIES = 'senw';
/** Each army's ally (S1: allies sit opposite). @type {Record<string, string>} */
export const ALLY = { s: 'n', n: 's', e: 'w', w: 'e' };
/** A set-up text's characters (Q13): six own ranks of five, back rank first. */
export const SETUP_LEN = 30;

/** A post's name from its file index (0 = a) and rank (1-17). @param {number} f @param {number} r */
const name = (f, r) => FILES[f] + r;

/**
 * The post of an army's own-frame place (S4): own file 0-4 (a-e, from the
 * army's own left facing the centre), own rank 1 (back) to 6 (front).
 * @param {string} army @param {number} f @param {number} r
 */
export function ownPost(army, f, r) {
  switch (army) {
    case 's': return name(6 + f, r);
    case 'n': return name(10 - f, 18 - r);
    case 'w': return name(r - 1, 11 - f);
    case 'e': return name(17 - r, 7 + f);
    default: return '';
  }
}

/** The post of character `i` of `army`'s set-up text (back rank first, own files a-e). @param {string} army @param {number} i */
export const setupPost = (army, i) => ownPost(army, i % 5, 1 + Math.floor(i / 5));

/** Own-frame camps (行营: b3 d3 c4 b5 d5) and headquarters (大本营: b1 d1), as [file, rank]. */
const OWN_CAMPS = [[1, 3], [3, 3], [2, 4], [1, 5], [3, 5]];
const OWN_HQ = [[1, 1], [3, 1]];

/** @type {Map<string, { army: string, f: number, r: number }>} every block post, with its army and own place */
const OWN = new Map();
for (const a of ARMIES) for (let r = 1; r <= 6; r++) for (let f = 0; f < 5; f++) OWN.set(ownPost(a, f, r), { army: a, f, r });

/** The nine posts of the centre (九宫). */
export const CENTRE = ['g7', 'i7', 'k7', 'g9', 'i9', 'k9', 'g11', 'i11', 'k11'];
/** Every post: the four blocks (South, East, North, West), then the centre. */
export const POSTS = [...OWN.keys(), ...CENTRE];
export const POST_SET = new Set(POSTS);
export const CAMPS = new Set([...ARMIES].flatMap((a) => OWN_CAMPS.map(([f, r]) => ownPost(a, f, r))));
export const HQ = new Set([...ARMIES].flatMap((a) => OWN_HQ.map(([f, r]) => ownPost(a, f, r))));

/** The army whose block holds `post` (undefined: the centre or no post). @param {string} post */
export const armyOfPost = (post) => (OWN.get(post) || { army: undefined }).army;

/** A post's file index (0 = a) and rank. @param {string} post @returns {[number, number]} */
export const coords = (post) => [FILES.indexOf(post[0]), Number(post.slice(1))];

/**
 * Every link of the board (S5), once each: [a, b, kind] with kind `road`,
 * `rail` or `arc` (an arc is a railway drawn as a curve).
 * @returns {[string, string, 'road' | 'rail' | 'arc'][]}
 */
function buildLinks() {
  /** @type {[string, string, 'road' | 'rail' | 'arc'][]} */
  const out = [];
  const isCamp = (f, r) => OWN_CAMPS.some(([cf, cr]) => cf === f && cr === r);
  for (const a of ARMIES) {
    for (let r = 1; r <= 6; r++) for (let f = 0; f < 5; f++) {
      const p = ownPost(a, f, r);
      // Along the own rank: railway on own ranks 2 and 6.
      if (f < 4) out.push([p, ownPost(a, f + 1, r), r === 2 || r === 6 ? 'rail' : 'road']);
      // Towards the front: railway on own files a and e between ranks 2 and 6.
      if (r < 6) out.push([p, ownPost(a, f, r + 1), (f === 0 || f === 4) && r >= 2 ? 'rail' : 'road']);
      // A camp's four diagonals (Q2).
      if (isCamp(f, r)) for (const [df, dr] of [[-1, -1], [1, -1], [-1, 1], [1, 1]]) out.push([p, ownPost(a, f + df, r + dr), 'road']);
    }
  }
  // The centre's files g i k and ranks 7 9 11 between centre posts.
  for (const f of ['g', 'i', 'k']) out.push([f + 7, f + 9, 'rail'], [f + 9, f + 11, 'rail']);
  for (const r of [7, 9, 11]) out.push(['g' + r, 'i' + r, 'rail'], ['i' + r, 'k' + r, 'rail']);
  // Each army's front joined to the centre.
  for (const f of ['g', 'i', 'k']) out.push([f + 6, f + 7, 'rail'], [f + 12, f + 11, 'rail']);
  for (const r of [7, 9, 11]) out.push(['f' + r, 'g' + r, 'rail'], ['l' + r, 'k' + r, 'rail']);
  // The four arcs between neighbouring armies' front corners (S5).
  out.push(['g6', 'f7', 'arc'], ['k6', 'l7', 'arc'], ['k12', 'l11', 'arc'], ['g12', 'f11', 'arc']);
  // Two neighbouring camps (b3 and c4) each list their shared diagonal: once.
  const seen = new Set();
  return out.filter(([a, b]) => { const k = [a, b].sort().join('-'); if (seen.has(k)) return false; seen.add(k); return true; });
}
export const LINKS = buildLinks();

/**
 * The pieces of a position text (S15) and its other fields. A token is
 * army + piece letter + post (`sFh1`, `eXl9`); the set-up phase's text has
 * move number 0 and `-` for no pieces.
 * @param {string} fen
 */
export function parse(fen) {
  const [list = '', toMove = 's', out = '-', quiet = '0', moveNo = '1'] = String(fen || '').trim().split(/\s+/);
  /** @type {Map<string, { army: string, piece: string }>} */
  const pieces = new Map();
  if (list !== '-') {
    for (const tok of list.split(',')) {
      const m = /^([senw])([A-Z])([a-q]\d{1,2})$/.exec(tok);
      if (m && POST_SET.has(m[3])) pieces.set(m[3], { army: m[1], piece: m[2] });
    }
  }
  return { pieces, toMove, out: new Set(out === '-' ? [] : out.split('')), quiet: Number(quiet) || 0, moveNo: Number(moveNo) || 0 };
}

// ------------------------------------------------------------ the screen

/** The grid step and the margin round it, in viewBox units. */
export const STEP = 40;
export const MARGIN = 30;
/** The viewBox's side (square). */
export const SIZE = 16 * STEP + 2 * MARGIN;

/**
 * Quarter turns (clockwise on the screen) that put `army` at the bottom:
 * South 0, East 1, North 2, West 3 (with South at the bottom East is on the right).
 * @param {string | undefined} army
 */
export const turnFor = (army) => Math.max(0, ARMIES.indexOf(army || 's'));

/**
 * Grid place (column, row; 0-16 from the top left) of a post with the board
 * turned `turn` quarter turns clockwise (0: South at the bottom).
 * @param {string} post @param {number} turn
 * @returns {[number, number]}
 */
export function gridOf(post, turn) {
  const [f, r] = coords(post);
  let dx = f - 8, dy = 9 - r; // 17 - r - 8
  for (let k = 0; k < ((turn % 4) + 4) % 4; k++) [dx, dy] = [-dy, dx];
  return [8 + dx, 8 + dy];
}

/** Screen point (viewBox units) of a post, turned `turn`. @param {string} post @param {number} turn @returns {[number, number]} */
export function point(post, turn) {
  const [c, r] = gridOf(post, turn);
  return [MARGIN + c * STEP, MARGIN + r * STEP];
}

/**
 * The coordinate names along the screen's columns and rows as turned: for
 * each column its label (a file letter, or a rank number once turned a
 * quarter) and the row just below its lowest post; for each row its label
 * and the column just left of its leftmost post.
 * @param {number} turn
 */
export function axisLabels(turn) {
  /** @type {{ col: number, below: number, text: string }[]} */
  const cols = [];
  /** @type {{ row: number, left: number, text: string }[]} */
  const rows = [];
  const label = (post, alongX) => {
    const [f, r] = coords(post);
    const ofFile = (turn % 2 === 0) === alongX;
    return ofFile ? FILES[f] : String(r);
  };
  for (let i = 0; i <= 16; i++) {
    const inCol = POSTS.filter((p) => gridOf(p, turn)[0] === i);
    const inRow = POSTS.filter((p) => gridOf(p, turn)[1] === i);
    if (inCol.length) cols.push({ col: i, below: Math.max(...inCol.map((p) => gridOf(p, turn)[1])), text: label(inCol[0], true) });
    if (inRow.length) rows.push({ row: i, left: Math.min(...inRow.map((p) => gridOf(p, turn)[0])), text: label(inRow[0], false) });
  }
  return { cols, rows };
}

/**
 * The corner beside each army's block where its name and clock go, turned
 * with the board: the bottom army's to its right, then on round the board.
 * Returns the corner's grid centre.
 * @param {string} army @param {number} turn
 * @returns {[number, number]}
 */
export function cornerOf(army, turn) {
  // With South at the bottom: South bottom-right, East top-right, North top-left, West bottom-left.
  const base = { s: [13.5, 13.5], e: [13.5, 2.5], n: [2.5, 2.5], w: [2.5, 13.5] }[army] || [8, 8];
  let dx = base[0] - 8, dy = base[1] - 8;
  for (let k = 0; k < ((turn % 4) + 4) % 4; k++) [dx, dy] = [-dy, dx];
  return [8 + dx, 8 + dy];
}

/** The posts of a move text (`g2g16`), or null. @param {string | undefined} m */
export function splitMove(m) {
  const r = /^([a-q]\d{1,2})([a-q]\d{1,2})$/.exec(m || '');
  return r && POST_SET.has(r[1]) && POST_SET.has(r[2]) ? [r[1], r[2]] : null;
}
