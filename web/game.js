// The game page: board, clocks, side panel (status, offers, result panel),
// move list and replay. Each game's own drawing is its module (web/games/).
import { t } from './i18n.js';
import { titleSlot, decorate, forget } from './titles.js';
import { gameModule } from './kinds.js';
import { api, esc, seatLabel, clockText, wsUrl } from './util.js';
import { resultLine, resultPanel, ratingChanges } from './result.js';
import { analysisHtml, bindAnalysis } from './analysis.js';
import { refreshMyGames } from './my-games.js';
import { BOARDS, PIECES, boardTheme, pieceTheme, setBoardTheme, setPieceTheme } from './board-theme.js';
import { tabTitle, BASE_TITLE, inField, replayKey, matchTyped, typedHtml, typedExample } from './game-extras.js';
import { play, soundFor, soundOn, setSound } from './sound.js';
import { chatPanel } from './chat.js';
import { premoveable, ownPiece, pickPremove, markPremove } from './premove.js';
import { takebackHtml, takebackButton, takebackFrame, waitingHtml, mayJoin, copyInvite } from './game-social.js';

function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// Replay buttons drawn as SVG (no font has to have ⏮ ◀ ▶ ⏭).
const ICON = {
  first: 'M5 4h2v12H5zM16 4v12L8 10z', prev: 'M14 4v12L6 10z', next: 'M6 4v12l8-6z', last: 'M13 4h2v12h-2zM4 4v12l8-6z',
};
// A speaker, with waves when sounds are on, crossed out when off.
const speaker = (on) => `<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" style="vertical-align:-3px"><path d="M3 7h3l4-4v14l-4-4H3z" fill="currentColor"/>${on ? '<path d="M13 6.5a5 5 0 0 1 0 7M15.5 4a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.6"/>' : '<path d="M13 7l5 6M18 7l-5 6" stroke="currentColor" stroke-width="1.8"/>'}</svg>`;
const icon = (k) => `<svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true"><path d="${ICON[k]}" fill="currentColor"/></svg>`;

/** What a game allows besides moves: {offer, claim, pgn, resign}; a module may narrow it. */
function extras(mod, state) {
  const base = { offer: true, claim: true, pgn: true, resign: true };
  return mod && mod.extras ? { ...base, ...mod.extras(state) } : base;
}

