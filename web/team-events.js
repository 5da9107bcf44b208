// @ts-check
// Team events (H7): the list with a create form, and one event's teams,
// standings (match points, game points, game wins, direct encounter, fouls:
// every column, H9, with the CSV) and every round's matches board by board,
// refreshed while it runs.
import { t, getLang } from './i18n.js';
import { api, esc, byId, baseText } from './util.js';
import { variantNames, seatsOf } from './kinds.js';
import { pickerHtml, bindPicker, entrantName } from './player-picker.js';

/** The teams a new team event starts with (more can be added, 16 at most). */
const FIRST_TEAMS = 2;
const MAX_TEAMS = 16;

/** One team's row of the form: its name and its players in board order. @param {number} i */
function teamRow(i) {
  return `<div class="team-row" data-team="${i}" data-testid="team-${i}">
    <label>${t('te_team_name')} <input name="team-name" style="width:10em" value="${esc(t('te_team_default').replace('{n}', String(i + 1)))}" data-testid="team-${i}-name"></label>
    <span class="muted small">${t('te_board_order')}</span>
    ${pickerHtml(`team-${i}-players`)}</div>`;
}

/** `#/team-events`. Returns a cleanup function. */
export function teamEventsView(view) {
  view.innerHTML = `<div class="card"><h2>${t('new_team_event')}</h2><form id="te-create" class="event-form" data-testid="team-event-form">
    <p><label>${t('name')} <input name="name" style="width:12em" placeholder="${esc(t('event_name_placeholder'))}"></label>
    <label>${t('game')} <select name="game">${variantNames().filter((g) => seatsOf(g).includes(2)).map((g) => `<option value="${g}">${t(g)}</option>`).join('')}</select></label>
    <label>${t('clock')} <input name="minutes" type="number" min="1" value="5" style="width:4em" aria-label="${esc(t('minutes'))}"> ${t('min_short')} + <input name="inc" type="number" min="0" value="3" style="width:4em" aria-label="${esc(t('increment'))}"> ${t('sec_short')}</label></p>
    <fieldset class="teams"><legend>${t('te_teams_legend')}</legend><div id="te-teams"></div>
      <button type="button" id="te-add-team" data-testid="add-team">${t('te_add_team')}</button> <span class="muted small">${t('te_same_size')}</span></fieldset>
    <button class="primary" data-testid="create-team-event">${t('create_team_event')}</button><div class="err" id="te-err" data-testid="team-event-error"></div></form></div>
    <div class="card"><h2>${t('team_events')}</h2><div id="te-list" data-testid="team-event-list">…</div></div>`;
  const box = byId('te-teams');
  /** @type {{ entries: () => string[] }[]} */
  const pickers = [];
  const addTeam = () => {
    if (pickers.length >= MAX_TEAMS) return;
    box.insertAdjacentHTML('beforeend', teamRow(pickers.length));
    const rows = box.querySelectorAll('.team-row');
    pickers.push(bindPicker(/** @type {HTMLElement} */ (rows[rows.length - 1].querySelector('[data-picker]'))));
  };
  for (let i = 0; i < FIRST_TEAMS; i++) addTeam();
  byId('te-add-team').addEventListener('click', addTeam);
  byId('te-create').addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
    const names = f.getAll('team-name').map((n) => String(n).trim());
    // A team with nobody in it is left out (the rows beyond those filled).
    const teams = pickers.map((p, i) => ({ name: names[i] || t('te_team_default').replace('{n}', String(i + 1)), players: p.entries() })).filter((tm) => tm.players.length);
    const body = {
      game: f.get('game'),
      clock: { initial_s: Number(f.get('minutes')) * 60, increment_s: Number(f.get('inc')) },
      teams,
    };
    body.name = String(f.get('name') || '').trim() || `${t(String(f.get('game')))} · ${t('team_event')}`;
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

/** A team tie-break in the page's language. @param {{name: string, chinese: string, fide: string}} x */
const tieBreakLabel = (x) => { const k = 'tb_' + x.name; const v = t(k); return v !== k ? v : getLang() === 'zh' ? x.chinese : x.fide; };

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
    const teams = ev.teams.map((tm) => `<tr><td><b>${esc(tm.name)}</b></td><td>${tm.players.map((p, k) => `<span class="muted">${k + 1}.</span> ${esc(entrantName(p))}`).join(' · ')}</td></tr>`).join('');
    const roundHtml = (r, armageddon) => `<h3>${t('te_round_n').replace('{n}', r.number)}</h3>
      ${r.matches.map((m) => `<table class="te-match" data-testid="match"><tr><th colspan="4">${esc(m.home)} – ${esc(m.away)}</th></tr>
        ${m.boards.map((b) => `<tr><td class="muted">${t('te_board_n').replace('{n}', b.board)}</td><td>${esc(entrantName(b.red))}</td><td>${boardResult(b, armageddon)}</td><td>${esc(entrantName(b.black))}</td></tr>`).join('')}</table>`).join('')}
      ${r.bye ? `<p class="muted">${t('bye')}${t('colon')}${esc(r.bye)}</p>` : ''}`;
    const rounds = ev.rounds.map((r) => roundHtml(r, false)).join('');
    // H8: play-offs for places that may not be shared, armageddon boards.
    const playoffs = (ev.playoffs || []).map((p) => `<div class="card" data-testid="team-playoff">
      <h2>${t('te_playoff_for').replace('{n}', p.place)}${t('colon')}${p.teams.map(esc).join(' · ')}</h2>
      <p class="muted">${t('te_playoff_rule')}</p>
      ${p.order ? `<p data-testid="playoff-order"><b>${p.order.map((name, k) => `${p.place + k}. ${esc(name)}`).join(' · ')}</b></p>` : ''}
      ${p.rounds.map((r) => roundHtml(r, true)).join('')}</div>`).join('');
    const pending = (st.needs_playoff || []).map((x) => `<p class="muted" data-testid="needs-playoff">${t('te_playoff_pending').replace('{n}', x.place)}${t('colon')}${x.teams.map(esc).join(t('list_sep'))}</p>`).join('');
    view.innerHTML = `<div class="card" data-testid="team-event"><h2>${esc(ev.name)}</h2>
      <p>${esc(t(ev.game))} · ${baseText(ev.clock.initial_s)}+${ev.clock.increment_s} · <b data-testid="team-event-status">${esc(t('ev_' + ev.status))}</b> · ${t('organiser')}${t('colon')}${esc(ev.organiser)}${ev.error && ev.status !== 'declined' ? ` · <span class="err" data-testid="event-error" title="${esc(ev.error)}">${t('ev_error_detail')}</span>` : ''}</p>
      ${invited.length ? `<p class="muted" data-testid="invited">${t('invited')}${t('colon')}${invited.map(esc).join(t('list_sep'))}</p>` : ''}
      ${mine ? `<button id="te-accept" class="primary">${t('accept')}</button> <button id="te-decline">${t('decline')}</button>` : ''}<div class="err" id="te-err"></div>
      <table>${teams}</table></div>
      <div class="card"><h2>${t('standings')}</h2><table data-testid="team-standings"><tr>${head}</tr>${rows}</table>
      <p class="muted">${t('tie_breaks')}${t('colon')}${st.tie_breaks.map((x) => esc(tieBreakLabel(x))).join(' → ')} · <a href="${path}/standings.csv" data-testid="csv">CSV</a></p>${pending}</div>
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
