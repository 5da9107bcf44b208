// @ts-check
// Events: the list with a create form, and one event's pairings, results and
// standings (every tie-break column, H9), refreshed live (NDJSON stream) while it runs.
import { t } from './i18n.js';
import { decorate } from './titles.js';
import { variantNames } from './kinds.js';
import { byId } from './util.js';

function esc(s) { return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

async function api(method, path, body) {
  const r = await fetch(path, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined, credentials: 'same-origin' });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText);
  return data;
}

const FORMATS = {
  round_robin: () => ({ kind: 'round_robin', cycles: 1 }),
  double_round_robin: () => ({ kind: 'round_robin', cycles: 2 }),
  knockout: () => ({ kind: 'knockout', seeding: 'seeded' }),
  knockout_drawn: () => ({ kind: 'knockout', seeding: 'drawn' }),
  swiss: (f) => ({ kind: 'swiss', rounds: Number(f.get('rounds')) || 5, accelerated: f.get('accelerated') === 'on' }),
  three_stage: (f) => ({ kind: 'three_stage', groups: Number(f.get('groups')) || 4, advance_per_group: Number(f.get('advance')) || 1, final_bracket_size: Number(f.get('bracket')) || 4 }),
};

function formatName(f) {
  if (!f) return '';
  if (f.kind === 'round_robin') return t(f.cycles === 2 ? 'fmt_double_round_robin' : 'fmt_round_robin');
  if (f.kind === 'swiss' && f.accelerated) return `${t('fmt_swiss')} · ${t('baku')}`;
  return t('fmt_' + f.kind);
}

/** `#/events`. Returns a cleanup function. */
export function eventsView(view) {
  view.innerHTML = `<div class="card"><h2>${t('new_event')}</h2><form id="ev-create" data-testid="event-form">
    <label>${t('name')} <input name="name" style="width:12em"></label>
    <label>${t('game')} <select name="game">${variantNames().map((g) => `<option value="${g}">${t(g)}</option>`).join('')}</select></label>
    <label>${t('format')} <select name="format">${Object.keys(FORMATS).map((k) => `<option value="${k}">${t('fmt_' + k)}</option>`).join('')}</select></label>
    <label>${t('swiss_rounds')} <input name="rounds" type="number" min="1" value="5" style="width:4em"></label>
    <label title="${esc(t('baku_hint'))}"><input name="accelerated" type="checkbox" data-testid="baku"> ${t('baku')}</label>
    <label>${t('groups')} <input name="groups" type="number" min="1" value="4" style="width:4em"></label>
    <label>${t('advance')} <input name="advance" type="number" min="1" value="1" style="width:4em"></label>
    <label>${t('bracket')} <input name="bracket" type="number" min="2" value="4" style="width:4em"></label>
    <label>${t('minutes')} <input name="minutes" type="number" min="1" value="5" style="width:4em"></label>
    <label>${t('increment')} <input name="inc" type="number" min="0" value="3" style="width:4em"></label>
    <label>${t('players')} <input name="players" placeholder="alice, bob, ai:3, ai:5" style="width:20em"></label>
    <label>${t('tie_breaks')} <input name="tie_breaks" placeholder="buchholz_cut1, fide_sonneborn_berger, direct_encounter" title="sonneborn_berger buchholz wins direct_encounter fouls · FIDE C.07: fide_buchholz buchholz_cut1 buchholz_cut2 buchholz_median1 fide_sonneborn_berger fide_wins games_won games_with_black average_rating_of_opponents progressive_score" style="width:20em" data-testid="tie-breaks"></label>
    <label><input name="start" type="checkbox"> ${t('start_now')}</label>
    <button class="primary">${t('create_event')}</button><div class="err" id="ev-err"></div></form></div>
    <div class="card"><h2>${t('events')}</h2><div id="ev-list">…</div></div>`;
  byId('ev-create').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
    const body = {
      game: f.get('game'), format: FORMATS[f.get('format')](f),
      clock: { initial_s: Number(f.get('minutes')) * 60, increment_s: Number(f.get('inc')) },
      players: String(f.get('players') || '').split(',').map((s) => s.trim()).filter(Boolean),
      start: f.get('start') === 'on',
    };
    if (f.get('name')) body.name = f.get('name');
    // Tie-breaks in order, by stored name; empty keeps the format's defaults (H6).
    const tbs = String(f.get('tie_breaks') || '').split(',').map((s) => s.trim()).filter(Boolean);
    if (tbs.length) body.settings = { tie_breaks: tbs };
    try { const ev = await api('POST', '/api/events', body); location.hash = `#/event/${ev.id}`; }
    catch (err) { byId('ev-err').textContent = err.message; }
  });
  api('GET', '/api/events').then((d) => {
    byId('ev-list').innerHTML = d.events.length
      ? `<table>${d.events.map((e) => `<tr><td><a href="#/event/${e.id}">${esc(e.name)}</a></td><td>${esc(t(e.game))}</td><td>${esc(formatName(e.format))}</td><td>${e.players}</td><td>${esc(t('ev_' + e.status))}</td></tr>`).join('')}</table>`
      : `<p class="muted">${t('none')}</p>`;
  }).catch((e) => { byId('ev-list').textContent = e.message; });
  return () => {};
}

