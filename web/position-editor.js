// @ts-check
// The position editor of the analysis board (issue 39): pieces put on the
// board from a palette (clicked, then a point clicked; or dragged onto the
// board), moved on it, dragged off it or wiped with the eraser; the side to
// move chosen; where the game's rules hang on more than the board (a
// capture earlier in the game, the second move of a double turn, the move
// counters), those too. "Analyse this position" asks the game's study hook why the
// position could not arise (too many pieces of a kind, a piece on a point it
// can never reach, the generals facing, the side not to move in check …):
// a reason is shown in the page's language and the position is refused,
// else it opens on the analysis board. The game's own pieces and rules come
// from its module (`study.editor`, kinds.js); this file names no game.
import { t } from './i18n.js';
import { esc } from './util.js';

/**
 * The message for a reason of the study hook: `@key` parameters are said in
 * the page's language.
 * @param {{ key: string, params?: Record<string, string | number> }} why
 */
export function reasonText(why) {
  /** @type {Record<string, string | number>} */
  const params = {};
  for (const [k, v] of Object.entries(why.params || {})) params[k] = typeof v === 'string' && v.startsWith('@') ? t(v.slice(1)) : v;
  return t(why.key, params);
}

/**
 * Opens the editor in `host` on `fen`. `done(fen)` when a legal position is
 * to be analysed, `cancel()` to go back unchanged.
 * @param {HTMLElement} host @param {import('./kinds.js').Study} study @param {string} fen
 * @param {{ flipped: boolean, notation: string, done: (fen: string) => void, cancel: () => void }} opts
 * @returns {() => void} what closes it (its listeners)
 */
