// What the game page adds beside the board: the tab title that says whose
// move it is, the arrow keys that step through a game, and typed moves
// (ICCS `h2e2`, or a game's own notation: Tiaoqi `4.2-5.6`, Junqi `c4c6`,
// Banqi `a1a2` / `a1a1`), checked against the legal moves the server sent.
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
 * that differ only by a Jifen class suffix: the chooser picks), or {error}.
 */
export function matchTyped(text, legal) {
  const raw = String(text || '').trim().toLowerCase().replace(/\s+/g, '');
  if (!raw) return { error: t('typed_empty') };
  legal = legal || [];
  // A square pair with Jifen class versions (`h2e2`, `h2e2*` …): the chooser picks.
  const versions = legal.filter((x) => x.startsWith(raw) && /^[=*+-]$/.test(x.slice(raw.length)));
  if (legal.includes(raw)) return { moves: versions.length ? [raw, ...versions] : [raw] };
  // A path of cells (Tiaoqi `4.2-5.6`, or a jump chain given by its ends).
  if (/^\d+\.\d+(-\d+\.\d+)+$/.test(raw)) {
    const parts = raw.split('-');
    const ends = legal.filter((m) => { const p = m.split('-'); return p.length > 1 && p[0] === parts[0] && p[p.length - 1] === parts[parts.length - 1]; });
    if (ends.length) return { moves: [ends[0]] };
    return { error: t('typed_illegal').replace('{m}', text.trim()) };
  }
  // Square pairs, with or without a dash: `h2e2`, `H2-E2`, `a12a11`; a Jifen class may follow (`h2e2*`).
  const m = /^([a-i]\d{1,2})-?([a-i]\d{1,2})([=*+-]?)$/.exec(raw);
  // Banqi: a lone square flips the piece there (`a1` = `a1a1`).
  const lone = /^([a-h]\d)$/.exec(raw);
  if (lone && legal.includes(lone[1] + lone[1])) return { moves: [lone[1] + lone[1]] };
  if (!m) return { error: t('typed_format') };
  const pair = m[1] + m[2];
  if (m[3] && legal.includes(pair + m[3])) return { moves: [pair + m[3]] };
  const cands = legal.filter((x) => x === pair || (x.startsWith(pair) && /^[=*+-]$/.test(x.slice(pair.length))));
  if (cands.length) return { moves: cands };
  return { error: t('typed_illegal').replace('{m}', text.trim()) };
}

/** An example move in a game's own notation, for the box's placeholder. */
export function typedExample(game) {
  const g = String(game || '');
  if (g.startsWith('tiaoqi')) return '4.2-5.6';
  if (g.startsWith('junqi')) return 'c4c6';
  if (g.startsWith('banqi')) return 'a1a2, a1';
  return 'h2e2';
}

/** The typed-move box's markup. */
export function typedHtml() {
  return `<form id="typed" class="typed" data-testid="typed-form" autocomplete="off"><label class="typed-label">${t('typed_move')} <input id="typed-input" data-testid="typed-move" size="9" placeholder="${t('typed_placeholder')}" spellcheck="false" autocapitalize="off"></label> <button data-testid="typed-go">${t('typed_go')}</button></form>`;
}