function resultCell(p) {
  if (!p.game_id) return '<span class="muted">—</span>';
  const r = p.result || t('ev_playing');
  return `<a href="#/game/${p.game_id}">${esc(r)}</a>`;
}

function nameCell(name, game) {
  const slot = ` <span data-rname="${esc(name.replace(/#\d+$/, ''))}" data-rgame="${esc(game)}"></span>`;
  return `${esc(name)}${slot}`;
}

/**
 * `#/event/{id}`: follows the event's NDJSON stream (`/api/events/{id}/stream`)
 * and reloads on every change; a slow poll carries on in case the stream drops.
 */
export function eventView(view, id, me) {
  let timer = null, stopped = false, live = false, ctrl = null, soon = null, status = null;
  function schedule() {
    clearTimeout(soon);
    soon = setTimeout(() => { if (!stopped) load(); }, 150);
  }
  async function follow() {
    ctrl = new AbortController();
    try {
      const r = await fetch(`/api/events/${encodeURIComponent(id)}/stream`, { signal: ctrl.signal, credentials: 'same-origin' });
      if (r.ok && r.body) {
        live = true;
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done || stopped) break;
          buf += dec.decode(value, { stream: true });
          let changed = false, i;
          while ((i = buf.indexOf('\n')) >= 0) {
            if (buf.slice(0, i).trim()) changed = true;
            buf = buf.slice(i + 1);
          }
          if (changed) schedule();
        }
      }
    } catch { /* aborted or dropped: the poll carries on */ }
    live = false;
    // Reconnect while the event can still change.
    if (!stopped && (status === 'running' || status === 'open')) setTimeout(() => { if (!stopped) follow(); }, 5000);
  }
  async function load() {
    let ev, st = null;
    try {
      ev = await api('GET', `/api/events/${encodeURIComponent(id)}`);
      if (ev.rounds.length) st = await api('GET', `/api/events/${encodeURIComponent(id)}/standings`);
    } catch (e) { view.innerHTML = `<div class="card err">${esc(e.message)}</div>`; return; }
    if (stopped) return;
    status = ev.status;
    const invited = ev.invited || [];
    const isInvited = ev.status === 'open' && me && invited.includes(me.username);
    const canJoin = ev.status === 'open' && me && !ev.players.includes(me.username);
    const canStart = ev.status === 'open' && me && ev.organiser === me.username;
    const cols = ['rank', 'name', 'score', 'sonneborn_berger', 'buchholz', 'wins', 'direct', 'fouls', 'games'];
    const num = (v) => (v == null ? '' : Number.isInteger(v) ? v : v.toFixed(1));
    // FIDE tie-breaks (C.07) the event chose that have no column above, by their abbreviation.
    const fideCols = st ? st.tie_breaks.filter((x) => st.rows.some((r) => (r.fide || []).some((v) => v.tie_break === x.name))) : [];
    const fideCell = (r, x) => { const v = (r.fide || []).find((f) => f.tie_break === x.name); return v ? esc(num(v.value)) : ''; };
    const standings = st ? `<table data-testid="standings"><tr>${cols.map((c) => `<th>${t('col_' + c)}</th>`).join('')}${fideCols.map((x) => `<th title="${esc(x.fide)} · ${esc(x.chinese)}">${esc(x.abbreviation || x.fide)}</th>`).join('')}</tr>${st.rows.map((r) => `<tr>${cols.map((c) => `<td>${c === 'name' ? nameCell(r.name, ev.game) : c === 'rank' ? r.rank + (r.shared ? '=' : '') : esc(num(r[c]))}</td>`).join('')}${fideCols.map((x) => `<td>${fideCell(r, x)}</td>`).join('')}</tr>`).join('')}</table>
      <p class="muted">${t('tie_breaks')}: ${st.tie_breaks.map((x) => `${esc(x.chinese)} (${esc(x.fide)})`).join(' → ')} · <a href="/api/events/${id}/standings.csv" data-testid="csv">CSV</a> · <a href="/api/events/${id}/tournament.trf" data-testid="trf" download>${t('export_trf')}</a></p>` : '';
    const rounds = ev.rounds.slice().reverse().map((r) => `<h3>${t('round')} ${r.number}${ev.stages && ev.stages.length > 1 ? ` · ${t('stage')} ${r.stage}` : ''}</h3>
      <table>${r.pairings.map((p) => `<tr><td class="muted">${p.board}${p.group ? ` · ${t('group')} ${p.group}` : ''}${p.playoff_of ? ` · ${t('playoff')}` : ''}</td><td>${nameCell(p.red, ev.game)}</td><td>${resultCell(p)}</td><td>${nameCell(p.black, ev.game)}</td></tr>`).join('')}
      ${r.byes.length ? `<tr><td class="muted">${t('bye')}</td><td colspan="3">${r.byes.map(esc).join(', ')}</td></tr>` : ''}</table>`).join('');
    const playoffs = (ev.playoffs || []).map((po) => `<p>${t('playoff')} (${t('col_rank')} ${po.place}): ${po.games.map((g) => `${esc(g.red)} – ${esc(g.black)} <a href="#/game/${g.game_id}">${esc(g.result || t('ev_playing'))}</a>`).join('; ')}</p>`).join('');
    view.innerHTML = `<div class="card" data-testid="event"><h2>${esc(ev.name)}</h2>
      <p>${esc(t(ev.game))} · ${esc(formatName(ev.format))} · ${ev.clock.initial_s / 60}+${ev.clock.increment_s} · <b data-testid="event-status">${esc(t('ev_' + ev.status))}</b>${ev.winner ? ` · ${t('winner')}: <b>${esc(ev.winner)}</b>` : ''}${ev.error ? ` · <span class="err">${esc(ev.error)}</span>` : ''}</p>
      <p>${t('players')}: ${ev.players.map(esc).join(', ') || t('none')}</p>
      ${invited.length ? `<p class="muted" data-testid="invited">${t('invited')}: ${invited.map(esc).join(', ')}</p>` : ''}
      ${canJoin ? `<button id="ev-join">${t(isInvited ? 'accept' : 'join')}</button>` : ''}${isInvited ? ` <button id="ev-decline">${t('decline')}</button>` : ''} ${canStart ? `<button id="ev-start" class="primary">${t('start')}</button>` : ''}<div class="err" id="ev-err"></div></div>
      ${st ? `<div class="card"><h2>${t('standings')}${ev.stages && ev.stages.length > 1 ? ` · ${t('stage')} ${ev.stage}` : ''}</h2>${standings}</div>` : ''}
      ${rounds || playoffs ? `<div class="card">${playoffs}${rounds}</div>` : ''}`;
    const bind = (elId, path) => { const b = document.getElementById(elId); if (b) b.addEventListener('click', async () => { try { await api('POST', path); load(); } catch (e) { byId('ev-err').textContent = e.message; } }); };
    bind('ev-join', `/api/events/${id}/join`);
    bind('ev-decline', `/api/events/${id}/decline`);
    bind('ev-start', `/api/events/${id}/start`);
    decorate(view);
    clearTimeout(timer);
    // The stream brings changes; the poll is a slow fallback (faster while the stream is down).
    if (ev.status === 'running' || ev.status === 'open') timer = setTimeout(load, live ? 15000 : 4000);
  }
  view.innerHTML = '<div class="card">…</div>';
  load();
  follow();
  return () => { stopped = true; clearTimeout(timer); clearTimeout(soon); if (ctrl) ctrl.abort(); };
}
