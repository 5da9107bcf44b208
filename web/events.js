// @ts-check
// Events: the list with a create form, and one event's pairings, results and
// standings (every tie-break column, H9), refreshed live (NDJSON stream) while it runs.
import { t } from './i18n.js';
import { decorate } from './titles.js';
import { variantNames, seatsOf } from './kinds.js';
import { pickerHtml, bindPicker, entrantName } from './player-picker.js';
import { byId, api, baseText } from './util.js';

function esc(s) { return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }


/**
 * The formats offered, each a preset: the fields it shows (`main` in the
 * form, `more` folded under "More options") and the format the server reads.
 * @type {Record<string, { main: string[], more: string[], format: (f: FormData) => Record<string, any> }>}
 */
const PRESETS = {
  round_robin: { main: [], more: ['tie_breaks'], format: () => ({ kind: 'round_robin', cycles: 1 }) },
  double_round_robin: { main: [], more: ['tie_breaks'], format: () => ({ kind: 'round_robin', cycles: 2 }) },
  knockout: { main: [], more: ['seeding'], format: (f) => ({ kind: 'knockout', seeding: f.get('seeding') === 'drawn' ? 'drawn' : 'seeded' }) },
  swiss: { main: ['rounds'], more: ['baku', 'tie_breaks'], format: (f) => ({ kind: 'swiss', rounds: Number(f.get('rounds')) || 5, accelerated: f.get('accelerated') === 'on' }) },
  three_stage: { main: ['groups', 'advance', 'bracket'], more: ['tie_breaks'], format: (f) => ({ kind: 'three_stage', groups: Number(f.get('groups')) || 4, advance_per_group: Number(f.get('advance')) || 1, final_bracket_size: Number(f.get('bracket')) || 4 }) },
};

/** Every tie-break the server knows, by its stored name (H6, FIDE C.07). */
const TIE_BREAKS = ['sonneborn_berger', 'buchholz', 'wins', 'direct_encounter', 'fouls', 'fide_buchholz', 'buchholz_cut1', 'buchholz_cut2', 'buchholz_median1', 'fide_sonneborn_berger', 'fide_wins', 'games_won', 'games_with_black', 'average_rating_of_opponents', 'progressive_score'];

/** A tie-break in the page's language (its stored name when the catalogue lacks it). @param {{name: string}} x */
const tieBreakName = (x) => { const k = 'tb_' + x.name; const s = t(k); return s === k ? x.name : s; };

function formatName(f) {
  if (!f) return '';
  if (f.kind === 'round_robin') return t(f.cycles === 2 ? 'fmt_double_round_robin' : 'fmt_round_robin');
  if (f.kind === 'knockout') return t(f.seeding === 'drawn' ? 'fmt_knockout_drawn' : 'fmt_knockout');
  if (f.kind === 'swiss' && f.accelerated) return `${t('fmt_swiss')} · ${t('baku')}`;
  return t('fmt_' + f.kind);
}

/** A number field of the form. */
const num = (name, label, value, min) => `<label data-field="${name}">${label} <input name="${name}" type="number" min="${min}" value="${value}" style="width:4.5em"></label>`;

