// @ts-check
// The page's one lobby socket, open on every view (not only the lobby's):
// the lobby's rooms, the pools' counts, and the visitor's own events (a
// game of theirs started or ended, challenges to and from them). While it
// is open the visitor stays in the pool they wait in; it reconnects after
// a drop (backing off), and anew after signing in or out (the socket is
// the session's).
import { wsUrl } from './util.js';

/** @typedef {{ open: any[], playing: any[] }} Lobby */
/** @typedef {Record<string, any>} UserEvent a frame with a `type` (gameStart, challenge …) */

/** @type {WebSocket | null} */
let ws = null;
let retryMs = 1000;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let retryTimer;
/** @type {Lobby | null} the lobby as last heard (null until the first frame) */
let lobby = null;
/** @type {any[] | null} */
let pools = null;

/** @type {Set<(l: Lobby) => void>} */
const lobbyFns = new Set();
/** @type {Set<(p: any[]) => void>} */
const poolFns = new Set();
/** @type {Set<(e: UserEvent) => void>} */
const eventFns = new Set();
/** @type {Set<() => void>} */
const openFns = new Set();

/** Opens the socket (again, after signing in or out: it is the session's). */
export function connectLive() {
  clearTimeout(retryTimer);
  if (ws) { ws.onclose = null; ws.close(); }
  const s = new WebSocket(wsUrl('/api/lobby/ws'));
  ws = s;
  s.onopen = () => { retryMs = 1000; openFns.forEach((f) => f()); };
  s.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    if (m.t === 'lobby' && m.open) { lobby = { open: m.open, playing: m.playing }; lobbyFns.forEach((f) => f(/** @type {Lobby} */ (lobby))); }
    else if (m.t === 'lobby_change') { lobby = lobbyChanged(lobby || { open: [], playing: [] }, m); lobbyFns.forEach((f) => f(/** @type {Lobby} */ (lobby))); }
    else if (m.t === 'pools' && Array.isArray(m.pools)) setPools(m.pools);
    else if (typeof m.type === 'string') eventFns.forEach((f) => f(m));
  };
  s.onclose = () => {
    if (ws !== s) return;
    retryTimer = setTimeout(connectLive, retryMs);
    retryMs = Math.min(retryMs * 2, 15000);
  };
}

/** The lobby `l` after change `m` (`{game}` listed or changed, `{removed}` gone). */
function lobbyChanged(l, m) {
  const id = m.removed || (m.game && m.game.id);
  const open = l.open.filter((g) => g.id !== id);
  const playing = l.playing.filter((g) => g.id !== id);
  const g = m.game;
  if (g && g.status === 'waiting' && !g.challenge) open.unshift(g);
  else if (g && g.status === 'playing') playing.unshift(g);
  return { open, playing };
}

/**
 * Calls `fn` with the lobby now (if heard) and at every change; returns
 * the function that stops it.
 * @param {(l: Lobby) => void} fn
 */
export function onLobby(fn) {
  lobbyFns.add(fn);
  if (lobby) fn(lobby);
  return () => { lobbyFns.delete(fn); };
}

/** The pools' counts as last heard (GET /api/pools, then `pools` frames). @param {any[]} list */
export function setPools(list) { pools = list; poolFns.forEach((f) => f(list)); }

/** Calls `fn` with the pools now (if known) and when their counts change; returns the stop. @param {(p: any[]) => void} fn */
export function onPools(fn) {
  poolFns.add(fn);
  if (pools) fn(pools);
  return () => { poolFns.delete(fn); };
}

/** Calls `fn` with each of the visitor's own events. @param {(e: UserEvent) => void} fn */
export function onUserEvent(fn) { eventFns.add(fn); }

/** Calls `fn` whenever the socket (re)opens: what came meanwhile was missed. @param {() => void} fn */
export function onLiveOpen(fn) { openFns.add(fn); }