export function gameView(view, id, me = null) {
  let state = null, selected = null, flipped = false, notation = localStorage.getItem('qy-notation') || 'iccs';
  let replayPly = null, receivedAt = 0, ws = null, closed = false, pending = null, shownNames = '', mod = null, shownPlies = -1;
  let premove = null, preFrom = null;
  let retryTimer = null, retryMs = 1000, chooserOpen = null, lastOffer = null, declinedAt = 0, offerSent = false, ratings = null, ratingsAsked = false;
  view.innerHTML = `<div class="game">
    <div class="board-wrap">
      <div class="player" id="top-bar"><span id="top-name"></span><span class="clock" id="top-clock" data-testid="clock-top"></span></div>
      <svg id="board" data-testid="board"></svg>
      <div class="player" id="bot-bar"><span id="bot-name"></span><span class="clock" id="bot-clock" data-testid="clock-bottom"></span></div>
    </div>
    <div id="seats" class="card"></div>
    <div class="side card">
      <div id="title"></div>
      <div class="scores" id="scores" data-testid="scores"></div>
      <div class="status" id="status" data-testid="status"></div>
      <div class="muted small" id="premove" data-testid="premove" hidden></div>
      <div id="offer"></div>
      <div id="result"></div>
      <div class="err" id="err" data-testid="error"></div>
      <div class="buttons" id="buttons"></div>
      <div class="tools"><span id="notation-wrap">${t('moves')}: <select id="notation" data-testid="notation"><option value="iccs">ICCS</option><option value="wxf">WXF</option><option value="chinese">中文</option></select></span>
        <span id="themes-wrap" hidden>${t('board_theme')}: <select id="board-theme" data-testid="board-theme">${Object.keys(BOARDS).map((b) => `<option value="${b}"${b === boardTheme() ? ' selected' : ''}>${t('board_' + b)}</option>`).join('')}</select>
        ${t('piece_theme')}: <select id="piece-theme" data-testid="piece-theme">${Object.keys(PIECES).map((p) => `<option value="${p}"${p === pieceTheme() ? ' selected' : ''}>${t('pieces_' + p)}</option>`).join('')}</select></span>
        <button id="flip" data-testid="flip">${t('flip')}</button> <button id="sound" data-testid="sound" aria-pressed="false"></button> <a id="pgn" href="/api/games/${esc(id)}/pgn" data-testid="pgn">${t('pgn')}</a></div>
      ${typedHtml()}
      <div class="moves"><table id="moves" data-testid="moves"></table></div>
      <div id="replay" class="buttons"></div>
      <div id="chat" class="chat" hidden></div>
    </div></div><div id="chooser"></div>`;
  const $ = (x) => document.getElementById(x);
  const chat = chatPanel($('chat'), id);
  $('notation').value = notation;
  $('notation').addEventListener('change', (e) => { notation = e.target.value; localStorage.setItem('qy-notation', notation); render(); });
  $('flip').addEventListener('click', () => { flipped = !flipped; render(); });
  $('board-theme').addEventListener('change', (e) => { setBoardTheme(e.target.value); render(); });
  $('piece-theme').addEventListener('change', (e) => { setPieceTheme(e.target.value); render(); });
  const soundLabel = () => { const on = soundOn(); $('sound').innerHTML = `${speaker(on)} ${on ? t('sound_on') : t('sound_off')}`; $('sound').setAttribute('aria-pressed', String(on)); $('sound').title = t('sound_about'); };
  soundLabel();
  $('sound').addEventListener('click', () => { setSound(!soundOn()); soundLabel(); if (soundOn()) play('move'); });
  // A typed move: checked against the legal moves; several that differ by a Jifen class open the chooser.
  $('typed').addEventListener('submit', (e) => {
    e.preventDefault();
    const box = $('typed-input');
    if (!state || state.status !== 'playing' || state.seat == null) { $('err').textContent = t('typed_not_playing'); return; }
    if (!myTurn()) { $('err').textContent = t('typed_not_your_turn'); return; }
    const r = matchTyped(box.value, state.legal);
    if (r.error) { $('err').textContent = r.error; box.select(); return; }
    $('err').textContent = '';
    box.value = '';
    replayPly = null;
    if (r.moves.length === 1) sendMove(r.moves[0]); else choose(r.moves);
  });

  const send = (frame) => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame)); };
  const myTurn = () => state && state.status === 'playing' && state.seat != null && (state.seats_to_move || [state.to_move]).includes(state.seat);

  function sendMove(m) { pending = m; selected = null; send({ t: 'move', move: m }); render(); }

  // A click on the opponent's move queues a premove (see premove.js).
  function premoveClick(sq) {
    if (!preFrom) preFrom = ownPiece(state, sq) ? sq : null;
    else if (sq === preFrom) preFrom = null;
    else if (ownPiece(state, sq)) preFrom = sq;
    else { premove = preFrom + sq; preFrom = null; }
    render();
  }
  const cancelPremove = () => { if (!premove && !preFrom) return false; premove = preFrom = null; render(); return true; };
  $('board').addEventListener('contextmenu', (e) => { if (cancelPremove()) e.preventDefault(); });

  function onClick(sq) {
    if (state && replayPly == null && premoveable(state, myTurn())) return premoveClick(sq);
    if (!myTurn() || replayPly != null) return;
    const legal = state.legal || [];
    // A game whose moves are not square pairs says what a click means.
    if (mod && mod.click) {
      const r = mod.click(legal, selected, sq);
      if (r.move) return sendMove(r.move);
      selected = r.select || null;
      render();
      return;
    }
    // Banqi: a click on a face-down piece flips it (`a1a1`).
    if (!selected && legal.includes(sq + sq)) return sendMove(sq + sq);
    if (selected) {
      const cands = legal.filter((m) => m.slice(0, 4) === selected + sq);
      if (cands.length === 1) return sendMove(cands[0]);
      if (cands.length > 1) return choose(cands);
    }
    selected = legal.some((m) => m.slice(0, 2) === sq) ? sq : null;
    render();
  }

  // Jifen: the class after a move. Escape, a click beside it or Cancel closes it.
  function closeChooser() {
    if (!chooserOpen) return;
    chooserOpen = null;
    $('chooser').innerHTML = '';
    selected = null;
    render();
  }
  function choose(cands) {
    const names = { '': t('keep'), '=': t('normal'), '-': t('small'), '+': t('royal'), '*': t('idle') };
    chooserOpen = cands;
    $('chooser').innerHTML = `<div class="chooser-back" data-testid="chooser-backdrop"></div><div class="chooser" data-testid="class-chooser" role="dialog"><b>${t('choose_class')}</b>${cands.map((m) => `<button data-mv="${m}" data-testid="class-${m.length > 4 ? m[4] : 'keep'}">${names[m.slice(4)] ?? m}</button>`).join('')}<button class="cancel" data-testid="class-cancel">${t('cancel')} (Esc)</button></div>`;
    $('chooser').querySelectorAll('button[data-mv]').forEach((b) => b.addEventListener('click', () => { chooserOpen = null; $('chooser').innerHTML = ''; sendMove(b.dataset.mv); }));
    $('chooser').querySelector('.cancel').addEventListener('click', closeChooser);
    $('chooser').querySelector('.chooser-back').addEventListener('click', closeChooser);
  }
  // The replay: one step back or on, the start or now (buttons and arrow keys).
  function step(r) {
    const rec = (state && state.records) || [];
    if (!rec.length) return;
    const cur = replayPly == null ? rec.length : replayPly;
    let p = r === '0' ? 0 : r === 'end' ? rec.length : cur + Number(r);
    p = Math.max(0, Math.min(rec.length, p));
    replayPly = p === rec.length ? null : p;
    render();
  }
  const onKey = (e) => {
    if (e.key === 'Escape') { if (cancelPremove()) return; return closeChooser(); }
    const r = replayKey(e);
    if (!r || chooserOpen || inField(e) || !state) return;
    e.preventDefault();
    step(r);
  };
  document.addEventListener('keydown', onKey);

  function offerHtml(mySeat, ex) {
    const now = performance.now();
    if (state.status !== 'playing' || mySeat == null || !ex.offer) return '';
    if (state.draw_offer != null && state.draw_offer !== mySeat) {
      const who = esc(seatLabel(state.seats[state.draw_offer]));
      return `<div class="offer" data-testid="draw-offer"><b>${t('offers_draw').replace('{name}', who)}</b><div class="buttons"><button class="primary" data-f="accept" data-testid="accept-draw">${t('accept_draw')}</button><button data-f="decline" data-testid="decline-draw">${t('decline_draw')}</button></div></div>`;
    }
    if (state.draw_offer === mySeat) return `<div class="offer muted" data-testid="draw-pending">${t('draw_offered_wait')}</div>`;
    if (declinedAt && now - declinedAt < 10000) return `<div class="offer declined" data-testid="draw-declined">${t('draw_declined')}</div>`;
    return '';
  }

  bindAnalysis(() => ({ state, id, rerender: render }));
  function render() {
    if (!state) return;
    const mySeat = state.seat;
    const flip = flipped !== (mySeat === 1);
    const rec = state.records || [];
    const lastRec = replayPly == null ? rec[rec.length - 1] : rec[replayPly - 1];
    if (!mod) { gameModule(state.game).then((m) => { if (!closed) { mod = m; render(); } }); return; }
    // Board and piece themes dress the Xiangqi board (board.js).
    $('themes-wrap').hidden = !/^(xiangqi|jifen)/.test(state.game || '');
    const ex = extras(mod, state);
    const last = mod.last ? mod.last(lastRec) : lastRec && lastRec.iccs !== '0000' ? [lastRec.iccs.slice(0, 2), lastRec.iccs.slice(2, 4)] : [];
    const targets = mod.targets ? mod.targets(state.legal || [], selected) : selected ? new Set((state.legal || []).filter((m) => m.slice(0, 2) === selected).map((m) => m.slice(2, 4))) : new Set();
    mod.draw($('board'), { state, replayPly, flipped: flip, userFlipped: flipped, selected: selected || preFrom, targets, last, onClick, notation });
    if (premove && replayPly == null) markPremove($('board'), premove);
    $('premove').hidden = !premove;
    $('premove').textContent = premove ? t('premove').replace('{m}', premove) : '';
    // A game of any number of seats lists them itself (Tiaoqi), instead of
    // the two bars above and below the board.
    const ctx = { t, esc, seatLabel, titleSlot, replayPly, rerender: render, fen: mod.fenAt ? mod.fenAt(state, replayPly) : state.fen };
    $('top-bar').hidden = $('bot-bar').hidden = !!mod.seats;
    view.querySelector('.game').classList.toggle('seated', !!mod.seats);
    $('notation-wrap').hidden = mod.notations === false;
    $('flip').textContent = t(mod.flipLabel || 'flip');
    $('pgn').hidden = !ex.pgn;
    if (mod.seats) { $('seats').innerHTML = mod.seats(state, ctx); decorate($('seats')); }
    const top = flip ? 0 : 1, bot = flip ? 1 : 0;
    // Banqi's colours come with the first flip: before it a seat has none.
    const side = (seat) => (mod.sideOf ? mod.sideOf(state, seat) : seat === 0 ? 'red' : 'black');
    const nameHtml = (seat) => `${side(seat) ? `<span class="side-${side(seat)}">${t(side(seat))}</span>: ` : ''}${esc(seatLabel(state.seats[seat]))}${titleSlot(state.game, state.seats[seat])}`;
    const names = `${nameHtml(top)}|${nameHtml(bot)}`;
    if (names !== shownNames && !mod.seats) {
      // Only when the seats change: the titles are fetched, not redrawn per move.
      shownNames = names;
      $('top-name').innerHTML = nameHtml(top);
      $('bot-name').innerHTML = nameHtml(bot);
      decorate(view.querySelector('.board-wrap'));
    }
    $('title').innerHTML = `<b>${esc(t(state.game))}</b> · <span data-testid="clock-rule">${clockText(state.clock, state.game)}</span>${state.rated ? ' · ' + t('rated') : ''}`;
    $('scores').innerHTML = mod.info(state, t, ctx);
    // A seat that left a game the others play on (Tiaoqi T14) only watches.
    const out = mySeat != null && !!(state.progress && state.progress.seats && (state.progress.seats[mySeat] || {}).out);
    let status = '';
    if (state.status === 'waiting') status = t('waiting');
    else if (state.status === 'finished') status = resultLine(state, mod, ctx);
    else if (mySeat == null) status = t('spectator');
    else if (out) status = t('out_of_game');
    else status = myTurn() ? t('your_turn') : t('their_turn');
    if (state.status === 'playing' && state.turn_state === 2) status += ` · ${t('second_move')}`;
    $('status').textContent = status;
    // Once over, the result panel says it all (the line stays for readers of the page's text).
    $('status').hidden = state.status === 'finished';
    $('offer').innerHTML = offerHtml(mySeat, ex) + takebackHtml(state) + waitingHtml(state, me);
    $('result').innerHTML = state.status === 'finished' ? resultPanel(state, mod, ctx, ratings) + analysisHtml(state, id) : '';
    decorate($('result'));
    const b = [];
    if (state.status === 'playing' && mySeat != null && !out) {
      if (myTurn() && (state.legal || []).some((m) => m === '0000' || m === 'pass')) b.push(`<button data-f="pass" data-testid="pass">${t('pass')}</button>`);
      // A simultaneous set-up phase (Junqi): the server draws a legal set-up.
      if (myTurn() && (state.legal || []).includes('random')) b.push(`<button data-f="random" data-testid="random-setup">${t('random_setup')}</button>`);
      // A module's own moves as buttons (Junqi: send the set-up being edited).
      if (myTurn() && mod.actions) for (const a of mod.actions(state, t)) b.push(`<button data-f="action" data-move="${esc(a.move)}" data-testid="${esc(a.testid)}"${a.disabled ? ` disabled title="${esc(a.why || '')}"` : ''}>${esc(a.label)}</button>`);
      if (ex.offer && state.draw_offer == null) b.push(`<button data-f="draw" data-testid="offer-draw">${t('offer_draw')}</button>`);
      if (!out) b.push(takebackButton(state));
      if (ex.claim) b.push(`<button data-f="claim" data-testid="claim">${t('claim')}</button>`);
      b.push(ex.resign ? `<button data-f="resign" data-testid="resign">${t('resign')}</button>` : `<button disabled data-testid="resign-later" title="${esc(t('resign_later'))}">${t('resign')}</button> <span class="muted small">${t('resign_later')}</span>`);
    }
    if (mayJoin(state, me)) b.push(`<button data-f="join" data-testid="join">${t('join')}</button>`);
    $('buttons').innerHTML = b.join(' ');
    view.querySelectorAll('#buttons button, #offer button, #result button').forEach((x) => x.addEventListener('click', async () => {
      const f = x.dataset.f;
      const tb = takebackFrame(f);
      if (tb) { send(tb); return; }
      if (f === 'copy-invite') { copyInvite(x); return; }
      if (f === 'pass') sendMove((state.legal || []).includes('pass') ? 'pass' : '0000');
      else if (f === 'random') sendMove('random');
      else if (f === 'action') sendMove(x.dataset.move);
      else if (f === 'draw') { offerSent = true; send({ t: 'draw', action: 'offer' }); }
      else if (f === 'accept') send({ t: 'draw', action: 'accept' });
      else if (f === 'decline') send({ t: 'draw', action: 'decline' });
      else if (f === 'claim') send({ t: 'claim' });
      else if (f === 'resign') { if (confirm(t('resign') + '?')) send({ t: 'resign' }); }
      else if (f === 'rematch') send({ t: 'rematch' });
      else if (f === 'new-game') { sessionStorage.setItem('qy-new-game', JSON.stringify({ game: state.game, clock: state.clock, opponent: (state.seats.find((s) => s.kind === 'ai') || {}).level })); location.hash = '#/'; }
      else if (f === 'join') { try { await api('POST', `/api/games/${id}/join`); connect(); } catch (e) { $('err').textContent = e.message; } }
    }));
    if (mod.moveRows) $('moves').innerHTML = mod.moveRows(state, replayPly, esc, notation);
    else {
      const rows = [];
      for (let i = 0; i < rec.length; i += 2) {
        const cell = (j) => rec[j] ? `<td class="${replayPly === j + 1 ? 'cur' : ''}" data-ply="${j + 1}">${esc(mod.moveText ? mod.moveText(rec[j], t) : rec[j][notation] || rec[j].iccs)}</td>` : '<td></td>';
        rows.push(`<tr><td class="muted">${i / 2 + 1}.</td>${cell(i)}${cell(i + 1)}</tr>`);
      }
      $('moves').innerHTML = rows.join('');
    }
    // The newest move in sight (a long list scrolls).
    if (replayPly == null && rec.length !== shownPlies) { const box = view.querySelector('.moves'); box.scrollTop = box.scrollHeight; }
    shownPlies = rec.length;
    $('moves').querySelectorAll('[data-ply]').forEach((td) => td.addEventListener('click', () => { replayPly = Number(td.dataset.ply); render(); }));
    $('replay').innerHTML = rec.length ? `${t('replay')}: <button data-r="0" title="${t('replay_first')}" data-testid="replay-first">${icon('first')}</button><button data-r="-1" data-testid="replay-prev" title="${t('replay_prev')}">${icon('prev')}</button><button data-r="1" data-testid="replay-next" title="${t('replay_next')}">${icon('next')}</button><button data-r="end" data-testid="replay-last" title="${t('replay_last')}">${icon('last')}</button>` : '';
    $('replay').querySelectorAll('button').forEach((x) => x.addEventListener('click', () => step(x.dataset.r)));
    $('typed').hidden = !(state.status === 'playing' && mySeat != null && !out);
    $('typed-input').placeholder = typedExample(state.game);
    document.title = tabTitle(state, { myTurn: myTurn(), out, result: state.status === 'finished' ? resultLine(state, mod, ctx) : '' });
    tick();
  }

  function tick() {
    if (!state) return;
    const flip = flipped !== (state.seat === 1);
    const top = flip ? 0 : 1, bot = flip ? 1 : 0;
    const now = performance.now();
    const show = (e, seat) => {
      if (!e || state.clocks[seat] == null) return;
      let ms = state.clocks[seat];
      const running = state.status === 'playing' && state.running === seat;
      if (running) ms -= now - receivedAt;
      e.textContent = fmtClock(ms);
      e.classList.toggle('running', running);
      e.classList.toggle('low', ms < 20000);
    };
    show($('top-clock'), top);
    show($('bot-clock'), bot);
    view.querySelectorAll('[data-clock-seat]').forEach((e) => show(e, Number(e.dataset.clockSeat)));
    if (declinedAt && now - declinedAt > 10000 && $('offer').querySelector('[data-testid="draw-declined"]')) { declinedAt = 0; $('offer').innerHTML = ''; }
  }
  const timer = setInterval(tick, 250);

  // Once the game is over: the rating changes, and fresh badges by the names.
  async function afterEnd() {
    if (ratingsAsked) return;
    ratingsAsked = true;
    const names = state.seats.filter((s) => s.kind === 'user').map((s) => s.name);
    if (state.rated) {
      ratings = await ratingChanges(id, { alive: () => !closed });
      if (closed) return;
      // Without the endpoint the new ratings still land a moment after the end.
      if (!ratings) await new Promise((r) => setTimeout(r, 1200));
      if (closed) return;
    }
    forget(names);
    shownNames = '';
    render();
    if (state.rated && !ratings) setTimeout(() => { if (!closed) { forget(names); shownNames = ''; render(); } }, 4000);
  }

  // A diff frame carries everything but the move records before its
  // `from`: fold it into the game we have. null: we lack those records.
  function fold(prev, m) {
    if (m.t === 'state') return m;
    if (!prev || prev.id !== m.id || (prev.records || []).length < m.from) return null;
    const records = prev.records.slice(0, m.from).concat(m.records);
    if (records.length !== m.plies) return null;
    return { ...m, t: 'state', from: 0, records, moves: records.map((r) => r.iccs) };
  }

  function connect(fresh) {
    if (closed) return;
    clearTimeout(retryTimer);
    if (ws) { ws.onclose = null; ws.close(); }
    // Reconnecting, ask only for what we missed.
    const since = state && !fresh ? `?since=${state.version}` : '';
    ws = new WebSocket(wsUrl(`/api/games/${id}/ws${since}`));
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      retryMs = 1000;
      if (m.t === 'ping') return ws.send(JSON.stringify({ t: 'pong', id: m.id }));
      if (m.t === 'error') { $('err').textContent = m.error; pending = null; return; }
      if (m.t === 'rematch') { location.hash = `#/game/${m.id}`; return; }
      if (m.t === 'chat') { chat.onFrame(m); return; }
      if (m.t !== 'state' && m.t !== 'diff') return;
      if (state && m.version <= state.version && m.id === state.id && m.t === 'diff') return;
      const next = fold(state, m);
      if (!next) { connect(true); return; }
      if (state && next.version !== state.version) $('err').textContent = '';
      // An offer of ours that went away while the game goes on was declined
      // (an AI may answer at once: the offer is then never seen standing).
      const changed = !state || next.version !== state.version;
      if (next.draw_offer == null && next.status === 'playing' && changed && ((lastOffer != null && lastOffer === next.seat) || offerSent)) declinedAt = performance.now();
      if (next.draw_offer != null) declinedAt = 0;
      if (changed) offerSent = false;
      lastOffer = next.draw_offer;
      const sound = soundFor(state, next);
      if (m.t === 'state' && state) chat.reload();
      // The header's "My games" count changes when the game ends or the turn passes.
      if (state && next.seat != null && (next.status !== state.status || next.to_move !== state.to_move)) refreshMyGames();
      state = next; receivedAt = performance.now(); pending = null;
      chat.onState(state);
      if (sound) play(sound);
      if (state.status !== 'playing' || !myTurn()) selected = null;
      if (state.status !== 'playing') premove = preFrom = null;
      // One's turn has come: the queued premove goes if it is still legal.
      let queued = null;
      if (premove && myTurn()) { queued = pickPremove(state, premove); if (!queued) $('err').textContent = t('premove_dropped').replace('{m}', premove); premove = preFrom = null; }
      render();
      if (queued) sendMove(queued);
      if (state.status === 'finished') afterEnd();
    };
    // Reconnect after a dropped connection (backing off); the server sends what was missed.
    ws.onclose = () => {
      if (closed) return;
      retryTimer = setTimeout(() => connect(false), retryMs);
      retryMs = Math.min(retryMs * 2, 15000);
    };
  }

  // A game that does not exist says so, and opens no socket.
  api('GET', `/api/games/${encodeURIComponent(id)}`).then(() => connect(true), (e) => {
    if (closed) return;
    if (e.status === 404) {
      view.innerHTML = `<div class="card" data-testid="no-such-game"><h2>${t('no_such_game')}</h2><p>${t('no_such_game_text').replace('{id}', esc(id))}</p><p><a href="#/">${t('back_to_lobby')}</a></p></div>`;
    } else connect(true);
  });
  return () => {
    closed = true; clearInterval(timer); clearTimeout(retryTimer);
    document.title = BASE_TITLE;
    document.removeEventListener('keydown', onKey);
    if (ws) { ws.onclose = null; ws.close(); ws = null; }
  };
}
