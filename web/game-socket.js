// @ts-check
// The game page's socket: connects, answers the server's pings, sends
// frames, and reconnects after a drop (backing off), asking only for what
// was missed. Every other frame goes to `onFrame`.
import { wsUrl } from './util.js';

export class GameSocket {
  /** @type {WebSocket | null} */
  ws = null;
  closed = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  retryTimer = undefined;
  retryMs = 1000;

  /**
   * @param {string} id the game
   * @param {(frame: Record<string, any>) => void} onFrame every frame but pings
   * @param {() => number | null} since the version the page has (null: none)
   */
  constructor(id, onFrame, since) {
    this.id = id;
    this.onFrame = onFrame;
    this.since = since;
  }

  /**
   * (Re)connects. `fresh`: ask for the whole game, not what came since ours.
   * @param {boolean} fresh
   */
  connect(fresh) {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); }
    const v = fresh ? null : this.since();
    const ws = new WebSocket(wsUrl(`/api/games/${this.id}/ws${v != null ? `?since=${v}` : ''}`));
    this.ws = ws;
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      this.retryMs = 1000;
      if (m.t === 'ping') { ws.send(JSON.stringify({ t: 'pong', id: m.id })); return; }
      this.onFrame(m);
    };
    // Reconnect after a dropped connection (backing off); the server sends what was missed.
    ws.onclose = () => {
      if (this.closed) return;
      this.retryTimer = setTimeout(() => this.connect(false), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 15000);
    };
  }

  /** Sends a frame if connected (a frame while reconnecting is dropped, as a click then would be). @param {Record<string, any>} frame */
  send(frame) { if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(frame)); }

  /** Closes for good: no reconnecting. */
  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    if (this.ws) { this.ws.onclose = null; this.ws.close(); this.ws = null; }
  }
}
