// @ts-check
// The page's words in Chinese and English. The catalogue lives in
// web/strings/ (a file per area, each key once with both languages side by
// side, so a missing translation is visible and tested: tests/webcheck/
// i18n-complete.mjs). The default language follows the browser; the choice is kept.
import common from './strings/common.js';
import errors from './strings/errors.js';
import events from './strings/events.js';
import rules from './strings/rules.js';
import xiangqi from './strings/xiangqi.js';
import banqi from './strings/banqi.js';
import tiaoqi from './strings/tiaoqi.js';
import junqi from './strings/junqi.js';
import siguo from './strings/siguo.js';
import profile from './strings/profile.js';
import study from './strings/study.js';
import review from './strings/review.js';
import puzzles from './strings/puzzles.js';
import collection from './strings/collection.js';
import analysisExtras from './strings/analysis-extras.js';

/** Every area's strings, merged (the check rejects a key defined twice). */
export const CATALOGUE = Object.freeze({ ...common, ...errors, ...events, ...rules, ...xiangqi, ...banqi, ...tiaoqi, ...junqi, ...siguo, ...profile, ...study, ...review, ...puzzles, ...collection, ...analysisExtras });

let lang = localStorage.getItem('qy-lang') || ((navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en');

/** The current language code. */
export function getLang() { return lang; }

/** Switches the language and remembers it. */
export function setLang(l) { lang = l; localStorage.setItem('qy-lang', l); document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en'; }

/**
 * The string for `key` in the current language (the key itself when unknown),
 * with each `{name}` of `params` filled in (a placeholder without a value stays).
 * @param {string | null | undefined} key (a missing key reads as itself)
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function t(key, params) {
  const e = /** @type {Record<string, {en: string, zh: string}>} */ (CATALOGUE)[String(key)];
  if (!e) return String(key);
  const s = lang === 'zh' ? e.zh : e.en;
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] == null ? m : String(params[k])));
}

/** Whether the catalogue has `key`. @param {string} key */
export function hasKey(key) { return Object.prototype.hasOwnProperty.call(CATALOGUE, key); }

/** Fills every element with data-i18n. */
export function applyStatic(root = document) {
  /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]')).forEach((el) => { el.textContent = t(el.dataset.i18n); });
}
