// 棋苑 Qiyuan page: lobby, game, profile, rules, login. Plain ES modules.
import { t, getLang, setLang, applyStatic } from './i18n.js';
import { titleSlot, decorate } from './titles.js';
import { leaderboardView, profileRatings } from './leaderboard.js';
import { eventsView, eventView } from './events.js';
import { loadKinds, variantNames, kindOf, gameModule } from './kinds.js';

const view = document.getElementById('view');
let me = null;
let cleanup = () => {};

async function api(method, path, body) {
  const r = await fetch(path, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined, credentials: 'same-origin' });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText);
  return data;
}

async function ensureSession() {
  try { me = await api('GET', '/api/me'); } catch { me = await api('POST', '/api/guest'); }
  renderNav();
}

function renderNav() {
  const a = document.getElementById('nav-user');
  if (me && !me.guest) { a.textContent = me.username; a.href = `#/user/${encodeURIComponent(me.username)}`; }
  else { a.textContent = t('login'); a.href = '#/login'; }
  document.getElementById('lang').textContent = getLang() === 'zh' ? 'English' : '中文';
  applyStatic();
}

function esc(s) { return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

function seatLabel(s) {
  if (!s) return '?';
  if (s.kind === 'user') return s.name;
  if (s.kind === 'ai') return `AI ${s.level}`;
  return '—';
}

// Every seat of a game: "A vs B", or "A · B · C …" with more than two
// (whose titles are of the kind's multi-player family).
function seatsLine(g, titles) {
  const seats = g.seats || [];
  const family = seats.length > 2 ? `${(kindOf(g.game) || { id: g.game }).id}-multi` : g.game;
  const one = (s) => `${esc(seatLabel(s))}${titles ? titleSlot(family, s) : ''}`;
  return seats.length > 2 ? seats.map(one).join(' · ') : `${one(seats[0])} ${t('vs')} ${one(seats[1])}`;
}

// A room's clock: minutes + increment, or seconds a move (Banqi, Tiaoqi).
function clockText(c) { return c.initial_s < 60 ? `${c.initial_s}\u00a0s` : `${c.initial_s / 60}+${c.increment_s}`; }

function wsUrl(path) { return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`; }

// ---------------------------------------------------------------- lobby
function lobbyView() {
  view.innerHTML = `
  <div class="card" id="invitations" data-testid="invitations" hidden></div>
  <div class="card"><h2>${t('create')}</h2>
    <form id="create" data-testid="create-form">
      <label>${t('game')} <select name="game" data-testid="game-select">
        ${variantNames().map((g) => `<option value="${g}">${t(g)}</option>`).join('')}
      </select></label>
      <label>${t('target')} <input name="target" type="number" min="1" placeholder="30/100" style="width:6em" data-testid="target"></label>
      <label>${t('minutes')} <input name="minutes" type="number" min="1" value="10" style="width:5em"></label>
      <label>${t('increment')} <input name="inc" type="number" min="0" value="5" style="width:5em"></label>
      <label>${t('opponent')} <select name="opponent" data-testid="opponent">
        <option value="open">${t('open_seat')}</option>
        ${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `<option value="ai:${n}">${t('ai_level')} ${n}</option>`).join('')}
      </select></label>
      <label><input name="rated" type="checkbox" ${me && me.guest ? 'disabled' : ''}> ${t('rated')}</label>
      <button class="primary" data-testid="create">${t('create')}</button>
      <div class="err" id="create-err"></div>
    </form></div>
  <div class="card"><h2>${t('open_rooms')}</h2><div id="open" data-testid="open-rooms"></div></div>
  <div class="card"><h2>${t('in_play')}</h2><div id="playing"></div></div>`;
  document.getElementById('create').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const body = { game: f.get('game'), clock: { initial_s: Number(f.get('minutes')) * 60, increment_s: Number(f.get('inc')) }, opponent: f.get('opponent'), rated: f.get('rated') === 'on' };
    const kind = kindOf(body.game);
    const variant = kind && kind.variants.find((v) => v.name === body.game);
    if (f.get('target') && variant && variant.options.some((o) => o.name === 'target')) body.options = { target: Number(f.get('target')) };
    // A kind with a fixed time per move (Banqi's 30 s, B12) has no increment.
    if (kind && kind.clock.kind === 'per_move') body.clock = { initial_s: kind.clock.seconds, increment_s: 0 };
    try { const g = await api('POST', '/api/games', body); location.hash = `#/game/${g.id}`; }
    catch (err) { document.getElementById('create-err').textContent = err.message; }
  });
  showInvitations();
  const ws = new WebSocket(wsUrl('/api/lobby/ws'));
  ws.onmessage = (ev) => {
    const l = JSON.parse(ev.data);
    if (l.t !== 'lobby' || !l.open) return;
    const row = (g, btn) => `<tr><td>${esc(t(g.game))}${g.target ? ' → ' + g.target : ''}${g.setup ? ` <span class="muted" data-testid="setup-mark" title="${t('set_up')}">· ${t('set_up_short')}</span>` : ''}</td><td>${seatsLine(g, true)}</td><td>${clockText(g.clock)}</td><td>${g.rated ? t('rated') : ''}</td><td>${btn}</td></tr>`;
    document.getElementById('open').innerHTML = l.open.length ? `<table>${l.open.map((g) => row(g, `<button data-join="${g.id}" data-testid="join-${g.id}">${t('join')}</button>`)).join('')}</table>` : `<p class="muted">${t('none')}</p>`;
    document.getElementById('playing').innerHTML = l.playing.length ? `<table>${l.playing.map((g) => row(g, `<a href="#/game/${g.id}">${t('watch')}</a>`)).join('')}</table>` : `<p class="muted">${t('none')}</p>`;
    decorate(view);
    view.querySelectorAll('[data-join]').forEach((b) => b.addEventListener('click', async () => {
      const id = b.dataset.join;
      try {
        const mine = l.open.find((g) => g.id === id).seats.some((s) => s.kind === 'user' && me && s.name === me.username);
        if (!mine) await api('POST', `/api/games/${id}/join`);
        location.hash = `#/game/${id}`;
      } catch (err) { alert(err.message); }
    }));
  };
  return () => ws.close();
}

