// @ts-check
// The rules page (#/rules, #/rules/<section>): a section per game the hall
// serves, in the lobby's order (GET /api/kinds), each written in the
// catalogue (web/strings/rules.js) under keys named after the game:
//   rules_<id>_title   the section's heading;
//   rules_<id>_intro   optional: a sentence before the list;
//   rules_<id>_1 … _N  the rules it plays by, one a point, each opening with
//                      the numbers of the decisions it states (`X4: …`,
//                      `B13–B17: …`; see the project's rules pages).
// <id> is a variant's name when it has a text of its own, else its family
// (the name up to the first '-'): the variants of one family share a section,
// which names them. This module knows no game: a new game adds its keys.
import { t, CATALOGUE } from './i18n.js';
import { kindsQuickFirst } from './kinds.js';
import { esc } from './util.js';

/** @param {string} key */
const has = (key) => Object.prototype.hasOwnProperty.call(CATALOGUE, key);

/**
 * The sections, in order: each id with the variants it covers.
 * @returns {{ id: string, variants: string[] }[]}
 */
export function sections() {
  /** @type {Map<string, string[]>} */
  const out = new Map();
  for (const k of kindsQuickFirst()) {
    for (const v of k.variants) {
      const name = String(v.name);
      const id = has(`rules_${name}_title`) ? name : name.split('-')[0];
      if (!out.has(id)) out.set(id, []);
      /** @type {string[]} */ (out.get(id)).push(name);
    }
  }
  return [...out].map(([id, variants]) => ({ id, variants }));
}

/** The points of a section: rules_<id>_1, _2 … while they exist. @param {string} id */
function points(id) {
  const list = [];
  for (let i = 1; has(`rules_${id}_${i}`); i++) list.push(t(`rules_${id}_${i}`));
  return list;
}

// A point opens with its decision numbers ("X2, X3:", "B13–B17：").
const NUMBERS = /^([A-Z]\d+(?:\s*[–,，、-]\s*[A-Z]?\d+)*)\s*[:：]\s*/;

/** One point: its decision numbers as a badge, then the text (the catalogue's own markup). @param {string} text */
function point(text) {
  const m = NUMBERS.exec(text);
  if (!m) return `<li>${text}</li>`;
  return `<li data-decisions="${esc(m[1])}"><b class="rule-no">${esc(m[1])}</b> ${text.slice(m[0].length)}</li>`;
}

/**
 * Draws the rules page into `view`; `focus` (a section id) scrolls to it.
 * @param {HTMLElement} view
 * @param {string} [focus]
 */
export function rulesView(view, focus) {
  const list = sections();
  const title = (/** @type {{ id: string, variants: string[] }} */ s) => (has(`rules_${s.id}_title`) ? t(`rules_${s.id}_title`) : t(s.variants[0]));
  const toc = list.map((s) => `<a href="#/rules/${encodeURIComponent(s.id)}" data-testid="rules-link-${esc(s.id)}">${esc(title(s))}</a>`).join(' · ');
  const body = list.map((s) => {
    const pts = points(s.id);
    const intro = has(`rules_${s.id}_intro`) ? `<p>${t(`rules_${s.id}_intro`)}</p>` : '';
    return `<section class="card rules-section" id="rules-${esc(s.id)}" data-testid="rules-${esc(s.id)}" data-variants="${esc(s.variants.join(' '))}">
      <h3>${esc(title(s))}</h3>
      <p class="muted small" data-testid="rules-variants-${esc(s.id)}">${t('rules_played_as')}${s.variants.map((v) => esc(t(v))).join(t('rules_list_sep'))}</p>
      ${intro}
      ${pts.length ? `<ul class="rules-points">${pts.map(point).join('')}</ul>` : `<p class="muted">${t('rules_none')}</p>`}
    </section>`;
  }).join('');
  view.innerHTML = `<div data-testid="rules"><div class="card"><h2>${t('rules')}</h2><p>${t('rules_about')}</p><p class="rules-toc" data-testid="rules-toc">${toc}</p></div>${body}</div>`;
  if (focus) {
    const el = document.getElementById(`rules-${focus}`);
    if (el) el.scrollIntoView();
  }
}
