// @ts-check
// The game page's store: the game as the server last sent it, and what the
// page derives from the frames (when the state came, the move awaiting an
// answer, whether our draw offer was declined). The reducer folds the
// socket's state and diff frames into it; it draws nothing.

/** @typedef {import('./kinds.js').GameState} GameState */

/**
 * A diff frame carries everything but the move records before its `from`:
 * fold it into the game we have. null: we lack those records.
 * @param {GameState | null} prev
 * @param {GameState} m a `state` or `diff` frame
 * @returns {GameState | null}
 */
export function fold(prev, m) {
  if (m.t === 'state') return m;
  if (!prev || prev.id !== m.id || (prev.records || []).length < m.from) return null;
  const records = prev.records.slice(0, m.from).concat(m.records);
  if (records.length !== m.plies) return null;
  return { ...m, t: 'state', from: 0, records, moves: records.map((r) => r.iccs) };
}

/**
 * Whether the viewer of `state` is to move.
 * @param {GameState | null} state
 */
export function isMyTurn(state) {
  return !!state && state.status === 'playing' && state.seat != null && (state.seats_to_move || [state.to_move]).includes(state.seat);
}

export class GameStore {
  /** @type {GameState | null} the game, folded from the frames */
  state = null;
  /** When (performance.now()) the state came: the running clock counts from it. */
  receivedAt = 0;
  /** @type {string | null} the move sent and not yet answered */
  pending = null;
  /** @type {number | null} the seat whose draw offer stood in the last state */
  lastOffer = null;
  /** When our draw offer was seen declined (0: not lately). */
  declinedAt = 0;
  /** Whether we offered a draw since the last change of the game. */
  offerSent = false;
  /**
   * @type {{ ms: number, at: number } | null} while the opponent is away
   * during their turn: the ms until the game may be claimed, counted from
   * `at` (performance.now()); polled (the frames do not say)
   */
  claim = null;

  /**
   * Folds a `state` or `diff` frame in.
   * @param {GameState} m
   * @param {number} now performance.now()
   * @returns {{ stale: true } | { resync: true } | { prev: GameState | null, state: GameState, changed: boolean }}
   *   stale: an old diff, ignored; resync: records are missing (ask for the whole game);
   *   else the states before and now, and whether the version changed.
   */
  receive(m, now) {
    const prev = this.state;
    if (prev && m.version <= prev.version && m.id === prev.id && m.t === 'diff') return { stale: true };
    const next = fold(prev, m);
    if (!next) return { resync: true };
    // An offer of ours that went away while the game goes on was declined
    // (an AI may answer at once: the offer is then never seen standing).
    const changed = !prev || next.version !== prev.version;
    if (next.draw_offer == null && next.status === 'playing' && changed && ((this.lastOffer != null && this.lastOffer === next.seat) || this.offerSent)) this.declinedAt = now;
    if (next.draw_offer != null) this.declinedAt = 0;
    if (changed) this.offerSent = false;
    this.lastOffer = next.draw_offer;
    this.state = next;
    this.receivedAt = now;
    this.pending = null;
    return { prev, state: next, changed };
  }

  /** Whether the viewer is to move. */
  myTurn() { return isMyTurn(this.state); }
}
