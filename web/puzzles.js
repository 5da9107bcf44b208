// @ts-check
// Puzzles (#/puzzles, issue 40): the board after the opponent's setting-up
// move, the player finds the solution move by move (a right move plays the
// opponent's reply, a wrong one is a miss and the solution is played out),
// a hint marks the piece to move, themes to choose, a streak (unrated, ends
// at the first miss), the daily puzzle, and the player's rating, history
// and chart. Guests play unrated. The board is the game's own module
// (kinds.js), drawn from the positions the server sends with the puzzle;
// the legal moves come with it, so nothing here knows any game's rules.
// The 排局 tab lists the classic composed endgames (`GET
// /api/puzzles/classics`) and starts a game against the engine from one.
import { t } from './i18n.js';
import { api, esc, byId } from './util.js';
import { gameModule, hooksOf } from './kinds.js';
import { pairClick, pairTargets, pairLast } from './pair-moves.js';

const MOVE_MS = 450;
const STREAK_START = 800;
const STREAK_STEP = 60;

/** @typedef {{ move: string, seat: number, solver: boolean, fen: string, alerts: string[], legal: string[] }} Step */
/** @typedef {{ id: string, variant: string, rating: number, plays: number, themes: string[], fen: string, solver: number, steps: Step[] }} Puzzle */

/** The squares a move marks, through the game's hook. @param {string} variant @param {string | undefined} mv */
function squaresOf(variant, mv) {
  if (!mv) return [];
  const h = hooksOf(variant);
  return (h.last || pairLast)({ iccs: mv, text: mv });
}

/** A small SVG chart of ratings, oldest first. @param {number[]} pts */
export function chartSvg(pts) {
  if (pts.length < 2) return '';
  const W = 300;
  const H = 80;
  const lo = Math.min(...pts) - 10;
  const hi = Math.max(...pts) + 10;
  const x = (i) => ((i / (pts.length - 1)) * (W - 44) + 40).toFixed(1);
  const y = (v) => (H - 4 - ((v - lo) / (hi - lo)) * (H - 8)).toFixed(1);
  const line = pts.map((v, i) => `${x(i)},${y(v)}`).join(' ');
  return `<svg class="pz-chart" data-testid="pz-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t('pz_chart'))}">
    <polyline points="${line}" fill="none" stroke="currentColor" stroke-width="2"/>
    <text x="2" y="12" font-size="11" fill="currentColor">${Math.round(hi - 10)}</text>
    <text x="2" y="${H - 2}" font-size="11" fill="currentColor">${Math.round(lo + 10)}</text></svg>`;
}

/** @typedef {{ id: string, variant: string, name: string, gloss: string, fen: string, board: string, to_move: number, seat: string, result: string }} Classic */

const CLASSIC_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];
const CLASSIC_LEVEL_KEY = 'qy-pz-classic-level';