// Invitations to events (people are entered only once they accept).
async function showInvitations() {
  const box = document.getElementById('invitations');
  if (!box || !me || me.guest) return;
  let list = [];
  try { list = (await api('GET', '/api/invitations')).invitations; } catch { return; }
  if (!list.length) { box.hidden = true; return; }
  box.hidden = false;
  box.innerHTML = `<h2>${t('invitations')}</h2><table>${list.map((i) => `<tr>
    <td>${i.kind === 'team_event' ? t('team_event') : `<a href="#/event/${esc(i.id)}">${esc(i.name)}</a>`}${i.kind === 'team_event' ? ' ' + esc(i.name) : ''}</td>
    <td>${esc(t(i.game))} · ${i.clock.initial_s / 60}+${i.clock.increment_s}${i.rated ? ' · ' + t('rated') : ''}</td><td class="muted">${t('organiser')}: ${esc(i.organiser || '')}</td>
    <td><button data-inv="${esc(i.id)}" data-kind="${i.kind}" data-yes="1">${t('accept')}</button> <button data-inv="${esc(i.id)}" data-kind="${i.kind}">${t('decline')}</button></td></tr>`).join('')}</table>`;
  box.querySelectorAll('[data-inv]').forEach((b) => b.addEventListener('click', async () => {
    const base = b.dataset.kind === 'team_event' ? '/api/team-events' : '/api/events';
    const verb = b.dataset.yes ? (b.dataset.kind === 'team_event' ? 'accept' : 'join') : 'decline';
    try { await api('POST', `${base}/${encodeURIComponent(b.dataset.inv)}/${verb}`); } catch (err) { alert(err.message); }
    showInvitations();
  }));
}

