// @ts-check
// The analysis board's saved studies and its opening explorer (issue 39).
// A study is the board's tree (start position, every line, comments) kept
// by the hall for a registered player (POST/GET/PATCH/DELETE /api/studies);
// anyone with its link (`#/study/ID`) opens it, only its owner changes it.
// The analysis board mounts this module with one hook: what it needs of the
// board is passed in (`BoardLink`), so the board's own code stays its own.
import { t } from './i18n.js';
import { api, esc, whenText } from './util.js';
import { mountExplorer } from './explorer.js';

/**
 * What the analysis board lends this module.
 * @typedef {{
 *   variant: string,
 *   study: import('./kinds.js').Study,
 *   tree: () => { nodes: { mv: string, comment: string, children: number[] }[], cur: number },
 *   open: (data: { start: string, comment?: string, moves: { move: string, parent: number | null, comment?: string }[], at?: number }) => void,
 *   play: (mv: string) => void,
 *   notation: () => string,
 * }} BoardLink
 */

/** Where a study to open waits while the board of its variant is loaded. */
const PENDING = 'qy-open-study';

/**
 * The tree as the import answers it (parents before children, each line in
 * its order), which is also how it is saved and read back; `at` is the index
 * in `moves` of the move shown (absent at the start position), so a saved
 * study reopens where it was left.
 * @param {ReturnType<BoardLink['tree']>} tr
 */
export function treeData(tr) {
  /** @type {{ move: string, parent: number | null, comment?: string }[]} */
  const moves = [];
  /** @type {number | undefined} */
  let at;
  /** @type {[number, number | null][]} node and its parent's index in `moves` */
  const todo = tr.nodes[0].children.slice().reverse().map((c) => /** @type {[number, number | null]} */ ([c, null]));
  while (todo.length) {
    const [id, parent] = /** @type {[number, number | null]} */ (todo.pop());
    const n = tr.nodes[id];
    moves.push(n.comment ? { move: n.mv, parent, comment: n.comment } : { move: n.mv, parent });
    const i = moves.length - 1;
    if (id === tr.cur) at = i;
    for (const c of n.children.slice().reverse()) todo.push([c, i]);
  }
  const root = /** @type {any} */ (tr.nodes[0]);
  return at == null ? { start: String(root.fen), comment: tr.nodes[0].comment || '', moves } : { start: String(root.fen), comment: tr.nodes[0].comment || '', moves, at };
}

/** The share link of a study. @param {string} id */
export const shareLink = (id) => `${location.origin}${location.pathname}#/study/${encodeURIComponent(id)}`;

/**
 * `#/study/ID`: reads the study and opens the analysis board of its variant with it.
 * @param {HTMLElement} view @param {string} id
 */
export function openSharedStudy(view, id) {
  view.innerHTML = `<div class="card" data-testid="study-opening">…</div>`;
  api('GET', `/api/studies/${encodeURIComponent(decodeURIComponent(id || ''))}`).then((s) => {
    sessionStorage.setItem(PENDING, JSON.stringify(s));
    location.replace(`#/analysis/${encodeURIComponent(s.variant)}`);
  }).catch((e) => { view.innerHTML = `<div class="card err" data-testid="study-error" role="alert">${esc(e.message)}</div>`; });
  return () => {};
}

/**
 * Mounts the studies panel and the explorer under the board's side panel.
 * @param {HTMLElement} box @param {BoardLink} board
 * @returns {{ update: () => void, stop: () => void }}
 */
