// @ts-check
// The games on offer, as the server lists them (GET /api/kinds): one list
// for the lobby, events and leaderboards, and each kind's page module
// (`web/games/<web_module>.js`, named by the server). Loaded once at start.
//
// A game's page module is the only place the page knows that game: the
// shared modules ask it through the hooks below, each optional, with the
// default written beside it. A new game adds its module (and its kind's
// `web_module` on the server), and no shared file changes.

/**
 * @typedef {Record<string, any>} GameState A `state` frame of the game's socket.
 * @typedef {(key: string) => string} Translate
 * @typedef {{ move?: string, select?: string | null, choose?: string[] }} ClickResult
 * @typedef {{ moves?: string[], illegal?: boolean }} TypedResult
 * @typedef {{ offer?: boolean, claim?: boolean, pgn?: boolean, resign?: boolean, resignWhy?: string, leave?: string }} Extras
 *   `resignWhy`: why resigning is closed now (default: the message 'resign_later');
 *   `leave`: while it is closed, a Leave button is offered with this text saying what leaving costs.
 *
 * @typedef {object} Study The analysis board of a game (analysis-board.js): positions as its set-up text (FEN), moves as its move requests.
 * @property {string[]} variants The variants it studies.
 * @property {string} start The start position.
 * @property {(fen: string) => string[]} legal The legal moves of a position.
 * @property {(fen: string, move: string) => string} play The position after a move.
 * @property {(fen: string) => string | null} problem Why a position cannot be studied (a message key), or null.
 * @property {(fen: string) => string} normal The position written in full.
 * @property {(fen: string) => string | null} check The square of a general in check, if any.
 * @property {(fen: string) => { number: number, first: boolean }} turn The move number of a position, and whether the side to move is the one that moves first in a round.
 * @property {(fen: string, move: string, notation: string) => string} name A move in a notation.
 * @property {(nodes: {mv: string, comment: string, children: number[], parent: number | null}[], start: string, notation: string, tags?: [string, string][]) => string} pgn The tree as PGN.
 * @property {(svg: SVGSVGElement, opts: Record<string, any>) => void} draw Draws a position: {fen, flipped, selected, targets, last, onClick, notation, check, arrows (moves to mark, best first)}.
 * @property {StudyEditor} [editor] The position editor (position-editor.js).
 * @property {(variant: string) => Study} [forVariant] The hook of one of its variants, where they differ (another rule set's positions and moves).
 * @property {(fen: string, t: (key: string, params?: Record<string, any>) => string) => string} [info] What else the position holds, in words (scores).
 * @property {(el: HTMLElement, args: string[]) => () => void} [view] The whole board view, where the game's board is unlike the square ones (it gets the address's parts after `analysis`; returns its cleanup).
 * @property {(state: Record<string, any>, ply: number) => string} [link] The board's address for a game at a ply, where the game writes it its own way.
 *
 * @typedef {object} StudyEditor The position editor of a game's analysis board: pieces by their FEN letters.
 * @property {string[]} palette The letters of the pieces one may put on the board.
 * @property {(letter: string) => { text: string, first: boolean }} label A piece's face, and whether it is of the side that moves first.
 * @property {string} empty The board with the least on it (where "clear" goes).
 * @property {(fen: string, square: string) => string} at The letter on a square ('' if none).
 * @property {(fen: string, square: string, letter: string, cls?: string) => string} put A piece put on a square ('' clears it), of a class where the game has them.
 * @property {(fen: string, from: string, to: string) => string} move A piece moved.
 * @property {(fen: string, first: boolean) => string} side The side to move set.
 * @property {(fen: string) => { key: string, params?: Record<string, string | number> } | null} why Why the position is not legal (params starting with `@` are message keys), or null.
 * @property {(svg: SVGSVGElement, opts: Record<string, any>) => void} draw Draws the position being edited: {fen, flipped, selected, onClick, notation}.
 * @property {string[]} [classes] The classes a piece may have (message keys), where the game has them.
 * @property {(fen: string, square: string) => string} [classAt] The class of the piece on a square.
 * @property {(fen: string, square: string, cls: string) => string} [setClass] A piece's class set.
 * @property {(fen: string) => number[]} [scores] The scores, where the game keeps them.
 * @property {(fen: string, first: number, second: number) => string} [setScores] The scores set.
 * @property {(fen: string) => boolean} [captured] Whether a capture has happened in the game (where the rules hang on it).
 * @property {(fen: string, x: boolean) => string} [setCaptured] The capture flag set.
 * @property {(fen: string) => boolean} [second] Whether the side to move is on the second move of a double turn.
 * @property {(fen: string, x: boolean) => string} [setSecond] The turn state set.
 * @property {(fen: string) => { half: number, full: number }} [counters] The move number and the plies since the last capture (or change of score).
 * @property {(fen: string, half: number, full: number) => string} [setCounters] The counters set.
 *
 * @typedef {object} GameModule
 * @property {(svg: SVGSVGElement, opts: Record<string, any>) => void} draw Draws the position (required).
 * @property {(state: GameState, t: Translate, ctx: Record<string, any>) => string} info The side panel's line (required).
 * @property {(legal: string[], selected: string | null, sq: string) => ClickResult} [click]
 *   What a click on `sq` means. Default: `pairClick` (a piece, then its target; several moves between them open the chooser).
 * @property {(legal: string[], selected: string | null) => Set<string>} [targets] Where the selected piece may go. Default: square pairs.
 * @property {(rec: Record<string, any> | undefined) => string[]} [last] The squares of the last move. Default: the record's square pair.
 * @property {(state: GameState, seat: number) => string | null} [sideOf] A seat's colour. Default: seat 0 red, seat 1 black.
 * @property {(state: GameState) => Extras} [extras] What the game allows besides moves. Default: everything.
 * @property {string} [flipLabel] The board-turning button's message key. Default: 'flip'.
 * @property {boolean} [notations] false: the move list has no notations to choose from.
 * @property {(state: GameState, ctx: Record<string, any>) => string} [seats] A game of any number of seats lists them itself.
 * @property {(state: GameState, replayPly: number | null, esc: (s: any) => string, notation: string) => string} [moveRows] The move list's rows.
 * @property {(rec: Record<string, any>, t: Translate) => string} [moveText] One move in the default move list.
 * @property {(state: GameState, replayPly: number | null) => string} [fenAt] The position shown at `replayPly` (the page shows it with a copy button).
 * @property {(fen: string, moves: string[], notation: string) => string[]} [line] A line of moves from `fen` (the engine's) in the move list's `notation`. Default: as the engine writes them.
 * @property {(state: GameState, t: Translate) => string} [claimWhy] Why a draw may be claimed, in plain words, while the server says `claimable`. Default: the message 'claim_valid'.
 * @property {(state: GameState, t: Translate) => { move: string, testid: string, label: string, disabled?: boolean, why?: string }[]} [actions] Own moves as buttons.
 * @property {(state: GameState, t: Translate, ctx: Record<string, any>) => string} [result] Who won, in words.
 * @property {(state: GameState) => 'won' | 'lost' | 'draw' | null} [viewerResult]
 *   How a finished game went for the seated viewer. Default: the server's placings.
 * @property {(state: GameState, t: Translate, ctx: Record<string, any>) => string | null} [explain]
 *   What ended the game, in words (null: the server's explanation in the page's language).
 * @property {(raw: string, legal: string[]) => TypedResult | null} [typed]
 *   A typed move in the game's own notation (null: not one; the shared square-pair reading follows).
 * @property {string} [typedExample] An example move for the typed-move box. Default: the message 'typed_placeholder'.
 * @property {{ title: string, label: (move: string, t: Translate) => string, testid: (move: string) => string }} [chooser]
 *   How the chooser between moves of the same squares names them. Default: the moves as sent.
 * @property {boolean} [themes] Whether the board and piece themes apply.
 * @property {(state: GameState, sq: string) => boolean} [ownPiece] Whether `sq` holds a piece of the viewer's; a game that has it takes premoves.
 * @property {{ start: string }} [analysis] The engine can analyse the game (`start`: the position when the game names none).
 * @property {boolean} [colourChoice] Whether the creator of a game picks a colour (the seats are the colours).
 * @property {string} [quickPlay] The variant the lobby's one-click starts open.
 * @property {Study} [study] The analysis board (`#/analysis`) for the variants it names.
 */