// ---------------------------------------------------------------- game
function fmtClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function gameView(id) {
  let state = null, selected = null, flipped = false, notation = localStorage.getItem('qy-notation') || 'iccs';
  let replayPly = null, receivedAt = 0, ws = null, closed = false, pending = null, shownNames = '', mod = null, shownPlies = -1;
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
      <div class="err" id="err" data-testid="error"></div>
      <div class="buttons" id="buttons"></div>
      <div><span id="notation-wrap">${t('moves')}: <select id="notation" data-testid="notation"><option value="iccs">ICCS</option><option value="wxf">WXF</option><option value="chinese">中文</option></select></span>
        <button id="flip">${t('flip')}</button> <a id="pgn" href="/api/games/${id}/pgn" data-testid="pgn">${t('pgn')}</a></div>
      <div class="moves"><table id="moves" data-testid="moves"></table></div>
      <div id="replay" class="buttons"></div>
    </div></div><div id="chooser"></div>`;
  const $ = (x) => document.getElementById(x);
  $('notation').value = notation;
  $('notation').addEventListener('change', (e) => { notation = e.target.value; localStorage.setItem('qy-notation', notation); render(); });
  $('flip').addEventListener('click', () => { flipped = !flipped; render(); });

  const send = (frame) => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame)); };
  const myTurn = () => state && state.status === 'playing' && state.seat != null && (state.seats_to_move || [state.to_move]).includes(state.seat);

  function sendMove(m) { pending = m; selected = null; send({ t: 'move', move: m }); render(); }

  function onClick(sq) {
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

  function choose(cands) {
    const names = { '': t('keep'), '=': t('normal'), '-': t('small'), '+': t('royal'), '*': t('idle') };
    $('chooser').innerHTML = `<div class="chooser" data-testid="class-chooser"><b>${t('choose_class')}</b>${cands.map((m) => `<button data-mv="${m}" data-testid="class-${m.length > 4 ? m[4] : 'keep'}">${names[m.slice(4)] ?? m}</button>`).join('')}</div>`;
    $('chooser').querySelectorAll('button').forEach((b) => b.addEventListener('click', () => { $('chooser').innerHTML = ''; sendMove(b.dataset.mv); }));
  }

  function render() {
    if (!state) return;
    const mySeat = state.seat;
    const flip = flipped !== (mySeat === 1);
    const rec = state.records || [];
    const lastRec = replayPly == null ? rec[rec.length - 1] : rec[replayPly - 1];
    if (!mod) { gameModule(state.game).then((m) => { mod = m; render(); }); return; }
    const last = mod.last ? mod.last(lastRec) : lastRec && lastRec.iccs !== '0000' ? [lastRec.iccs.slice(0, 2), lastRec.iccs.slice(2, 4)] : [];
    const targets = mod.targets ? mod.targets(state.legal || [], selected) : selected ? new Set((state.legal || []).filter((m) => m.slice(0, 2) === selected).map((m) => m.slice(2, 4))) : new Set();
    mod.draw($('board'), { state, replayPly, flipped: flip, userFlipped: flipped, selected, targets, last, onClick });
    // A game of any number of seats lists them itself (Tiaoqi), instead of
    // the two bars above and below the board.
    const ctx = { t, esc, seatLabel, titleSlot, replayPly, fen: mod.fenAt ? mod.fenAt(state, replayPly) : state.fen };
    $('top-bar').hidden = $('bot-bar').hidden = !!mod.seats;
    view.querySelector('.game').classList.toggle('seated', !!mod.seats);
    $('notation-wrap').hidden = mod.notations === false;
    if (mod.seats) { $('seats').innerHTML = mod.seats(state, ctx); decorate($('seats')); }
    const top = flip ? 0 : 1, bot = flip ? 1 : 0;
    const nameHtml = (seat) => `${seat === 0 ? t('red') : t('black')}: ${esc(seatLabel(state.seats[seat]))}${titleSlot(state.game, state.seats[seat])}`;
    const names = `${nameHtml(top)}|${nameHtml(bot)}`;
    if (names !== shownNames && !mod.seats) {
      // Only when the seats change: the titles are fetched, not redrawn per move.
      shownNames = names;
      $('top-name').innerHTML = nameHtml(top);
      $('bot-name').innerHTML = nameHtml(bot);
      decorate(view.querySelector('.board-wrap'));
    }
    $('title').innerHTML = `<b>${esc(t(state.game))}</b> · ${clockText(state.clock)}${state.rated ? ' · ' + t('rated') : ''}`;
    $('scores').innerHTML = mod.info(state, t, ctx);
    // A seat that left a game the others play on (Tiaoqi T14) only watches.
    const out = mySeat != null && !!(state.progress && state.progress.seats && (state.progress.seats[mySeat] || {}).out);
    let status = '';
    if (state.status === 'waiting') status = t('waiting');
    else if (state.status === 'finished') status = `${mod.result ? mod.result(state, t, ctx) : t('result_' + state.result)} — ${state.explanation || state.reason}`;
    else if (mySeat == null) status = t('spectator');
    else if (out) status = t('out_of_game');
    else status = myTurn() ? t('your_turn') : t('their_turn');
    if (state.status === 'playing' && state.turn_state === 2) status += ` · ${t('second_move')}`;
    $('status').textContent = status;
    const b = [];
    if (state.status === 'playing' && mySeat != null && !out) {
      if (myTurn() && (state.legal || []).some((m) => m === '0000' || m === 'pass')) b.push(`<button data-f="pass" data-testid="pass">${t('pass')}</button>`);
      // A simultaneous set-up phase (Junqi): the server draws a legal set-up.
      if (myTurn() && (state.legal || []).includes('random')) b.push(`<button data-f="random" data-testid="random-setup">${t('random_setup')}</button>`);
      if (state.draw_offer != null && state.draw_offer !== mySeat) b.push(`<button data-f="accept" data-testid="accept-draw">${t('accept_draw')}</button><button data-f="decline">${t('decline_draw')}</button>`);
      else if (state.draw_offer == null) b.push(`<button data-f="draw" data-testid="offer-draw">${t('offer_draw')}</button>`);
      b.push(`<button data-f="claim">${t('claim')}</button><button data-f="resign" data-testid="resign">${t('resign')}</button>`);
    }
    if (state.status === 'finished' && mySeat != null) {
      if (state.rematch_id) b.push(`<a href="#/game/${state.rematch_id}" data-testid="rematch-link">${t('rematch')} →</a>`);
      else b.push(`<button data-f="rematch" data-testid="rematch">${t('rematch')}</button>${state.rematch_offer != null && state.rematch_offer !== mySeat ? ' ' + t('rematch_offered') : ''}`);
    }
    if (state.status === 'waiting' && mySeat == null) b.push(`<button data-f="join" data-testid="join">${t('join')}</button>`);
    $('buttons').innerHTML = b.join(' ');
    $('buttons').querySelectorAll('button').forEach((x) => x.addEventListener('click', async () => {
      const f = x.dataset.f;
      if (f === 'pass') sendMove((state.legal || []).includes('pass') ? 'pass' : '0000');
      else if (f === 'random') sendMove('random');
      else if (f === 'draw') send({ t: 'draw', action: 'offer' });
      else if (f === 'accept') send({ t: 'draw', action: 'accept' });
      else if (f === 'decline') send({ t: 'draw', action: 'decline' });
      else if (f === 'claim') send({ t: 'claim' });
      else if (f === 'resign') { if (confirm(t('resign') + '?')) send({ t: 'resign' }); }
      else if (f === 'rematch') send({ t: 'rematch' });
      else if (f === 'join') { try { await api('POST', `/api/games/${id}/join`); connect(); } catch (e) { $('err').textContent = e.message; } }
    }));
    const rows = [];
    for (let i = 0; i < rec.length && !mod.moveRows; i += 2) {
      const cell = (j) => rec[j] ? `<td class="${replayPly === j + 1 ? 'cur' : ''}" data-ply="${j + 1}">${esc(rec[j][notation] || rec[j].iccs)}${rec[j].scores ? ` <span class="muted">(${rec[j].scores.join(':')})</span>` : ''}</td>` : '<td></td>';
      rows.push(`<tr><td class="muted">${i / 2 + 1}.</td>${cell(i)}${cell(i + 1)}</tr>`);
    }
    $('moves').innerHTML = mod.moveRows ? mod.moveRows(state, replayPly, esc) : rows.join('');
    // The newest move in sight (a long multi-player list scrolls).
    if (replayPly == null && rec.length !== shownPlies) { const box = view.querySelector('.moves'); box.scrollTop = box.scrollHeight; }
    shownPlies = rec.length;
    $('moves').querySelectorAll('td[data-ply]').forEach((td) => td.addEventListener('click', () => { replayPly = Number(td.dataset.ply); render(); }));
    $('replay').innerHTML = rec.length ? `${t('replay')}: <button data-r="0">⏮</button><button data-r="-1" data-testid="replay-prev">◀</button><button data-r="1" data-testid="replay-next">▶</button><button data-r="end">⏭</button>` : '';
    $('replay').querySelectorAll('button').forEach((x) => x.addEventListener('click', () => {
      const r = x.dataset.r, cur = replayPly == null ? rec.length : replayPly;
      let p = r === '0' ? 0 : r === 'end' ? rec.length : cur + Number(r);
      p = Math.max(0, Math.min(rec.length, p));
      replayPly = p === rec.length ? null : p;
      render();
    }));
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
  }
  const timer = setInterval(tick, 250);

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
    if (ws) { ws.onclose = null; ws.close(); }
    // Reconnecting, ask only for what we missed.
    const since = state && !fresh ? `?since=${state.version}` : '';
    ws = new WebSocket(wsUrl(`/api/games/${id}/ws${since}`));
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.t === 'ping') return ws.send(JSON.stringify({ t: 'pong', id: m.id }));
      if (m.t === 'error') { $('err').textContent = m.error; pending = null; return; }
      if (m.t === 'rematch') { location.hash = `#/game/${m.id}`; return; }
      if (m.t !== 'state' && m.t !== 'diff') return;
      if (state && m.version <= state.version && m.id === state.id && m.t === 'diff') return;
      const next = fold(state, m);
      if (!next) { connect(true); return; }
      if (state && next.version !== state.version) $('err').textContent = '';
      state = next; receivedAt = performance.now(); pending = null;
      if (state.status !== 'playing' || !myTurn()) selected = null;
      render();
    };
    // Reconnect after a dropped connection; the server sends what was missed.
    ws.onclose = () => { if (!closed) setTimeout(() => connect(false), 1000); };
  }
  connect(true);
  return () => { closed = true; clearInterval(timer); if (ws) ws.close(); };
}