/** The classics of a variant as cards, each with its board drawn by the game's module. @param {HTMLElement} box @param {string} variant */
async function showClassics(box, variant) {
  box.innerHTML = `<p class="muted">${t('pz_loading')}</p>`;
  /** @type {{ variant: string, classics: Classic[] }} */
  let list;
  try {
    list = await api('GET', `/api/puzzles/classics${variant ? `?variant=${encodeURIComponent(variant)}` : ''}`);
  } catch (e) {
    box.innerHTML = `<p class="err">${esc(/** @type {Error} */ (e).message)}</p>`;
    return;
  }
  const level = Number(localStorage.getItem(CLASSIC_LEVEL_KEY)) || 6;
  const items = list.classics;
  box.innerHTML = `<p class="muted small">${t('pz_classics_about')}</p>
    <label class="pz-classic-level">${t('ai_level')} <select id="pz-classic-level" data-testid="pz-classic-level">${CLASSIC_LEVELS.map((n) => `<option value="${n}"${n === level ? ' selected' : ''}>${esc(t('ai_named', { n }))}</option>`).join('')}</select></label>
    <p class="err small" id="pz-classic-err" data-testid="pz-classic-err" aria-live="polite"></p>
    ${items.length ? `<ul class="pz-classics" data-testid="pz-classics">${items.map((c) => `<li class="pz-classic card" data-testid="pz-classic-${esc(c.id)}">
      <svg class="pz-classic-board" data-board="${esc(c.id)}" role="img" aria-label="${esc(c.fen)}"></svg>
      <div class="pz-classic-text"><b lang="zh">${esc(c.name)}</b> <span class="muted small">${esc(c.gloss)}</span>
      <div class="small" data-testid="pz-classic-result"></div>
      <code class="small pz-classic-fen">${esc(c.fen)}</code>
      <button type="button" data-classic="${esc(c.id)}" data-testid="pz-classic-play-${esc(c.id)}">${t('pz_classic_play')}</button></div></li>`).join('')}</ul>` : `<p class="muted">${t('pz_classics_none')}</p>`}`;
  const sel = /** @type {HTMLSelectElement} */ (byId('pz-classic-level'));
  sel.addEventListener('change', () => localStorage.setItem(CLASSIC_LEVEL_KEY, sel.value));
  box.querySelectorAll('[data-classic]').forEach((b) => b.addEventListener('click', async () => {
    const c = items.find((x) => x.id === /** @type {HTMLElement} */ (b).dataset.classic);
    if (!c) return;
    /** @type {HTMLButtonElement} */ (b).disabled = true;
    try {
      const g = await api('POST', '/api/games', { game: c.variant, opponent: `ai:${sel.value}`, rated: false, fen: c.fen, seat: c.seat || undefined });
      location.hash = `#/game/${g.id}`;
    } catch (e) {
      byId('pz-classic-err').textContent = /** @type {Error} */ (e).message;
      /** @type {HTMLButtonElement} */ (b).disabled = false;
    }
  }));
  if (!items.length) return;
  const mod = await gameModule(items[0].variant);
  // The mover's colour in words, from the game's module (kinds.js's default otherwise).
  box.querySelectorAll('[data-testid="pz-classic-result"]').forEach((el, i) => {
    const c = items[i];
    const colour = mod.sideOf ? mod.sideOf({ game: c.variant }, c.to_move) : (c.to_move === 0 ? 'red' : 'black');
    el.textContent = t(`pz_classic_${c.result}`, { side: colour ? t(colour) : t('pz_side_seat', { n: c.to_move + 1 }) });
  });
  for (const c of items) {
    const svg = /** @type {SVGSVGElement | null} */ (box.querySelector(`[data-board="${CSS.escape(c.id)}"]`));
    if (!svg) continue;
    const state = { game: c.variant, status: 'finished', seat: c.to_move, seats_to_move: [], to_move: c.to_move, fen: c.board, legal: [], alerts: [], records: [] };
    mod.draw(svg, { state, replayPly: null, flipped: false, userFlipped: false, selected: null, targets: [], last: [], onClick: () => {}, notation: 'iccs' });
  }
}

