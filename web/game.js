// @ts-check
// The game page: board, clocks, side panel (status, offers, result panel),
// move list and replay. The page wires three parts together: the store
// (game-store.js: the game folded from the server's frames), the socket
// (game-socket.js) and the drawing (game-render.js); what is particular to
// a game is its module (web/games/, its hooks in kinds.js).
import { t, getLang } from './i18n.js';
import { forget } from './titles.js';
import { gameModule } from './kinds.js';
import { api, esc, errorText } from './util.js';
import { ratingChanges } from './result.js';
import { bindAnalysis } from './analysis.js';
import { refreshMyGames } from './my-games.js';
import { setBoardTheme, setPieceTheme } from './board-theme.js';
import { BASE_TITLE, inField, replayKey, matchTyped } from './game-extras.js';
import { play, soundFor, soundOn, setSound } from './sound.js';
import { chatPanel } from './chat.js';
import { premoveable, pickPremove } from './premove.js';
import { takebackFrame, copyInvite } from './game-social.js';
import { pairClick } from './pair-moves.js';
import { GameStore } from './game-store.js';
import { GameSocket } from './game-socket.js';
import { pageHtml, chooserHtml, gameRenderer, speaker, extras } from './game-render.js';

/**
 * Shows game `id` in `view`; returns the function that leaves it.
 * @param {HTMLElement} view
 * @param {string} id
 * @param {any} [me] the signed-in user (or guest)
 */
