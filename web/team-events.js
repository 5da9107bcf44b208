// @ts-check
// Team events (H7): the list with a create form, and one event's teams,
// standings (match points, game points, game wins, direct encounter, fouls:
// every column, H9, with the CSV) and every round's matches board by board,
// refreshed while it runs.
import { t } from './i18n.js';
import { api, esc, byId } from './util.js';
import { variantNames } from './kinds.js';

/** "Red: alice, ai:3" lines → teams; a Chinese keyboard's ：and ，work too. */
export function parseTeams(text) {
  return String(text || '').split('\n').map((line) => line.trim()).filter(Boolean).map((line) => {
    const i = line.search(/[:：]/);
    const name = (i > 0 ? line.slice(0, i) : line).trim();
    const players = (i > 0 ? line.slice(i + 1) : '').split(/[,，、]/).map((s) => s.trim()).filter(Boolean);
    return { name, players };
  });
}

/** `#/team-events`. Returns a cleanup function. */
export function teamEventsView(view) {
  view.innerHTML = `<div class="card"><h2>${t('new_team_event')}</h2><form id="te-create" data-testid="team-event-form">
    <label>${t('name')} <input name="name" style="width:12em"></label>
    <label>${t('game')} <select name="game">${variantNames().map((g) => `<option value="${g}">${t(g)}</option>`).join('')}</select></label>
    <label>${t('minutes')} <input name="minutes" type="number" min="1" value="5" style="width:4em"></label>
    <label>${t('increment')} <input name="inc" type="number" min="0" value="3" style="width:4em"></label>
    <label class="block">${t('te_teams')}<br><textarea name="teams" rows="4" style="width:100%;max-width:32em" placeholder="${esc(t('te_teams_example'))}"></textarea></label>
    <button class="primary">${t('create_team_event')}</button><div class="err" id="te-err"></div></form></div>
    <div class="card"><h2>${t('team_events')}</h2><div id="te-list" data-testid="team-event-list">…</div></div>`;
  byId('te-create').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
    const body = {
      game: f.get('game'),
      clock: { initial_s: Number(f.get('minutes')) * 60, increment_s: Number(f.get('inc')) },
      teams: parseTeams(f.get('teams')),
    };
    if (f.get('name')) body.name = f.get('name');
    try { const ev = await api('POST', '/api/team-events', body); location.hash = `#/team-event/${ev.id}`; }
    catch (err) { byId('te-err').textContent = err.message; }
  });
  api('GET', '/api/team-events').then((d) => {
    const list = d.team_events || [];
    byId('te-list').innerHTML = list.length
      ? `<table>${list.map((e) => `<tr><td><a href="#/team-event/${esc(e.id)}">${esc(e.name)}</a></td><td>${esc(t(e.game))}</td><td>${e.teams} ${t('te_teams_short')} × ${e.boards} ${t('te_boards_short')}</td><td>${esc(e.organiser)}</td><td>${esc(t('ev_' + e.status))}</td></tr>`).join('')}</table>`
      : `<p class="muted">${t('none')}</p>`;
  }).catch((e) => { byId('te-list').textContent = e.message; });
  return () => {};
}

const num = (v) => (v == null ? '' : Number.isInteger(v) ? v : Number(v).toFixed(1));

function boardResult(b, armageddon) {
  if (!b.game_id) return '<span class="muted">—</span>';
  // In an armageddon play-off a draw (or a game past the cap) is black's win.
  const drawn = b.result === '1/2-1/2' || b.result === '0-0';
  const r = armageddon && drawn ? `${b.result === '0-0' ? '0–0' : '½–½'} → 0–1` : { '1/2-1/2': '½–½' }[b.result] || b.result || t('ev_playing');
  return `<a href="#/game/${esc(b.game_id)}" data-testid="board-result">${esc(r)}</a>`;
}