export function openEditor(host, study, fen, opts) {
  const ed = /** @type {import('./kinds.js').StudyEditor} */ (study.editor);
  let cur = study.normal(fen);
  /** The palette's choice: a letter, 'x' the eraser, '' none (pieces on the board are moved). */
  let pick = '';
  /** @type {string | null} A piece picked up on the board. */
  let selected = null;
  let flipped = opts.flipped;
  /** The class new pieces get, and the one a picked-up piece is given (games with classes). */
  let cls = ed.classes ? ed.classes[0] : '';
  const button = (/** @type {string} */ letter) => {
    const l = ed.label(letter);
    return `<button type="button" class="ed-piece ${l.first ? 'first' : 'second'}" draggable="true" data-put="${esc(letter)}" data-testid="palette-${esc(letter)}" aria-pressed="false" title="${esc(t(l.first ? 'red' : 'black'))}">${esc(l.text)}</button>`;
  };
  const firsts = ed.palette.filter((x) => ed.label(x).first), seconds = ed.palette.filter((x) => !ed.label(x).first);
  host.innerHTML = `<div class="editor" data-testid="editor">
    <div class="editor-board"><svg class="board" id="editor-svg" data-testid="editor-board"></svg></div>
    <div class="editor-side card">
      <h2>${t('editor_title')}</h2>
      <p class="muted small">${t('editor_hint')}</p>
      <div class="editor-palette" data-testid="editor-palette">
        <div class="ed-row">${firsts.map(button).join('')}</div>
        <div class="ed-row">${seconds.map(button).join('')}</div>
        <div class="ed-row"><button type="button" class="ed-erase" data-put="x" data-testid="palette-erase" aria-pressed="false">✕ ${t('editor_erase')}</button></div>
      </div>
      ${ed.classes ? `<div class="ed-row ed-classes" data-testid="editor-classes"><span>${t('editor_class')}</span>${ed.classes.map((c) => `<button type="button" data-cls="${esc(c)}" data-testid="editor-class-${esc(c)}" aria-pressed="false">${esc(t(c))}</button>`).join('')}</div>` : ''}
      ${ed.scores ? `<div class="ed-row ed-scores"><label>${t('red')} <input type="number" step="1" id="ed-score-1" data-testid="editor-score-red"></label><label>${t('black')} <input type="number" step="1" id="ed-score-2" data-testid="editor-score-black"></label> <span class="muted small">${t('editor_scores')}</span></div>` : ''}
      ${ed.setCaptured || ed.setSecond || ed.setCounters ? `<fieldset class="editor-turn editor-state" data-testid="editor-state"><legend>${t('editor_state')}</legend>
        ${ed.setCaptured ? `<label><input type="checkbox" id="ed-captured" data-testid="editor-captured"> ${t('editor_captured')}</label>` : ''}
        ${ed.setSecond ? `<label><input type="checkbox" id="ed-second" data-testid="editor-second"> ${t('editor_second')}</label>` : ''}
        ${ed.setCounters ? `<label>${t('editor_move_number')} <input type="number" min="1" step="1" id="ed-full" data-testid="editor-move-number"></label><label>${t('editor_quiet_plies')} <input type="number" min="0" step="1" id="ed-half" data-testid="editor-quiet-plies"></label>` : ''}</fieldset>` : ''}
      <fieldset class="editor-turn"><legend>${t('editor_to_move')}</legend>
        <label><input type="radio" name="ed-side" value="first" data-testid="editor-side-first"> ${t('red')}</label>
        <label><input type="radio" name="ed-side" value="second" data-testid="editor-side-second"> ${t('black')}</label></fieldset>
      <div class="buttons"><button type="button" data-e="start" data-testid="editor-start">${t('editor_start')}</button><button type="button" data-e="clear" data-testid="editor-clear">${t('editor_clear')}</button><button type="button" data-e="flip">${t('flip')}</button></div>
      <p class="fen-row"><label>${t('fen')}<br><input id="editor-fen" data-testid="editor-fen" readonly spellcheck="false"></label></p>
      <div class="err" id="editor-err" data-testid="editor-error" role="alert"></div>
      <div class="buttons"><button type="button" class="primary" data-e="done" data-testid="editor-analyse">${t('editor_analyse')}</button><button type="button" data-e="cancel" data-testid="editor-cancel">${t('editor_cancel')}</button></div>
    </div></div>`;
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (host.querySelector('#editor-svg')));
  const err = /** @type {HTMLElement} */ (host.querySelector('#editor-err'));

  function draw() {
    ed.draw(svg, { fen: cur, flipped, selected, onClick, notation: opts.notation, drag: !pick });
    /** @type {HTMLInputElement} */ (host.querySelector('#editor-fen')).value = cur;
    const first = study.turn(cur).first;
    /** @type {HTMLInputElement} */ (host.querySelector(`[name="ed-side"][value="${first ? 'first' : 'second'}"]`)).checked = true;
    for (const b of host.querySelectorAll('[data-cls]')) {
      const on = /** @type {HTMLElement} */ (b).dataset.cls === cls;
      b.classList.toggle('picked', on);
      b.setAttribute('aria-pressed', String(on));
    }
    if (ed.scores) {
      const [a, z] = ed.scores(cur);
      for (const [id, v] of /** @type {[string, number][]} */ ([['#ed-score-1', a], ['#ed-score-2', z]])) {
        const box = /** @type {HTMLInputElement} */ (host.querySelector(id));
        if (document.activeElement !== box) box.value = String(v);
      }
    }
    // The game's state beyond the board (capture flag, turn state, counters), where the game keeps one.
    const box = (/** @type {string} */ id) => /** @type {HTMLInputElement | null} */ (host.querySelector(id));
    const cap = box('#ed-captured'), sec = box('#ed-second');
    if (cap && ed.captured) cap.checked = ed.captured(cur);
    if (sec && ed.second) sec.checked = ed.second(cur);
    if (ed.counters) {
      const c = ed.counters(cur);
      for (const [id, v] of /** @type {[string, number][]} */ ([['#ed-full', c.full], ['#ed-half', c.half]])) {
        const b = box(id);
        if (b && document.activeElement !== b) b.value = String(v);
      }
    }
    for (const b of host.querySelectorAll('[data-put]')) {
      const on = /** @type {HTMLElement} */ (b).dataset.put === pick;
      b.classList.toggle('picked', on);
      b.setAttribute('aria-pressed', String(on));
    }
  }
  /** A change to the position: the last reason goes. @param {string} next */
  const change = (next) => { cur = next; err.textContent = ''; draw(); };

  function onClick(/** @type {string} */ sq) {
    if (pick === 'x') return change(ed.put(cur, sq, ''));
    if (pick) return change(ed.put(cur, sq, ed.at(cur, sq) === pick && (!ed.classAt || ed.classAt(cur, sq) === cls) ? '' : pick, cls || undefined));
    if (selected) {
      const from = selected;
      selected = null;
      return change(from === sq ? cur : ed.move(cur, from, sq));
    }
    selected = ed.at(cur, sq) ? sq : null;
    draw();
  }

  const onHostClick = (/** @type {MouseEvent} */ e) => {
    const el = /** @type {HTMLElement} */ (e.target);
    const put = /** @type {HTMLElement | null} */ (el.closest('[data-put]'));
    if (put) { pick = pick === put.dataset.put ? '' : String(put.dataset.put); selected = null; draw(); return; }
    const c = /** @type {HTMLElement | null} */ (el.closest('[data-cls]'));
    if (c) {
      cls = String(c.dataset.cls);
      // A piece picked up on the board takes the class at once.
      if (selected && ed.setClass) { const sq = selected; selected = null; change(ed.setClass(cur, sq, cls)); } else draw();
      return;
    }
    const b = /** @type {HTMLElement | null} */ (el.closest('[data-e]'));
    if (!b) return;
    const what = b.dataset.e;
    if (what === 'start') { selected = null; change(study.normal(study.start)); }
    else if (what === 'clear') { selected = null; change(study.normal(ed.empty)); }
    else if (what === 'flip') { flipped = !flipped; draw(); }
    else if (what === 'cancel') opts.cancel();
    else if (what === 'done') {
      const why = ed.why(cur);
      if (why) { err.textContent = reasonText(why); return; }
      opts.done(cur);
    }
  };
  const onChange = (/** @type {Event} */ e) => {
    const el = /** @type {HTMLInputElement} */ (e.target);
    if (el.name === 'ed-side') change(ed.side(cur, el.value === 'first'));
    else if (/^ed-score-/.test(el.id) && ed.setScores) {
      const v = (/** @type {string} */ id) => Number(/** @type {HTMLInputElement} */ (host.querySelector(id)).value) || 0;
      change(ed.setScores(cur, v('#ed-score-1'), v('#ed-score-2')));
    }
    else if (el.id === 'ed-captured' && ed.setCaptured) change(ed.setCaptured(cur, el.checked));
    else if (el.id === 'ed-second' && ed.setSecond) change(ed.setSecond(cur, el.checked));
    else if ((el.id === 'ed-full' || el.id === 'ed-half') && ed.setCounters) {
      const v = (/** @type {string} */ id) => Number(/** @type {HTMLInputElement} */ (host.querySelector(id)).value);
      change(ed.setCounters(cur, v('#ed-half'), v('#ed-full')));
    }
  };
  // A piece dragged from the board and let go outside it leaves the board.
  const onUp = (/** @type {PointerEvent} */ e) => {
    if (!selected || pick) return;
    const r = svg.getBoundingClientRect();
    if (e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom) return;
    const sq = selected;
    selected = null;
    change(ed.put(cur, sq, ''));
  };
  // A palette piece dragged onto a point.
  const onDragStart = (/** @type {DragEvent} */ e) => {
    const put = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest && /** @type {HTMLElement} */ (e.target).closest('[data-put]'));
    if (put && e.dataTransfer) { e.dataTransfer.setData('text/plain', String(put.dataset.put)); e.dataTransfer.effectAllowed = 'copy'; }
  };
  const onDragOver = (/** @type {DragEvent} */ e) => { e.preventDefault(); };
  const onDrop = (/** @type {DragEvent} */ e) => {
    e.preventDefault();
    const letter = e.dataTransfer ? e.dataTransfer.getData('text/plain') : '';
    const at = document.elementFromPoint(e.clientX, e.clientY);
    const point = /** @type {HTMLElement | null} */ (at && at.closest('[data-sq]'));
    if (!point || !letter || (letter !== 'x' && !ed.palette.includes(letter))) return;
    change(ed.put(cur, String(point.dataset.sq), letter === 'x' ? '' : letter));
  };
  host.addEventListener('click', onHostClick);
  host.addEventListener('change', onChange);
  host.addEventListener('dragstart', onDragStart);
  svg.addEventListener('dragover', onDragOver);
  svg.addEventListener('drop', onDrop);
  svg.addEventListener('pointerup', onUp);
  draw();
  return () => {
    host.removeEventListener('click', onHostClick);
    host.removeEventListener('change', onChange);
    host.removeEventListener('dragstart', onDragStart);
    host.innerHTML = '';
  };
}