/** `#/puzzles` (optionally `#/puzzles/daily`, `#/puzzles/streak`, `#/puzzles/classics`, `#/puzzles/ID`). @param {HTMLElement} view @param {string} [arg] */
export function puzzlesView(view, arg) {
  let stopped = false;
  /** @type {number[]} */
  const timers = [];
  // Every load has its number: a timer or an answer of an older load (the
  // player switched modes or asked for the next puzzle meanwhile) does nothing.
  let seq = 0;
  const later = (fn, ms) => { const my = seq; timers.push(window.setTimeout(() => { if (!stopped && my === seq) fn(); }, ms)); };
  const ui = {
    mode: arg === 'daily' || arg === 'streak' || arg === 'classics' ? arg : 'rated',
    variant: localStorage.getItem('qy-pz-variant') || '',
    theme: '',
    /** @type {Puzzle | null} */ puzzle: null,
    /** @type {any} */ mod: null,
    at: -1, // the step shown (-1: the position before the first move)
    /** @type {string | null} */ selected: null,
    /** @type {string | null} */ hint: null,
    hinted: false,
    state: 'loading', // loading | watch | play | solved | missed
    streak: 0,
    streakOver: false,
    /** @type {any} */ result: null,
    day: '',
    rated: false,
    /** @type {any} */ history: null,
    status: '',
    note: '',
  };
  view.innerHTML = `<div class="puzzles" data-testid="puzzles">
    <div class="pz-classics-box" id="pz-classics-box" data-testid="pz-classics-box" hidden></div>
    <div class="board-wrap" id="pz-board-wrap"><svg id="pz-board" data-testid="board"></svg></div>
    <div class="side card pz-side">
      <h2>${t('pz_title')}</h2>
      <div class="pz-modes" role="tablist">
        ${['rated', 'streak', 'daily', 'classics'].map((m) => `<button type="button" role="tab" data-mode="${m}" data-testid="pz-mode-${m}">${t(`pz_mode_${m}`)}</button>`).join('')}
      </div>
      <div class="pz-choose" id="pz-choose"></div>
      <div class="status pz-status" id="pz-status" data-testid="pz-status" aria-live="polite"></div>
      <div class="small pz-note" id="pz-note" data-testid="pz-note"></div>
      <div class="muted small" id="pz-info" data-testid="pz-info"></div>
      <div class="pz-actions" id="pz-actions">
        <button type="button" id="pz-hint" data-testid="pz-hint" title="${esc(t('pz_hint_cost'))}">${t('pz_hint')}</button>
        <button type="button" id="pz-next" data-testid="pz-next">${t('pz_next')}</button>
      </div>
      <div id="pz-rating" data-testid="pz-rating"></div>
      <div id="pz-history" data-testid="pz-history"></div>
    </div></div>`;

  /** The solver's colour in words. */
  function sideWords() {
    const p = ui.puzzle;
    if (!p || !ui.mod) return '';
    const colour = ui.mod.sideOf ? ui.mod.sideOf({ game: p.variant }, p.solver) : (p.solver === 0 ? 'red' : 'black');
    return colour ? t(colour) : t('pz_side_seat', { n: p.solver + 1 });
  }

  function draw() {
    const p = ui.puzzle;
    const svg = /** @type {SVGSVGElement | null} */ (document.getElementById('pz-board'));
    if (!p || !ui.mod || !svg) return;
    const step = ui.at >= 0 ? p.steps[ui.at] : null;
    const legal = ui.state === 'play' && step ? step.legal : [];
    const state = {
      game: p.variant, status: ui.state === 'play' ? 'playing' : 'finished', seat: p.solver,
      seats_to_move: ui.state === 'play' ? [p.solver] : [], to_move: p.solver,
      fen: step ? step.fen : p.fen, legal, alerts: step ? step.alerts : [], records: [],
    };
    const targets = (ui.mod.targets || pairTargets)(legal, ui.selected);
    ui.mod.draw(svg, {
      state, replayPly: null, flipped: p.solver === 1, userFlipped: false,
      selected: ui.selected || ui.hint, targets, last: squaresOf(p.variant, step ? step.move : undefined), onClick, notation: 'iccs',
    });
  }

  function render() {
    if (stopped) return;
    view.querySelectorAll('[data-mode]').forEach((b) => {
      const on = /** @type {HTMLElement} */ (b).dataset.mode === ui.mode;
      b.classList.toggle('on', on);
      b.setAttribute('aria-selected', String(on));
    });
    const classics = ui.mode === 'classics';
    byId('pz-classics-box').hidden = !classics;
    view.querySelector('.puzzles')?.classList.toggle('pz-classics-on', classics);
    byId('pz-board-wrap').hidden = classics;
    ['pz-status', 'pz-note', 'pz-info', 'pz-actions', 'pz-rating', 'pz-history'].forEach((id) => { byId(id).hidden = classics; });
    if (classics) return;
    const p = ui.puzzle;
    byId('pz-status').textContent = ui.status;
    byId('pz-status').dataset.state = ui.state;
    byId('pz-note').textContent = ui.note;
    const bits = [];
    if (ui.mode === 'daily' && ui.day) bits.push(t('pz_daily_of', { day: ui.day }));
    if (p) {
      bits.push(t('pz_puzzle', { id: p.id }));
      if (ui.mode !== 'streak' || ui.state === 'solved' || ui.state === 'missed') bits.push(t('pz_puzzle_rating', { r: p.rating }));
      if (p.themes.length) bits.push(p.themes.map((x) => esc(t(`theme_${x}`))).join(' · '));
    }
    if (ui.mode === 'streak') bits.push(`<b data-testid="pz-streak">${t('pz_streak_count', { n: ui.streak })}</b>`);
    byId('pz-info').innerHTML = bits.map((b) => `<span>${b}</span>`).join(' · ');
    byId('pz-info').dataset.id = p ? p.id : '';
    /** @type {HTMLButtonElement} */ (byId('pz-hint')).disabled = ui.state !== 'play' || ui.hinted;
    const next = /** @type {HTMLButtonElement} */ (byId('pz-next'));
    next.hidden = ui.mode === 'daily' || (ui.state !== 'solved' && ui.state !== 'missed' && ui.mode === 'streak');
    next.textContent = ui.mode === 'streak' && ui.streakOver ? t('pz_streak_again') : t('pz_next');
    renderRating();
    draw();
  }

  function renderRating() {
    const box = byId('pz-rating');
    if (ui.mode === 'streak') { box.innerHTML = `<p class="muted small">${t('pz_streak_about')}</p>`; return; }
    const h = ui.history;
    if (!h) { box.innerHTML = ''; return; }
    if (!h.rated) { box.innerHTML = `<p class="muted small" data-testid="pz-unrated">${t('pz_unrated_guest')}</p>`; return; }
    const r = ui.result;
    let line;
    if (r && r.rated) line = t('pz_change', { r: r.rating, d: (r.change >= 0 ? '+' : '') + r.change });
    else line = t('pz_my_rating', { r: r ? r.rating : h.rating });
    box.innerHTML = `<p data-testid="pz-my-rating"><b>${esc(line)}</b></p>${r && !r.rated ? `<p class="muted small">${t('pz_unrated_again')}</p>` : ''}`;
  }

  async function loadHistory() {
    try {
      ui.history = await api('GET', `/api/puzzles/history${ui.variant ? `?variant=${encodeURIComponent(ui.variant)}` : ''}`);
    } catch { ui.history = null; }
    if (stopped) return;
    const h = ui.history;
    const sets = (h && h.sets) || [];
    // The first visit names no variant: the first set's, and its rating.
    if (!ui.variant && sets.length) { ui.variant = sets[0].variant; await loadHistory(); return; }
    const set = sets.find((s) => s.variant === ui.variant) || sets[0];
    const choose = byId('pz-choose');
    const variants = sets.length > 1 ? `<label>${t('pz_variant')} <select id="pz-variant" data-testid="pz-variant">${sets.map((s) => `<option value="${esc(s.variant)}"${s.variant === ui.variant ? ' selected' : ''}>${esc(t(s.variant))}</option>`).join('')}</select></label>` : '';
    const themes = ui.mode !== 'daily' && ui.mode !== 'classics' && set ? `<label>${t('pz_theme')} <select id="pz-theme" data-testid="pz-theme"><option value="">${t('pz_theme_any')}</option>${set.themes.map((x) => `<option value="${esc(x)}"${x === ui.theme ? ' selected' : ''}>${esc(t(`theme_${x}`))}</option>`).join('')}</select></label>` : '';
    choose.innerHTML = variants + themes;
    const v = document.getElementById('pz-variant');
    if (v) v.addEventListener('change', () => { ui.variant = /** @type {HTMLSelectElement} */ (v).value; localStorage.setItem('qy-pz-variant', ui.variant); ui.theme = ''; restart(); });
    const th = document.getElementById('pz-theme');
    if (th) th.addEventListener('change', () => { ui.theme = /** @type {HTMLSelectElement} */ (th).value; if (ui.mode === 'streak') { ui.streak = 0; ui.streakOver = false; } loadNext(); });
    const hist = byId('pz-history');
    if (!h || !h.rated || ui.mode === 'streak') { hist.innerHTML = ''; render(); return; }
    const list = h.attempts || [];
    const pts = list.map((a) => Math.round(a.rating_after)).reverse();
    hist.innerHTML = `<h3>${t('pz_history')}</h3>${list.length ? chartSvg(pts) + `<ul class="pz-list" data-testid="pz-attempts">${list.slice(0, 10).map((a) => `<li class="${a.win ? 'ok' : 'err'}"><a href="#/puzzles/${encodeURIComponent(a.puzzle_id)}">${esc(a.puzzle_id)}</a> ${a.win ? t('pz_result_win') : t('pz_result_loss')} · ${Math.round(a.rating_after)}</li>`).join('')}</ul>` : `<p class="muted small">${t('pz_history_none')}</p>`}`;
    render();
  }

  /** Shows a puzzle: the position, then the opponent's move played. @param {Puzzle} p @param {number} my the load */
  async function show(p, my) {
    const mod = await gameModule(p.variant);
    if (stopped || my !== seq) return;
    ui.mod = mod;
    ui.puzzle = p; ui.at = -1; ui.selected = null; ui.hint = null; ui.hinted = false; ui.result = null; ui.note = '';
    ui.state = 'watch'; ui.status = t('pz_watch');
    render();
    later(() => { ui.at = 0; ui.state = 'play'; ui.status = t('pz_your_move', { side: sideWords() }); render(); }, MOVE_MS);
  }

  async function loadNext() {
    const my = ++seq;
    ui.state = 'loading'; ui.status = t('pz_loading'); ui.note = ''; ui.puzzle = null;
    render();
    const q = new URLSearchParams();
    if (ui.variant) q.set('variant', ui.variant);
    if (ui.theme && ui.mode !== 'daily') q.set('themes', ui.theme);
    try {
      if (ui.mode === 'daily') {
        const d = await api('GET', `/api/puzzles/daily?${q}`);
        if (my !== seq) return;
        ui.day = d.day;
        await show(d.puzzle, my);
      } else if (arg && ui.mode === 'rated' && !['daily', 'streak'].includes(arg) && !ui.puzzle) {
        const id = arg;
        arg = '';
        await show(await api('GET', `/api/puzzles/${encodeURIComponent(id)}`), my);
      } else {
        if (ui.mode === 'streak') q.set('rating', String(Math.min(3200, STREAK_START + ui.streak * STREAK_STEP)));
        const n = await api('GET', `/api/puzzles/next?${q}`);
        if (my !== seq) return;
        ui.rated = n.rated;
        await show(n.puzzle, my);
      }
    } catch (e) {
      if (stopped || my !== seq) return;
      ui.state = 'missed';
      ui.status = /** @type {Error} */ (e).message;
      render();
    }
  }

  /** Reports the attempt (training and daily; a streak is unrated). @param {boolean} win */
  async function report(win) {
    const p = ui.puzzle;
    if (!p || ui.mode === 'streak') return;
    try {
      ui.result = await api('POST', `/api/puzzles/${encodeURIComponent(p.id)}/result`, { win });
    } catch { ui.result = null; }
    await loadHistory();
  }

  /** Plays the rest of the solution from the step shown, one move at a time. */
  function playOut() {
    const p = ui.puzzle;
    if (!p || stopped) return;
    if (ui.at + 1 < p.steps.length) {
      ui.at += 1;
      render();
      later(playOut, MOVE_MS * 1.6);
    } else {
      ui.note = t('pz_solution_shown');
      render();
    }
  }

  function miss() {
    ui.state = 'missed'; ui.selected = null; ui.hint = null;
    ui.status = t('pz_missed');
    if (ui.mode === 'streak') { ui.streakOver = true; ui.status = t('pz_streak_over', { n: ui.streak }); }
    render();
    later(playOut, MOVE_MS);
    report(false);
  }

  /** The player's move. @param {string} mv */
  function played(mv) {
    const p = ui.puzzle;
    if (!p) return;
    const want = p.steps[ui.at + 1];
    ui.selected = null; ui.hint = null;
    if (!want || mv !== want.move) { miss(); return; }
    ui.at += 1;
    if (ui.at === p.steps.length - 1) {
      ui.state = 'solved'; ui.status = t('pz_solved');
      if (ui.mode === 'streak') ui.streak += 1;
      render();
      report(!ui.hinted);
      return;
    }
    // The opponent's replies, then the player again.
    ui.state = 'watch'; ui.status = t('pz_good');
    ui.note = '';
    render();
    const reply = () => {
      ui.at += 1;
      const next = p.steps[ui.at + 1];
      if (next && !next.solver) { render(); later(reply, MOVE_MS); return; }
      ui.state = 'play';
      ui.status = t('pz_your_move', { side: sideWords() });
      ui.note = t('pz_good');
      render();
    };
    later(reply, MOVE_MS);
  }

  /** A click on the board. @param {string} sq */
  function onClick(sq) {
    const p = ui.puzzle;
    if (!p || ui.state !== 'play' || !ui.mod) return;
    const legal = p.steps[ui.at].legal;
    const r = (ui.mod.click || pairClick)(legal, ui.selected, sq);
    if (r.move) { played(r.move); return; }
    if (r.choose && r.choose.length) { played(r.choose[0]); return; }
    ui.selected = r.select === undefined ? null : r.select;
    draw();
  }

  function restart() {
    ui.streak = 0; ui.streakOver = false; ui.day = '';
    if (ui.mode === 'classics') {
      ++seq;
      ui.puzzle = null;
      render();
      loadHistory().then(() => { if (!stopped && ui.mode === 'classics') showClassics(byId('pz-classics-box'), ui.variant); });
      return;
    }
    loadHistory();
    loadNext();
  }

  view.querySelectorAll('[data-mode]').forEach((b) => b.addEventListener('click', () => {
    const m = /** @type {HTMLElement} */ (b).dataset.mode || 'rated';
    if (m === ui.mode) return;
    ui.mode = m;
    history.replaceState(null, '', m === 'rated' ? '#/puzzles' : `#/puzzles/${m}`);
    restart();
  }));
  byId('pz-hint').addEventListener('click', () => {
    const p = ui.puzzle;
    if (!p || ui.state !== 'play') return;
    const want = p.steps[ui.at + 1];
    ui.hinted = true;
    ui.hint = squaresOf(p.variant, want && want.move)[0] || null;
    ui.selected = ui.hint;
    ui.note = t('pz_hint_shown');
    render();
  });
  byId('pz-next').addEventListener('click', () => {
    if (ui.mode === 'streak' && ui.streakOver) { ui.streak = 0; ui.streakOver = false; }
    else if (ui.mode === 'streak' && ui.state !== 'solved') return;
    loadNext();
  });
  restart();
  return () => { stopped = true; timers.forEach((x) => window.clearTimeout(x)); };
}