export function mountStudyExtras(box, board) {
  box.innerHTML = `<div class="study-coll" data-testid="study-collection">
      <div class="sc-row"><input id="sc-name" data-testid="study-name" maxlength="80" placeholder="${esc(t('sc_name_hint'))}" autocomplete="off">
        <button data-sc="save" data-testid="study-save">${t('sc_save')}</button></div>
      <div class="small" id="sc-saved" data-testid="study-saved" hidden></div>
      <div class="err small" id="sc-err" data-testid="study-collection-error" role="alert"></div>
      <details id="sc-mine" data-testid="my-studies"><summary>${t('sc_mine')}</summary><div id="sc-list" data-testid="study-list"></div></details>
    </div>
    <div id="sc-explorer"></div>`;
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (box.querySelector(`#${id}`));
  /** The study shown, once saved or opened: id, name, owner. @type {{ id: string, name: string, owner: string } | null} */
  let current = null;
  /** @type {{ username: string, guest: boolean } | null} */
  let me = null;
  /** @type {any[]} */
  let mine = [];
  /** The row being renamed, and the one waiting for a second click to delete. */
  let renaming = '', deleting = '';
  const explorer = mountExplorer($('sc-explorer'), board);

  /** @returns {Promise<{ username: string, guest: boolean }>} */
  const who = async () => { if (!me) me = await api('GET', '/api/me'); return /** @type {{ username: string, guest: boolean }} */ (me); };
  const showError = (/** @type {string} */ text) => { $('sc-err').textContent = text; };
  function showSaved() {
    const el = $('sc-saved');
    el.hidden = !current;
    if (!current) return;
    const link = shareLink(current.id);
    el.innerHTML = `${esc(t('sc_saved_as', { name: current.name }))} <span class="muted">${t('sc_share')}${t('colon')}</span><a href="${esc(link)}" data-testid="study-share" class="sc-link">${esc(link)}</a>`;
  }
  function drawList() {
    const list = $('sc-list');
    if (!mine.length) { list.innerHTML = `<p class="muted small">${t('sc_none')}</p>`; return; }
    list.innerHTML = `<ul class="sc-list">${mine.map((s) => `<li data-testid="study-row" data-id="${esc(s.id)}">
      ${renaming === s.id
        ? `<input class="sc-rename" data-testid="study-rename-input" maxlength="80" value="${esc(s.name)}"> <button data-sc="rename-ok" data-testid="study-rename-ok">${t('sc_rename_ok')}</button>`
        : `<a href="#" data-sc="open" data-testid="study-open">${esc(s.name)}</a> <span class="muted small">${esc(t(s.variant))} · ${whenText(s.updated_ms)}</span>`}
      <span class="sc-tools"><button data-sc="rename" data-testid="study-rename" class="small">${t('sc_rename')}</button><button data-sc="delete" data-testid="study-delete" class="small${deleting === s.id ? ' danger' : ''}">${t(deleting === s.id ? 'sc_delete_sure' : 'sc_delete')}</button></span></li>`).join('')}</ul>`;
    const input = /** @type {HTMLInputElement | null} */ (list.querySelector('.sc-rename'));
    if (input) { input.focus(); input.select(); }
  }
  async function loadList() {
    try {
      const u = await who();
      if (u.guest) { mine = []; $('sc-list').innerHTML = `<p class="muted small">${t('code_study_guest')} <a href="#/login">${t('login')}</a></p>`; return; }
      mine = (await api('GET', '/api/studies')).studies || [];
      drawList();
    } catch (e) { showError(/** @type {Error} */ (e).message); }
  }
  /** Opens a study read from the hall: on this board, or on its variant's. @param {any} s */
  function openStudy(s) {
    if (s.variant !== board.variant) {
      sessionStorage.setItem(PENDING, JSON.stringify(s));
      location.hash = `#/analysis/${encodeURIComponent(s.variant)}`;
      return;
    }
    let data;
    try { data = typeof s.tree === 'string' ? JSON.parse(s.tree) : s.tree; } catch { data = null; }
    if (!data || typeof data.start !== 'string' || board.study.problem(data.start)) { showError(t('sc_unreadable')); return; }
    const at = Number.isInteger(data.at) ? { at: Number(data.at) } : {};
    board.open({ start: data.start, comment: String(data.comment || ''), moves: Array.isArray(data.moves) ? data.moves : [], ...at });
    current = { id: s.id, name: s.name, owner: s.owner };
    /** @type {HTMLInputElement} */ ($('sc-name')).value = s.name;
    showSaved();
  }
  async function save() {
    showError('');
    const u = await who().catch(() => null);
    if (!u || u.guest) { showError(t('code_study_guest')); return; }
    const input = /** @type {HTMLInputElement} */ ($('sc-name'));
    const name = input.value.trim() || t('sc_default_name', { game: t(board.variant), date: new Date().toLocaleDateString() });
    const tree = treeData(board.tree());
    try {
      const s = current && current.owner === u.username
        ? await api('PATCH', `/api/studies/${encodeURIComponent(current.id)}`, { name, tree })
        : await api('POST', '/api/studies', { name, variant: board.variant, tree });
      current = { id: s.id, name: s.name, owner: s.owner };
      input.value = s.name;
      showSaved();
      if (/** @type {HTMLDetailsElement} */ ($('sc-mine')).open) loadList();
    } catch (e) { showError(/** @type {Error} */ (e).message); }
  }
  async function rename(/** @type {string} */ id) {
    const input = /** @type {HTMLInputElement | null} */ (box.querySelector('.sc-rename'));
    const name = input ? input.value.trim() : '';
    if (!name) { renaming = ''; drawList(); return; }
    try {
      const s = await api('PATCH', `/api/studies/${encodeURIComponent(id)}`, { name });
      if (current && current.id === id) { current.name = s.name; /** @type {HTMLInputElement} */ ($('sc-name')).value = s.name; showSaved(); }
      renaming = '';
      await loadList();
    } catch (e) { showError(/** @type {Error} */ (e).message); }
  }

  const onClick = async (/** @type {MouseEvent} */ e) => {
    const el = /** @type {HTMLElement} */ (e.target);
    const a = /** @type {HTMLElement | null} */ (el.closest('[data-sc]'));
    if (!a) return;
    const what = a.dataset.sc;
    const row = /** @type {HTMLElement | null} */ (a.closest('[data-id]'));
    const id = row ? String(row.dataset.id) : '';
    e.preventDefault();
    if (what === 'save') { save(); return; }
    showError('');
    if (what === 'open') {
      try { openStudy(await api('GET', `/api/studies/${encodeURIComponent(id)}`)); } catch (err) { showError(/** @type {Error} */ (err).message); }
    } else if (what === 'rename') { renaming = renaming === id ? '' : id; deleting = ''; drawList(); }
    else if (what === 'rename-ok') rename(id);
    else if (what === 'delete') {
      if (deleting !== id) { deleting = id; renaming = ''; drawList(); return; }
      deleting = '';
      try {
        await api('DELETE', `/api/studies/${encodeURIComponent(id)}`);
        if (current && current.id === id) { current = null; showSaved(); }
        await loadList();
      } catch (err) { showError(/** @type {Error} */ (err).message); }
    }
  };
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    const el = /** @type {HTMLElement} */ (e.target);
    if (e.key !== 'Enter') return;
    if (el.id === 'sc-name') { e.preventDefault(); save(); }
    else if (el.classList.contains('sc-rename')) {
      e.preventDefault();
      const row = /** @type {HTMLElement | null} */ (el.closest('[data-id]'));
      if (row) rename(String(row.dataset.id));
    }
  };
  const onToggle = () => { if (/** @type {HTMLDetailsElement} */ ($('sc-mine')).open) loadList(); };
  box.addEventListener('click', onClick);
  box.addEventListener('keydown', onKey);
  $('sc-mine').addEventListener('toggle', onToggle);

  // A study chosen elsewhere (a share link, another variant's board) opens here.
  const pending = sessionStorage.getItem(PENDING);
  if (pending) {
    sessionStorage.removeItem(PENDING);
    let s = null;
    try { s = JSON.parse(pending); } catch { s = null; }
    if (s && s.variant === board.variant) queueMicrotask(() => openStudy(s));
  }
  return {
    update: () => explorer.update(),
    stop: () => { explorer.stop(); box.removeEventListener('click', onClick); box.removeEventListener('keydown', onKey); },
  };
}
