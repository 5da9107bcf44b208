// @ts-check
// Small helpers shared by the page's views.
import { t, getLang, hasKey } from './i18n.js';
import { kindOf } from './kinds.js';

/**
 * The code a bare HTTP status stands for when an answer names none (a proxy's
 * page, a body that is not JSON): the hall's own mapping (error.rs).
 * @param {number} status
 */
function codeOfStatus(status) {
  /** @type {Record<number, string>} */
  const by = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed', 408: 'timeout', 409: 'conflict', 411: 'length_required', 413: 'body_too_large', 414: 'uri_too_long', 415: 'unsupported_media_type', 429: 'rate_limited', 431: 'headers_too_large', 503: 'busy' };
  return by[status] || (status >= 500 ? 'internal' : 'bad_request');
}

/**
 * A hall error (`{code, details}` of an HTTP answer or a socket frame) in the
 * page's language, never the server's English sentence: the message
 * `code_<code>_<why>` (when details say why) or `code_<code>`, filled from the
 * details; a field name in the details is itself translated (`field_<name>`,
 * each run of other characters than letters, digits and _ written as one _).
 * A code the page does not know, or a message whose values did not come,
 * falls back to the plain message of the status.
 * @param {{code?: string, details?: Record<string, unknown> | null}} err
 * @param {number} [status] the HTTP status (0: a socket frame)
 */
export function errorText(err, status = 0) {
  const code = err && typeof err.code === 'string' ? err.code : '';
  const d = (err && err.details && typeof err.details === 'object') ? err.details : {};
  /** @type {Record<string, unknown>} */
  const fill = { ...d };
  // A field's own message: `field_` and its name with each run of other characters than letters, digits and _ as one _ (clock.initial_s: field_clock_initial_s).
  if (typeof d.field === 'string') {
    const key = 'field_' + d.field.replace(/\W+/g, '_').replace(/_+$/, '');
    fill.field = hasKey(key) ? t(key) : d.field;
  }
  const keys = [];
  if (code && typeof d.why === 'string') keys.push(`code_${code}_${d.why}`);
  if (code) keys.push(`code_${code}`);
  for (const k of keys) {
    if (!hasKey(k)) continue;
    const text = t(k, fill);
    if (!/\{\w+\}/.test(text)) return text;
    // A value is missing: the code's plain message, without values.
    if (hasKey(`code_${code}_plain`)) return t(`code_${code}_plain`);
  }
  return t('code_' + codeOfStatus(status || 400));
}

/**
 * An Error for a failed request: its message is {@link errorText} (in the
 * page's language); `status`, `code` and `details` are the hall's.
 * @param {number} status
 * @param {any} data the answer's JSON body, if any
 */
export function apiError(status, data) {
  const body = data && typeof data === 'object' ? data : {};
  return Object.assign(new Error(errorText(body, status)), { status, code: body.code || codeOfStatus(status), details: body.details || null });
}

/** A JSON request; a failure throws {@link apiError} (message in the page's language, `status`, `code`, `details`). */
export async function api(method, path, body) {
  let r;
  try {
    r = await fetch(path, { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined, credentials: 'same-origin' });
  } catch {
    // The browser's own words ("Failed to fetch") are English.
    throw Object.assign(new Error(t('err_network')), { status: 0, code: 'network', details: null });
  }
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw apiError(r.status, data);
  return data;
}

export function esc(s) { return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c])); }

export function seatLabel(s) {
  if (!s) return '?';
  if (s.kind === 'user') return s.name;
  if (s.kind === 'ai') return t('ai_named', { n: s.level });
  return '—';
}

/** Whether a seat is a guest (guests have no rating to show). */
export function isGuest(s) { return !!s && s.kind === 'user' && /^guest-/i.test(s.name || ''); }

/**
 * A room's clock: minutes + increment, or the fixed time a move of the kinds
 * that have one (30 s, say) as "30 s a move".
 */
export function clockText(c, game) {
  const days = clockDays(c);
  if (days) return days === 1 ? t('day_per_move') : t('days_per_move').replace('{n}', String(days));
  const kind = game && kindOf(game);
  const perMove = (kind && kind.clock && kind.clock.kind === 'per_move') || (!game && c.initial_s < 60);
  if (perMove) return t('per_move').replace('{n}', c.initial_s);
  return `${baseText(c.initial_s)}+${c.increment_s}`;
}

/**
 * A date and time, short, in the page's language (the browser's own locale
 * would write a Chinese page's dates in English).
 * @param {number} ms
 */
export function whenText(ms) {
  return new Date(ms).toLocaleString(getLang() === 'zh' ? 'zh-CN' : undefined, { dateStyle: 'short', timeStyle: 'short' });
}

/**
 * A base time in minutes as players write it: "5", "½" for 30 s, "1:30"
 * for 90 s (never 0.1333… for 8 s).
 * @param {number} s
 */
export function baseText(s) {
  if (s % 60 === 0) return String(s / 60);
  const parts = { 15: '¼', 30: '½', 45: '¾' };
  if (s in parts) return parts[s];
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The days a move of a correspondence game has (null: a live clock). The
 * game's state says `days`; a lobby entry has only the seconds (a live clock
 * is never longer than 3 hours).
 * @param {any} c a clock ({initial_s, increment_s, days?})
 * @returns {number | null}
 */
export function clockDays(c) {
  if (!c) return null;
  if (c.days) return Number(c.days);
  return c.initial_s >= 86400 && c.initial_s % 86400 === 0 ? c.initial_s / 86400 : null;
}

/**
 * Time left on a correspondence clock: "2天 3小时" / "2d 3h", "5小时 4分" /
 * "5h 4m" under a day, m:ss under an hour.
 * @param {number} ms
 */
export function longClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return t('dur_days').replace('{d}', String(d)).replace('{h}', String(h));
  if (h) return t('dur_hours').replace('{h}', String(h)).replace('{m}', String(m));
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** The BOT badge after a bot user's name (nothing for anyone else). @param {any} s a seat */
export function botBadge(s) {
  return s && s.bot ? ` <span class="bot-badge" data-testid="bot-badge" title="${esc(t('bot_about'))}">${t('bot')}</span>` : '';
}

/** The UI's half of a server text "中文 / English" (a text without " / " is shown whole). */
export function ownHalf(text) {
  const s = String(text || '');
  const i = s.indexOf(' / ');
  if (i < 0) return s;
  return getLang() === 'zh' ? s.slice(0, i) : s.slice(i + 3);
}

/** A game's end reason ("stalemate", "perpetual-check" …) in the UI's language. */
export function reasonText(reason) {
  if (!reason) return '';
  const k = 'reason_' + reason;
  const s = t(k);
  return s === k ? reason : s;
}

/**
 * An element of the page's own markup, there whenever the code asking runs
 * (getElementById, without the null the types would have us check).
 * @param {string} id
 */
export function byId(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }

export function wsUrl(path) { return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`; }
