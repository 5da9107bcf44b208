// @ts-check
// The player picker of the event forms: registered players found as one
// types (GET /api/users?prefix=), AI players added by level and named in
// words ("AI level 3", "电脑 3级"), each entry a chip that can be removed.
// The entries go to the server as it names them: user names and `ai:N`.
import { t } from './i18n.js';
import { esc } from './util.js';

/** AI levels the hall plays. */
const AI_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8];

/**
 * An entrant as people read it: `ai:3` → "AI level 3", `ai:3#2` (a second
 * AI of that level, as standings name it) → "AI level 3 (2)"; user names as they are.
 * @param {string} name
 */
export function entrantName(name) {
  const m = /^ai:(\d+)(?:#(\d+))?$/.exec(String(name || ''));
  if (!m) return String(name ?? '');
  const base = t('ai_named').replace('{n}', m[1]);
  return m[2] ? t('ai_named_nth').replace('{name}', base).replace('{k}', m[2]) : base;
}

/**
 * The picker's HTML; `id` prefixes its test ids.
 * @param {string} id
 */
export function pickerHtml(id) {
  return `<div class="picker" data-picker="${esc(id)}" data-testid="${esc(id)}">
    <div class="chips" data-testid="${esc(id)}-chips"></div>
    <div class="picker-row">
      <span class="picker-search"><input type="search" autocomplete="off" placeholder="${esc(t('picker_placeholder'))}" aria-label="${esc(t('picker_placeholder'))}" data-testid="${esc(id)}-search">
        <span class="picker-list" role="listbox" data-testid="${esc(id)}-suggestions" hidden></span></span>
      <span class="picker-ai"><select aria-label="${esc(t('ai_level'))}" data-testid="${esc(id)}-ai-level">${AI_LEVELS.map((n) => `<option value="${n}"${n === 3 ? ' selected' : ''}>${esc(entrantName('ai:' + n))}</option>`).join('')}</select>
        <button type="button" data-testid="${esc(id)}-add-ai">${t('picker_add_ai')}</button></span>
    </div></div>`;
}

/**
 * Makes the picker under `root` work; returns its entries (in order) and a way to add one.
 * @param {HTMLElement} root the element `pickerHtml` made
 * @param {{ onChange?: () => void }} [opts]
 */
export function bindPicker(root, opts = {}) {
  /** @type {string[]} */
  const entries = [];
  const chips = /** @type {HTMLElement} */ (root.querySelector('.chips'));
  const input = /** @type {HTMLInputElement} */ (root.querySelector('input[type="search"]'));
  const list = /** @type {HTMLElement} */ (root.querySelector('.picker-list'));
  const level = /** @type {HTMLSelectElement} */ (root.querySelector('.picker-ai select'));
  const id = root.dataset.picker || 'picker';
  let asked = 0;
  let timer = 0;

  function draw() {
    chips.innerHTML = entries.length
      ? entries.map((e, i) => `<span class="chip${e.startsWith('ai:') ? ' ai' : ''}" data-testid="${esc(id)}-chip">${esc(entrantName(e))}<button type="button" class="link" data-remove="${i}" aria-label="${esc(t('picker_remove').replace('{name}', entrantName(e)))}" title="${esc(t('picker_remove').replace('{name}', entrantName(e)))}">×</button></span>`).join('')
      : `<span class="muted small">${t('picker_empty')}</span>`;
    if (opts.onChange) opts.onChange();
  }
  /** @param {string} name */
  function add(name) {
    const n = String(name || '').trim();
    if (!n) return;
    // A person enters once; AIs of one level may be several.
    if (!n.startsWith('ai:') && entries.includes(n)) return;
    entries.push(n);
    draw();
  }
  function hide() { list.hidden = true; list.innerHTML = ''; }
  async function suggest() {
    const prefix = input.value.trim();
    if (!prefix) { hide(); return; }
    const mine = ++asked;
    let names = [];
    try {
      const r = await fetch(`/api/users?prefix=${encodeURIComponent(prefix.slice(0, 20))}&limit=8`);
      if (r.ok) names = (await r.json()).users || [];
    } catch { /* no suggestions: a typed name can still be added with Enter */ }
    if (mine !== asked) return;
    names = names.filter((/** @type {string} */ n) => !entries.includes(n));
    list.innerHTML = names.length
      ? names.map((/** @type {string} */ n) => `<button type="button" role="option" data-pick="${esc(n)}">${esc(n)}</button>`).join('')
      : `<span class="muted small">${t('picker_none')}</span>`;
    list.hidden = false;
  }
  input.addEventListener('input', () => { clearTimeout(timer); timer = window.setTimeout(suggest, 120); });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { hide(); return; }
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const first = /** @type {HTMLElement | null} */ (list.querySelector('[data-pick]'));
    add(first && !list.hidden ? String(first.dataset.pick) : input.value);
    input.value = '';
    hide();
  });
  list.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('[data-pick]'));
    if (!b) return;
    add(String(b.dataset.pick));
    input.value = '';
    hide();
    input.focus();
  });
  chips.addEventListener('click', (e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest('[data-remove]'));
    if (!b) return;
    entries.splice(Number(b.dataset.remove), 1);
    draw();
  });
  /** @type {HTMLButtonElement} */ (root.querySelector('.picker-ai button')).addEventListener('click', () => add(`ai:${level.value}`));
  // Leaving the box closes the suggestions (after a click on one has landed).
  input.addEventListener('blur', () => { window.setTimeout(() => { if (document.activeElement !== input) hide(); }, 250); });
  draw();
  return { entries: () => [...entries], add };
}