/** `#/team-event/{id}`: reloads every few seconds while the event can change. */
export function teamEventView(view, id, me) {
  let timer = null, stopped = false;
  const path = `/api/team-events/${encodeURIComponent(id)}`;
  async function load() {
    let ev, st;
    try {
      ev = await api('GET', path);
      st = await api('GET', `${path}/standings`);
    } catch (e) { view.innerHTML = `<div class="card err">${esc(e.message)}</div>`; return; }
    if (stopped) return;
    const invited = ev.invited || [];
    const mine = me && invited.includes(me.username) && ev.status === 'invited';
    const cols = ['rank', 'name', 'match_points', 'game_points', 'game_wins', 'direct', 'fouls'];
    const head = cols.map((c) => `<th>${t(c === 'name' ? 'col_team' : 'col_' + c)}</th>`).join('');
    const rows = st.rows.map((r) => `<tr>${cols.map((c) => `<td>${c === 'rank' ? r.rank + (r.shared ? '=' : '') : esc(c === 'name' ? r.name : num(r[c]))}</td>`).join('')}</tr>`).join('');
    const teams = ev.teams.map((tm) => `<tr><td><b>${esc(tm.name)}</b></td><td>${tm.players.map((p, k) => `<span class="muted">${k + 1}.</span> ${esc(p)}`).join(' · ')}</td></tr>`).join('');
    const roundHtml = (r, armageddon) => `<h3>${t('te_round_n').replace('{n}', r.number)}</h3>
      ${r.matches.map((m) => `<table class="te-match" data-testid="match"><tr><th colspan="4">${esc(m.home)} – ${esc(m.away)}</th></tr>
        ${m.boards.map((b) => `<tr><td class="muted">${t('te_board_n').replace('{n}', b.board)}</td><td>${esc(b.red)}</td><td>${boardResult(b, armageddon)}</td><td>${esc(b.black)}</td></tr>`).join('')}</table>`).join('')}
      ${r.bye ? `<p class="muted">${t('bye')}: ${esc(r.bye)}</p>` : ''}`;
    const rounds = ev.rounds.map((r) => roundHtml(r, false)).join('');
    // H8: play-offs for places that may not be shared, armageddon boards.
    const playoffs = (ev.playoffs || []).map((p) => `<div class="card" data-testid="team-playoff">
      <h2>${t('te_playoff_for').replace('{n}', p.place)}: ${p.teams.map(esc).join(' · ')}</h2>
      <p class="muted">${t('te_playoff_rule')}</p>
      ${p.order ? `<p data-testid="playoff-order"><b>${p.order.map((name, k) => `${p.place + k}. ${esc(name)}`).join(' · ')}</b></p>` : ''}
      ${p.rounds.map((r) => roundHtml(r, true)).join('')}</div>`).join('');
    const pending = (st.needs_playoff || []).map((x) => `<p class="muted" data-testid="needs-playoff">${t('te_playoff_pending').replace('{n}', x.place)}: ${x.teams.map(esc).join(', ')}</p>`).join('');
    view.innerHTML = `<div class="card" data-testid="team-event"><h2>${esc(ev.name)}</h2>
      <p>${esc(t(ev.game))} · ${ev.clock.initial_s / 60}+${ev.clock.increment_s} · <b data-testid="team-event-status">${esc(t('ev_' + ev.status))}</b> · ${t('organiser')}: ${esc(ev.organiser)}${ev.error ? ` · <span class="err">${esc(ev.error)}</span>` : ''}</p>
      ${invited.length ? `<p class="muted" data-testid="invited">${t('invited')}: ${invited.map(esc).join(', ')}</p>` : ''}
      ${mine ? `<button id="te-accept" class="primary">${t('accept')}</button> <button id="te-decline">${t('decline')}</button>` : ''}<div class="err" id="te-err"></div>
      <table>${teams}</table></div>
      <div class="card"><h2>${t('standings')}</h2><table data-testid="team-standings"><tr>${head}</tr>${rows}</table>
      <p class="muted">${t('tie_breaks')}: ${st.tie_breaks.map((x) => `${esc(x.chinese)} (${esc(x.fide)})`).join(' → ')} · <a href="${path}/standings.csv" data-testid="csv">CSV</a></p>${pending}</div>
      ${playoffs}
      ${rounds ? `<div class="card">${rounds}</div>` : ''}`;
    for (const [elId, verb] of [['te-accept', 'accept'], ['te-decline', 'decline']]) {
      const b = document.getElementById(elId);
      if (b) b.addEventListener('click', async () => { try { await api('POST', `${path}/${verb}`); load(); } catch (e) { byId('te-err').textContent = e.message; } });
    }
    clearTimeout(timer);
    if (ev.status === 'running' || ev.status === 'invited') timer = setTimeout(load, 3000);
  }
  view.innerHTML = '<div class="card">…</div>';
  load();
  return () => { stopped = true; clearTimeout(timer); };
}
