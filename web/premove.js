// @ts-check
// Premoves (games whose module says which pieces are the viewer's, its
// `ownPiece` hook): while it is the opponent's move a player may queue one
// move (click a piece of theirs, then a point); it is sent as soon as their
// turn comes if it is legal then, and dropped otherwise. Escape or a
// right-click on the board cancels it. Client side only: the server sees an
// ordinary move.

/**
 * Whether the viewer of `state` may queue a premove now.
 * @param {import('./kinds.js').GameState} state
 * @param {boolean} myTurn
 * @param {Partial<import('./kinds.js').GameModule> | null} mod
 */
export function premoveable(state, myTurn, mod) {
  return !!mod && !!mod.ownPiece && state.status === 'playing' && state.seat != null && !myTurn;
}

/** The legal move a premove `pm` (from+to) stands for now, or null. */
export function pickPremove(state, pm) {
  const cands = (state.legal || []).filter((m) => m.slice(0, 4) === pm);
  return cands.find((m) => m === pm) || cands[0] || null;
}

/** Marks the premove's two points on the drawn board. */
export function markPremove(svg, pm) {
  for (const sq of [pm.slice(0, 2), pm.slice(2, 4)]) {
    const c = svg.querySelector(`[data-sq="${sq}"]`);
    if (!c) continue;
    const x = Number(c.getAttribute('cx')), y = Number(c.getAttribute('cy'));
    const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    for (const [k, v] of Object.entries({ x: x - 23, y: y - 23, width: 46, height: 46, rx: 6, fill: '#d9412f', opacity: 0.3, 'data-premove': sq, 'pointer-events': 'none' })) r.setAttribute(k, v);
    svg.appendChild(r);
  }
}