/** @type {any[]} */
let kinds = [];
/** @type {Record<string, Promise<GameModule>>} */
const modules = {};
/** @type {Record<string, GameModule>} */
const loaded = {};

export async function loadKinds() {
  try {
    const r = await fetch('/api/kinds');
    if (r.ok) kinds = (await r.json()).kinds;
  } catch { /* the lists stay empty; the page still works for links */ }
  // Every kind's module at once: the lobby's form asks them synchronously.
  await Promise.all(kinds.map((k) => moduleNamed(k.web_module).catch(() => null)));
}

/** Every variant name, in the server's order. */
export function variantNames() { return kinds.flatMap((k) => k.variants.map((v) => v.name)); }

/** The seat counts a variant can be played with (none for an unknown one). @param {string} variant @returns {number[]} */
export function seatsOf(variant) {
  for (const k of kinds) { const v = k.variants.find((x) => x.name === variant); if (v) return v.seats; }
  return [];
}

/** Every points ledger (a kind's `settlement`), with the kind that settles into it. @returns {{ family: string, kind: string }[]} */
export function pointsFamilies() {
  return kinds.filter((k) => k.settlement).map((k) => ({ family: String(k.settlement), kind: k.id }));
}

/** Every rating family (kind id). */
export function families() { return kinds.map((k) => k.id); }