// ---------------------------------------------------------------- other views
function loginView() {
  view.innerHTML = `<div class="card" style="max-width:420px"><form id="login">
    <p><label>${t('username')}<br><input name="username" autocomplete="username" data-testid="username"></label></p>
    <p><label>${t('password')}<br><input name="password" type="password" autocomplete="current-password" data-testid="password"></label></p>
    <button class="primary" data-a="login" data-testid="do-login">${t('login')}</button>
    <button data-a="register" data-testid="do-register">${t('register')}</button>
    ${me && !me.guest ? `<button type="button" id="logout">${t('logout')}</button>` : ''}
    <div class="err" id="login-err"></div></form></div>`;
  const form = document.getElementById('login');
  form.querySelectorAll('button[data-a]').forEach((b) => b.addEventListener('click', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    try {
      me = await api('POST', `/api/${b.dataset.a}`, { username: f.get('username'), password: f.get('password') });
      renderNav(); location.hash = '#/';
    } catch (err) { document.getElementById('login-err').textContent = err.message; }
  }));
  const lo = document.getElementById('logout');
  if (lo) lo.addEventListener('click', async () => { await api('POST', '/api/logout'); me = null; await ensureSession(); location.hash = '#/'; });
}

async function profileView(name) {
  view.innerHTML = '<div class="card">…</div>';
  try {
    const p = await api('GET', `/api/users/${encodeURIComponent(name)}`);
    view.innerHTML = `<div class="card"><h2>${esc(p.username)}${p.guest ? ' (' + t('guest') + ')' : ''}</h2>
      ${profileRatings(p)}
      ${Object.entries(p.points || {}).map(([family, n]) => `<p data-testid="${esc(family)}-points">${t(family + '_points')}: ${Number(n)}</p>`).join('')}
      <h3>${t('history')}</h3><table>${p.games.map((g) => `<tr><td><a href="#/game/${g.id}">${esc(t(g.game))}</a></td><td>${seatsLine(g, false)}</td><td>${g.result ? t('result_' + g.result) : esc(g.status)}</td><td class="muted">${esc(g.reason || '')}</td><td class="muted">${new Date(g.created_ms).toLocaleString()}</td></tr>`).join('') || `<tr><td>${t('none')}</td></tr>`}</table>
      ${me && !me.guest && me.username === p.username ? `<p><a href="#/login">${t('logout')}</a></p>` : ''}</div>
      ${me && me.username === p.username ? '<div class="card" id="sessions" data-testid="sessions"></div>' : ''}`;
    if (me && me.username === p.username) showSessions();
  } catch (e) { view.innerHTML = `<div class="card err">${esc(e.message)}</div>`; }
}