/** `#/events`. Returns a cleanup function. */
export function eventsView(view) {
  const presetButtons = Object.keys(PRESETS).map((k, i) => `<label class="preset"><input type="radio" name="format" value="${k}"${i === 0 ? ' checked' : ''} data-testid="preset-${k}"><span><b>${t('preset_' + k)}</b><small>${t('preset_' + k + '_about')}</small></span></label>`).join('');
  const tbSelect = (n) => `<label>${t('tie_break_n').replace('{n}', String(n))} <select name="tb${n}" data-testid="tie-break-${n}"><option value="">${n === 1 ? t('tie_break_default') : '—'}</option>${TIE_BREAKS.map((k) => `<option value="${k}">${esc(tieBreakName({ name: k }))}</option>`).join('')}</select></label>`;
  view.innerHTML = `<div class="card"><h2>${t('new_event')}</h2><form id="ev-create" class="event-form" data-testid="event-form">
    <p><label>${t('name')} <input name="name" style="width:12em" placeholder="${esc(t('event_name_placeholder'))}"></label>
    <label>${t('game')} <select name="game">${variantNames().filter((g) => seatsOf(g).includes(2)).map((g) => `<option value="${g}">${t(g)}</option>`).join('')}</select></label>
    <label>${t('clock')} <input name="minutes" type="number" min="1" value="5" style="width:4em" aria-label="${esc(t('minutes'))}"> ${t('min_short')} + <input name="inc" type="number" min="0" value="3" style="width:4em" aria-label="${esc(t('increment'))}"> ${t('sec_short')}</label></p>
    <fieldset class="presets"><legend>${t('format')}</legend>${presetButtons}</fieldset>
    <p class="preset-fields">${num('rounds', t('swiss_rounds'), 5, 1)}${num('groups', t('groups'), 4, 1)}${num('advance', t('advance'), 1, 1)}${num('bracket', t('bracket'), 4, 2)}</p>
    <div class="field-block"><b>${t('players')}</b> ${pickerHtml('players')}</div>
    <p><label><input name="start" type="checkbox" data-testid="start-now"> ${t('start_now')}</label></p>
    <details class="more" data-testid="more-options"><summary>${t('more_options')}</summary>
      <p><label data-field="seeding">${t('seeding')} <select name="seeding" data-testid="seeding"><option value="seeded">${t('seeding_seeded')}</option><option value="drawn">${t('seeding_drawn')}</option></select></label>
      <label data-field="baku" title="${esc(t('baku_hint'))}"><input name="accelerated" type="checkbox" data-testid="baku"> ${t('baku')}</label>
      <label><input name="rated" type="checkbox" data-testid="event-rated"> ${t('event_rated')}</label></p>
      <p data-field="tie_breaks" data-testid="tie-breaks">${tbSelect(1)} ${tbSelect(2)} ${tbSelect(3)}</p>
    </details>
    <button class="primary" data-testid="create-event">${t('create_event')}</button><div class="err" id="ev-err" data-testid="event-error"></div></form></div>
    <div class="card"><h2>${t('events')}</h2><div id="ev-list">…</div></div>`;
  const form = /** @type {HTMLFormElement} */ (byId('ev-create'));
  const players = bindPicker(/** @type {HTMLElement} */ (form.querySelector('[data-picker]')));
  // Only the fields the chosen format uses.
  const showFields = () => {
    const p = PRESETS[String(new FormData(form).get('format'))] || PRESETS.round_robin;
    /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll('[data-field]')).forEach((el) => { el.hidden = !p.main.includes(String(el.dataset.field)) && !p.more.includes(String(el.dataset.field)); });
    /** @type {HTMLElement} */ (form.querySelector('.preset-fields')).hidden = !p.main.length;
  };
  form.addEventListener('change', (e) => { if (/** @type {HTMLInputElement} */ (e.target).name === 'format') showFields(); });
  showFields();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const preset = PRESETS[String(f.get('format'))] || PRESETS.round_robin;
    const body = {
      game: f.get('game'), format: preset.format(f),
      clock: { initial_s: Number(f.get('minutes')) * 60, increment_s: Number(f.get('inc')) },
      players: players.entries(),
      start: f.get('start') === 'on',
      rated: f.get('rated') === 'on',
    };
    // No name given: the game and the format, in the page's language.
    body.name = String(f.get('name') || '').trim() || `${t(String(f.get('game')))} · ${t('preset_' + f.get('format'))}`;
    // Tie-breaks in order; none chosen keeps the format's defaults (H6).
    const tbs = preset.more.includes('tie_breaks') ? [1, 2, 3].map((n) => String(f.get('tb' + n) || '')).filter(Boolean) : [];
    if (tbs.length) body.settings = { tie_breaks: [...new Set(tbs)] };
    try { const ev = await api('POST', '/api/events', body); location.hash = `#/event/${ev.id}`; }
    catch (err) { byId('ev-err').textContent = err.message; }
  });
  api('GET', '/api/events').then((d) => {
    byId('ev-list').innerHTML = d.events.length
      ? `<table>${d.events.map((e) => `<tr><td><a href="#/event/${e.id}">${esc(e.name)}</a></td><td>${esc(t(e.game))}</td><td>${esc(formatName(e.format))}</td><td>${t('n_players').replace('{n}', String(e.players))}</td><td>${esc(t('ev_' + e.status))}</td></tr>`).join('')}</table>`
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
  return `${esc(entrantName(name))}${slot}`;
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
    const standings = st ? `<table data-testid="standings"><tr>${cols.map((c) => `<th${c === 'fouls' ? ` title="${esc(t('fouls_about'))}"` : ''}>${t('col_' + c)}</th>`).join('')}${fideCols.map((x) => `<th title="${esc(tieBreakName(x))}">${esc(x.abbreviation || tieBreakName(x))}</th>`).join('')}</tr>${st.rows.map((r) => `<tr>${cols.map((c) => `<td>${c === 'name' ? nameCell(r.name, ev.game) : c === 'rank' ? r.rank + (r.shared ? '=' : '') : esc(num(r[c]))}</td>`).join('')}${fideCols.map((x) => `<td>${fideCell(r, x)}</td>`).join('')}</tr>`).join('')}</table>
      <p class="muted small" data-testid="fouls-about">${t('fouls_about')}</p>
      <p class="muted" data-testid="tie-break-order">${t('tie_breaks')}${t('colon')}${st.tie_breaks.map((x) => esc(tieBreakName(x))).join(' → ')} · <a href="/api/events/${id}/standings.csv" data-testid="csv">CSV</a> · <a href="/api/events/${id}/tournament.trf" data-testid="trf" download>${t('export_trf')}</a></p>` : '';
    const rounds = ev.rounds.slice().reverse().map((r) => `<h3>${t('round')} ${r.number}${ev.stages && ev.stages.length > 1 ? ` · ${t('stage')} ${r.stage}` : ''}</h3>
      <table>${r.pairings.map((p) => `<tr><td class="muted">${p.board}${p.group ? ` · ${t('group')} ${p.group}` : ''}${p.playoff_of ? ` · ${t('playoff')}` : ''}</td><td>${nameCell(p.red, ev.game)}</td><td>${resultCell(p)}</td><td>${nameCell(p.black, ev.game)}</td></tr>`).join('')}
      ${r.byes.length ? `<tr><td class="muted">${t('bye')}</td><td colspan="3">${r.byes.map((b) => esc(entrantName(b))).join(t('list_sep'))}</td></tr>` : ''}</table>`).join('');
    const playoffs = (ev.playoffs || []).map((po) => `<p>${t('playoff')} (${t('col_rank')} ${po.place}): ${po.games.map((g) => `${esc(entrantName(g.red))} – ${esc(entrantName(g.black))} <a href="#/game/${g.game_id}">${esc(g.result || t('ev_playing'))}</a>`).join('; ')}</p>`).join('');
    view.innerHTML = `<div class="card" data-testid="event"><h2>${esc(ev.name)}</h2>
      <p>${esc(t(ev.game))} · ${esc(formatName(ev.format))} · ${baseText(ev.clock.initial_s)}+${ev.clock.increment_s} · <b data-testid="event-status">${esc(t('ev_' + ev.status))}</b>${ev.winner ? ` · ${t('winner')}${t('colon')}<b>${esc(entrantName(ev.winner))}</b>` : ''}${ev.error && ev.status !== 'declined' ? ` · <span class="err" data-testid="event-error" title="${esc(ev.error)}">${t('ev_error_detail')}</span>` : ''}</p>
      <p data-testid="event-players">${t('players')}${t('colon')}${ev.players.map((p) => esc(entrantName(p))).join(t('list_sep')) || t('none')}</p>
      ${invited.length ? `<p class="muted" data-testid="invited">${t('invited')}${t('colon')}${invited.map(esc).join(t('list_sep'))}</p>` : ''}
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