/** Every rating family: each kind's, followed by `{kind}-multi` where the
 * kind has variants of more than two seats (rated on their own scale). */
export function ratingFamilies() {
  return kinds.flatMap((k) => (k.variants.some((v) => v.seats.some((n) => n > 2)) ? [k.id, `${k.id}-multi`] : [k.id]));
}

/** The kind of a variant. */
export function kindOf(variant) { return kinds.find((k) => k.variants.some((v) => v.name === variant)); }

/** @param {string} name @returns {Promise<GameModule>} */
function moduleNamed(name) {
  if (!modules[name]) modules[name] = import(`./games/${name}.js`).then((m) => (loaded[name] = m));
  return modules[name];
}

/**
 * The page module of a variant's kind. A variant the list lacks (the list
 * failed to load, or a kind since removed) asks for the list again, then
 * takes the first kind's module.
 * @param {string} variant
 * @returns {Promise<GameModule>}
 */
export async function gameModule(variant) {
  if (!kinds.length) await loadKinds();
  const k = kindOf(variant) || kinds[0];
  if (!k) throw new Error(`no page module for ${variant}`);
  return moduleNamed(k.web_module);
}

/**
 * The page module of a variant's kind if loaded (loadKinds loads them all),
 * else an empty one: every hook at its default.
 * @param {string} variant
 * @returns {Partial<GameModule>}
 */
export function hooksOf(variant) {
  const k = kindOf(variant);
  return (k && loaded[k.web_module]) || {};
}

/** The variant the lobby's one-click starts open: the first a module names, else the server's first. */
export function quickPlayVariant() {
  for (const k of kinds) { const q = loaded[k.web_module] && loaded[k.web_module].quickPlay; if (q) return q; }
  return variantNames()[0];
}

/** Every kind, the one whose module offers quick play first (the page's own game), then the server's order. */
export function kindsQuickFirst() {
  const first = kindOf(quickPlayVariant());
  return first ? [first, ...kinds.filter((k) => k !== first)] : [...kinds];
}

/** The variants the analysis board studies (their modules' `study` hook), in the server's order. */
export function studyVariants() {
  return variantNames().filter((v) => { const s = hooksOf(v).study; return !!s && s.variants.includes(v); });
}

/** The analysis board's hook for a variant (its module's, or the variant's own where they differ). @param {string} v */
export function studyOf(v) {
  const s = hooksOf(v).study;
  return s && s.forVariant ? s.forVariant(v) : s;
}

/** The kind id of a variant (what `POST /api/import?game=` names). @param {string} variant */
export function kindIdOf(variant) { const k = kindOf(variant); return k ? String(k.id) : variant; }