// A user agent as a person names a device: browser and system.
function device(agent) {
  const a = agent || '';
  const browser = /Edg\//.test(a) ? 'Edge' : /Firefox\//.test(a) ? 'Firefox' : /Chrome\//.test(a) ? 'Chrome' : /Safari\//.test(a) ? 'Safari' : (a.split('/')[0] || '?');
  const os = /Android/.test(a) ? 'Android' : /iPhone|iPad/.test(a) ? 'iOS' : /Windows/.test(a) ? 'Windows' : /Mac OS/.test(a) ? 'macOS' : /Linux/.test(a) ? 'Linux' : '';
  return os ? `${browser} · ${os}` : browser;
}

// One's own sessions, each revocable (the tokens themselves never come back).
async function showSessions() {
  const box = document.getElementById('sessions');
  if (!box) return;
  let list;
  try { list = (await api('GET', '/api/sessions')).sessions; } catch { return; }
  const when = (ms) => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
  box.innerHTML = `<h3>${t('sessions')}</h3><table>${list.map((s) => `<tr><td><b>${esc(device(s.agent))}</b>${s.current ? ` (${t('this_device')})` : ''}
    <div class="muted">${t('last_used')} ${when(s.last_seen_ms)} · ${t('expires')} ${when(s.expires_ms)}</div></td>
    <td>${s.current ? '' : `<button data-sess="${esc(s.id)}">${t('revoke')}</button>`}</td></tr>`).join('')}</table>
    ${list.length > 1 ? `<button id="revoke-others">${t('revoke_others')}</button>` : ''}`;
  box.querySelectorAll('[data-sess]').forEach((b) => b.addEventListener('click', async () => {
    try { await api('DELETE', `/api/sessions/${encodeURIComponent(b.dataset.sess)}`); } catch (err) { alert(err.message); }
    showSessions();
  }));
  const all = document.getElementById('revoke-others');
  if (all) all.addEventListener('click', async () => { try { await api('DELETE', '/api/sessions'); } catch (err) { alert(err.message); } showSessions(); });
}

function rulesView() { view.innerHTML = `<div class="card" data-testid="rules">${t('rules_text')}</div>`; }

function route() {
  cleanup(); cleanup = () => {};
  const h = location.hash.replace(/^#/, '') || '/';
  const parts = h.split('/').filter(Boolean);
  if (parts[0] === 'game' && parts[1]) cleanup = gameView(parts[1]);
  else if (parts[0] === 'user' && parts[1]) profileView(decodeURIComponent(parts[1]));
  else if (parts[0] === 'rules') rulesView();
  else if (parts[0] === 'leaderboard') leaderboardView(view, parts[1] && decodeURIComponent(parts[1]));
  else if (parts[0] === 'events') cleanup = eventsView(view);
  else if (parts[0] === 'event' && parts[1]) cleanup = eventView(view, decodeURIComponent(parts[1]), me);
  else if (parts[0] === 'login') loginView();
  else cleanup = lobbyView();
}

document.getElementById('lang').addEventListener('click', () => { setLang(getLang() === 'zh' ? 'en' : 'zh'); renderNav(); route(); });
window.addEventListener('hashchange', route);
setLang(getLang());
ensureSession().then(loadKinds).then(route);
