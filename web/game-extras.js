// @ts-check
// What the game page adds beside the board: the tab title that says whose
// move it is, the arrow keys that step through a game, and typed moves
// (square pairs `h2e2`, or a game's own notation through its module's
// `typed` hook), checked against the legal moves the server sent.
import { t } from './i18n.js';

export const BASE_TITLE = '棋苑 Qiyuan';

/** The tab's title for a game: whose move it is, or how it ended. */
export function tabTitle(state, { myTurn, out, result }) {
  const name = t(state.game);
  let head;
  if (state.status === 'waiting') head = t('waiting');
  else if (state.status === 'finished') head = result;
  else if (state.seat == null || out) head = `${t('spectator')} · ${name}`;
  else head = myTurn ? `● ${t('your_turn')}` : t('their_turn');
  return `${head} — 棋苑`;
}

/** Whether a key press is meant for a field (a typed move, a select), not the board. */
export function inField(e) {
  const el = e.target;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.isContentEditable);
}

/** The replay step a key asks for: '-1', '1', '0' (first), 'end' (last), or null. */
export function replayKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  return { ArrowLeft: '-1', ArrowRight: '1', Home: '0', End: 'end' }[e.key] || null;
}

/**
 * A typed move matched against `legal`: {moves: [...]} (one, or several
 * the chooser picks between), or {error}. The game's module reads its own
 * notation first (its `typed` hook); then square pairs, with or without a
 * dash (`h2e2`, `H2-E2`, `a12a11`).
 * @param {string} text
 * @param {string[] | undefined} legal
 * @param {Partial<import('./kinds.js').GameModule>} [mod]
 * @returns {{ moves?: string[], error?: string }}
 */
export function matchTyped(text, legal, mod = {}) {
  const raw = String(text || '').trim().toLowerCase().replace(/\s+/g, '');
  if (!raw) return { error: t('typed_empty') };
  legal = legal || [];
  const illegal = { error: t('typed_illegal').replace('{m}', String(text).trim()) };
  const own = mod.typed ? mod.typed(raw, legal) : null;
  if (own) return own.illegal ? illegal : { moves: own.moves };
  if (legal.includes(raw)) return { moves: [raw] };
  const m = /^([a-i]\d{1,2})-?([a-i]\d{1,2})$/.exec(raw);
  if (!m) return { error: t('typed_format') };
  const cands = legal.filter((x) => x === m[1] + m[2]);
  return cands.length ? { moves: cands } : illegal;
}

/**
 * An example move in a game's own notation, for the box's placeholder.
 * @param {Partial<import('./kinds.js').GameModule>} [mod]
 */
export function typedExample(mod = {}) {
  return mod.typedExample || t('typed_placeholder');
}

/** The typed-move box's markup. */
export function typedHtml() {
  return `<form id="typed" class="typed" data-testid="typed-form" autocomplete="off"><label class="typed-label">${t('typed_move')} <input id="typed-input" data-testid="typed-move" size="9" placeholder="${t('typed_placeholder')}" spellcheck="false" autocapitalize="off"></label> <button data-testid="typed-go">${t('typed_go')}</button></form>`;
}