export function gameView(view, id, me = null) {
  const store = new GameStore();
  /** @type {import('./game-render.js').Ui} */
  const ui = { selected: null, flipped: false, notation: localStorage.getItem('qy-notation') || (getLang() === 'zh' ? 'chinese' : 'iccs'), replayPly: null, premove: null, preFrom: null, chooserOpen: null, ratings: null };
  /** @type {import('./kinds.js').GameModule | null} the game's module, once loaded */
  let mod = null;
  let closed = false, ratingsAsked = false;
  view.innerHTML = pageHtml(id);
  const $ = (/** @type {string} */ x) => /** @type {any} */ (document.getElementById(x));
  const chat = chatPanel($('chat'), id);
  const socket = new GameSocket(id, onFrame, () => (store.state ? store.state.version : null));
  const send = (/** @type {Record<string, any>} */ frame) => socket.send(frame);
  const myTurn = () => store.myTurn();
  const renderer = gameRenderer(view, { id, me, store, ui, onClick, rerender: render });

  function render() {
    if (!store.state) return;
    if (!mod) {
      gameModule(store.state.game).then((m) => { if (!closed) { mod = m; render(); } }, (e) => { $('err').textContent = e.message; });
      return;
    }
    renderer.render(mod);
  }

  $('notation').value = ui.notation;
  $('notation').addEventListener('change', (/** @type {any} */ e) => { ui.notation = e.target.value; localStorage.setItem('qy-notation', ui.notation); render(); });
  $('flip').addEventListener('click', () => { ui.flipped = !ui.flipped; render(); });
  $('board-theme').addEventListener('change', (/** @type {any} */ e) => { setBoardTheme(e.target.value); render(); });
  $('piece-theme').addEventListener('change', (/** @type {any} */ e) => { setPieceTheme(e.target.value); render(); });
  const soundLabel = () => { const on = soundOn(); $('sound').innerHTML = `${speaker(on)} ${on ? t('sound_on') : t('sound_off')}`; $('sound').setAttribute('aria-pressed', String(on)); $('sound').title = t('sound_about'); };
  soundLabel();
  $('sound').addEventListener('click', () => { setSound(!soundOn()); soundLabel(); if (soundOn()) play('move'); });
  // A typed move: checked against the legal moves; several between the same squares open the chooser.
  $('typed').addEventListener('submit', (/** @type {Event} */ e) => {
    e.preventDefault();
    const box = $('typed-input');
    const state = store.state;
    if (!state || state.status !== 'playing' || state.seat == null) { $('err').textContent = t('typed_not_playing'); return; }
    if (!myTurn()) { $('err').textContent = t('typed_not_your_turn'); return; }
    const r = matchTyped(box.value, state.legal, mod || {});
    if (!r.moves) { $('err').textContent = r.error; box.select(); return; }
    $('err').textContent = '';
    box.value = '';
    ui.replayPly = null;
    if (r.moves.length === 1) sendMove(r.moves[0]); else choose(r.moves);
  });

  /** @param {string} m */
  function sendMove(m) { store.pending = m; ui.selected = null; send({ t: 'move', move: m }); render(); }

  // A click on the opponent's move queues a premove (see premove.js).
  /** @param {string} sq */
  function premoveClick(sq) {
    const own = (/** @type {string} */ s) => !!(mod && mod.ownPiece && store.state && mod.ownPiece(store.state, s));
    if (!ui.preFrom) ui.preFrom = own(sq) ? sq : null;
    else if (sq === ui.preFrom) ui.preFrom = null;
    else if (own(sq)) ui.preFrom = sq;
    else { ui.premove = ui.preFrom + sq; ui.preFrom = null; }
    render();
  }
  const cancelPremove = () => { if (!ui.premove && !ui.preFrom) return false; ui.premove = ui.preFrom = null; render(); return true; };
  $('board').addEventListener('contextmenu', (/** @type {Event} */ e) => { if (cancelPremove()) e.preventDefault(); });

  /** A click on the board's square `sq`: the module says what it means (default: square pairs). @param {string} sq */
  function onClick(sq) {
    const state = store.state;
    if (state && ui.replayPly == null && premoveable(state, myTurn(), mod)) return premoveClick(sq);
    if (!state || !myTurn() || ui.replayPly != null) return;
    const r = ((mod && mod.click) || pairClick)(state.legal || [], ui.selected, sq);
    if (r.move) return sendMove(r.move);
    if (r.choose) return choose(r.choose);
    ui.selected = r.select || null;
    render();
  }

  // The chooser between moves of the same squares. Escape, a click beside it or Cancel closes it.
  function closeChooser() {
    if (!ui.chooserOpen) return;
    ui.chooserOpen = null;
    $('chooser').innerHTML = '';
    ui.selected = null;
    render();
  }
  /** @param {string[]} cands */
  function choose(cands) {
    ui.chooserOpen = cands;
    $('chooser').innerHTML = chooserHtml(cands, mod || {});
    $('chooser').querySelectorAll('button[data-mv]').forEach((/** @type {HTMLElement} */ b) => b.addEventListener('click', () => { ui.chooserOpen = null; $('chooser').innerHTML = ''; sendMove(String(b.dataset.mv)); }));
    $('chooser').querySelector('.cancel').addEventListener('click', closeChooser);
    $('chooser').querySelector('.chooser-back').addEventListener('click', closeChooser);
  }
  // The replay: one step back or on, the start or now (buttons and arrow keys).
  /** @param {string} r */
  function step(r) {
    const rec = (store.state && store.state.records) || [];
    if (!rec.length) return;
    const cur = ui.replayPly == null ? rec.length : ui.replayPly;
    let p = r === '0' ? 0 : r === 'end' ? rec.length : cur + Number(r);
    p = Math.max(0, Math.min(rec.length, p));
    ui.replayPly = p === rec.length ? null : p;
    render();
  }
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.key === 'Escape') { if (cancelPremove()) return; return closeChooser(); }
    const r = replayKey(e);
    if (!r || ui.chooserOpen || inField(e) || !store.state) return;
    e.preventDefault();
    step(r);
  };
  document.addEventListener('keydown', onKey);
  // The drawn buttons, moves and replay steps: one listener each, for
  // whatever the last render put there.
  const onViewClick = (/** @type {MouseEvent} */ e) => {
    const el = /** @type {HTMLElement} */ (e.target);
    const x = /** @type {HTMLButtonElement | null} */ (el.closest('#buttons button[data-f], #offer button[data-f], #notice button[data-f], #result button[data-f], #fen-box button[data-f]'));
    if (x) return onButton(x);
    const ply = /** @type {HTMLElement | null} */ (el.closest('#moves [data-ply]'));
    if (ply) { ui.replayPly = Number(ply.dataset.ply); render(); return; }
    const r = /** @type {HTMLElement | null} */ (el.closest('#replay button[data-r]'));
    if (r) step(String(r.dataset.r));
  };
  // `view` outlives this page (the router reuses it): the listener goes with the page.
  view.addEventListener('click', onViewClick);

  /** @param {HTMLButtonElement} x */
  async function onButton(x) {
    const state = store.state;
    if (!state) return;
    const f = x.dataset.f;
    const tb = takebackFrame(f);
    if (tb) { send(tb); return; }
    if (f === 'copy-invite') { copyInvite(x); return; }
    if (f === 'copy-fen') { copyFen(x); return; }
    if (f === 'pass') sendMove((state.legal || []).includes('pass') ? 'pass' : '0000');
    else if (f === 'random') sendMove('random');
    else if (f === 'action') sendMove(String(x.dataset.move));
    else if (f === 'draw') { store.offerSent = true; send({ t: 'draw', action: 'offer' }); }
    else if (f === 'accept') send({ t: 'draw', action: 'accept' });
    else if (f === 'decline') send({ t: 'draw', action: 'decline' });
    else if (f === 'claim') send({ t: 'claim' });
    else if (f === 'resign') { if (confirm(t('resign') + '?')) send({ t: 'resign' }); }
    // Resigning is closed: leaving goes back to the lobby once the cost is read.
    else if (f === 'leave') { const ex = extras(mod, state); if (confirm(ex.leave || t('leave_game'))) location.hash = '#/'; }
    else if (f === 'rematch') send({ t: 'rematch' });
    else if (f === 'new-game') { sessionStorage.setItem('qy-new-game', JSON.stringify({ game: state.game, clock: state.clock, opponent: (state.seats.find((/** @type {any} */ s) => s.kind === 'ai') || {}).level })); location.hash = '#/'; }
    else if (f === 'cancel-room' || f === 'decline-challenge') {
      // The room is withdrawn (tray.js hears it too): back to the lobby.
      x.disabled = true;
      try { await api('POST', `/api/games/${encodeURIComponent(id)}/${f === 'cancel-room' ? 'cancel' : 'decline'}`, {}); refreshMyGames(); location.hash = '#/'; }
      catch (e) { x.disabled = false; $('err').textContent = e.message; }
    }
    else if (f === 'abort' || f === 'claim-win' || f === 'claim-draw') {
      // The game's end comes back over the socket.
      x.disabled = true;
      const path = f === 'abort' ? 'abort' : 'claim-victory';
      try { await api('POST', `/api/games/${encodeURIComponent(id)}/${path}`, f === 'claim-draw' ? { draw: true } : {}); }
      catch (e) { x.disabled = false; $('err').textContent = e.message; }
    }
    else if (f === 'join') { try { await api('POST', `/api/games/${id}/join`); socket.connect(false); } catch (e) { $('err').textContent = e.message; } }
  }

  /** Copies the FEN shown to the clipboard (selects it where the clipboard is closed). @param {HTMLButtonElement} x */
  async function copyFen(x) {
    const code = $('fen');
    const text = code.textContent || '';
    try { await navigator.clipboard.writeText(text); x.textContent = t('copied'); }
    catch {
      // No clipboard access (an insecure page, a denied permission): the text is selected and copied the old way.
      const r = document.createRange(); r.selectNodeContents(code);
      const sel = window.getSelection(); if (sel) { sel.removeAllRanges(); sel.addRange(r); }
      let done = false;
      try { done = document.execCommand('copy'); } catch { /* not supported */ }
      x.textContent = done ? t('copied') : t('fen_selected');
    }
    setTimeout(() => { if (!closed) x.textContent = t('copy_fen'); }, 1500);
  }

  bindAnalysis(() => ({ state: store.state, id, rerender: render, mod, notation: ui.notation, goto: (/** @type {number} */ p) => {
    const n = ((store.state && store.state.records) || []).length;
    ui.replayPly = p >= n ? null : Math.max(0, p);
    render();
  } }));
  const timer = setInterval(() => renderer.tick(), 250);

  // Whether the opponent has left during their turn: one's own state over
  // HTTP says (the socket's frames do not), asked every 5 s while it is the
  // opponent's move in a two-seat game.
  async function pollClaim() {
    const state = store.state;
    if (closed || document.hidden) return;
    if (!state || state.status !== 'playing' || state.seat == null || state.seats.length !== 2 || myTurn()) { store.claim = null; return; }
    let g;
    try { g = await api('GET', `/api/games/${encodeURIComponent(id)}`); } catch { return; }
    if (closed) return;
    const ms = g && g.status === 'playing' && g.claim_victory_in_ms != null ? Number(g.claim_victory_in_ms) : null;
    store.claim = ms == null ? null : { ms, at: performance.now() };
    renderer.tick();
  }
  const claimTimer = setInterval(pollClaim, 5000);

  // Once the game is over: the rating changes, and fresh badges by the names.
  async function afterEnd() {
    if (ratingsAsked) return;
    const state = store.state;
    if (!state) return;
    ratingsAsked = true;
    const names = state.seats.filter((/** @type {any} */ s) => s.kind === 'user').map((/** @type {any} */ s) => s.name);
    if (state.rated) {
      ui.ratings = await ratingChanges(id, { alive: () => !closed });
      if (closed) return;
      // Without the endpoint the new ratings still land a moment after the end.
      if (!ui.ratings) await new Promise((r) => setTimeout(r, 1200));
      if (closed) return;
    }
    forget(names);
    renderer.forgetNames();
    render();
    if (state.rated && !ui.ratings) setTimeout(() => { if (!closed) { forget(names); renderer.forgetNames(); render(); } }, 4000);
  }

  /** A frame of the socket's (pings are answered there). @param {Record<string, any>} m */
  function onFrame(m) {
    if (m.t === 'error') { $('err').textContent = errorText(m); store.pending = null; return; }
    if (m.t === 'rematch') { location.hash = `#/game/${m.id}`; return; }
    if (m.t === 'chat') { chat.onFrame(m); return; }
    if (m.t !== 'state' && m.t !== 'diff') return;
    const r = store.receive(m, performance.now());
    if ('stale' in r) return;
    if ('resync' in r) { socket.connect(true); return; }
    const { prev, state } = r;
    if (prev && r.changed) $('err').textContent = '';
    const sound = soundFor(prev, state);
    if (m.t === 'state' && prev) chat.reload();
    // The header's "My games" count changes when the game ends or the turn passes.
    if (prev && state.seat != null && (state.status !== prev.status || state.to_move !== prev.to_move)) refreshMyGames();
    chat.onState(state);
    if (sound) play(sound);
    if (state.status !== 'playing' || !myTurn()) ui.selected = null;
    if (state.status !== 'playing') ui.premove = ui.preFrom = null;
    // The opponent came back and moved (or the game ended): no claim until asked again.
    if (state.status !== 'playing' || myTurn() || (prev && prev.to_move !== state.to_move)) store.claim = null;
    // One's turn has come: the queued premove goes if it is still legal.
    let queued = null;
    if (ui.premove && myTurn()) { queued = pickPremove(state, ui.premove); if (!queued) $('err').textContent = t('premove_dropped').replace('{m}', ui.premove); ui.premove = ui.preFrom = null; }
    render();
    if (queued) sendMove(queued);
    if (state.status === 'finished') afterEnd();
  }

  // A game that does not exist says so, and opens no socket.
  api('GET', `/api/games/${encodeURIComponent(id)}`).then(() => socket.connect(true), (e) => {
    if (closed) return;
    if (e.status === 404) {
      view.innerHTML = `<div class="card" data-testid="no-such-game"><h2>${t('no_such_game')}</h2><p>${t('no_such_game_text').replace('{id}', esc(id))}</p><p><a href="#/">${t('back_to_lobby')}</a></p></div>`;
    } else socket.connect(true);
  });
  return () => {
    closed = true; clearInterval(timer); clearInterval(claimTimer);
    document.title = BASE_TITLE;
    document.removeEventListener('keydown', onKey);
    view.removeEventListener('click', onViewClick);
    socket.close();
  };
}
