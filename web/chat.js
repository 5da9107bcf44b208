// @ts-check
// The players' chat on the game page (none against the computer; spectators
// do not see it). Messages arrive on the game's socket as {"t":"chat"};
// sending, muting and reporting go over HTTP so their errors show here.
import { t } from './i18n.js';
import { api, esc, seatLabel } from './util.js';

/** Whether the viewer of `state` has a chat. */
export const chatOn = (state) => state.seat != null && state.status !== 'waiting' && !(state.seats || []).some((s) => s.kind === 'ai');

export function chatPanel(box, id) {
  let lines = [], muted = false, loaded = false, state = null;
  const reported = new Set();
  const name = (seat) => esc(seatLabel(state && state.seats[seat]));
  function draw() {
    if (!state || !chatOn(state)) { box.hidden = true; box.innerHTML = ''; return; }
    box.hidden = false;
    if (!box.querySelector('form')) {
      box.innerHTML = `<div class="chat-head"><b>${t('chat')}</b> <button type="button" class="small" data-testid="chat-mute"></button></div>
        <div class="chat-lines" data-testid="chat-lines"></div>
        <form class="chat-form" data-testid="chat-form"><input maxlength="200" autocomplete="off" data-testid="chat-input" aria-label="${esc(t('chat'))}"><button data-testid="chat-send">${t('chat_send')}</button></form>
        <div class="err" data-testid="chat-error"></div>`;
      box.querySelector('form').addEventListener('submit', async (e) => {
        e.preventDefault();
        const input = box.querySelector('input'), text = input.value.trim();
        if (!text) return;
        try { await api('POST', `/api/games/${encodeURIComponent(id)}/chat`, { text }); input.value = ''; error(''); }
        catch (x) { error(x.message); }
      });
      box.querySelector('[data-testid="chat-mute"]').addEventListener('click', async () => {
        try { const r = await api('POST', `/api/games/${encodeURIComponent(id)}/chat/mute`, { mute: !muted }); lines = r.lines; muted = r.muted; draw(); }
        catch (x) { error(x.message); }
      });
    }
    box.querySelector('input').placeholder = t('chat_placeholder');
    const mute = box.querySelector('[data-testid="chat-mute"]');
    mute.textContent = muted ? t('chat_unmute') : t('chat_mute');
    mute.setAttribute('aria-pressed', String(muted));
    const list = box.querySelector('.chat-lines');
    list.innerHTML = (muted ? `<div class="muted small" data-testid="chat-muted">${t('chat_muted_note')}</div>` : '')
      + (lines.length ? lines.map((l) => `<div class="chat-line${l.seat === state.seat ? ' mine' : ''}" data-testid="chat-line"><b>${name(l.seat)}:</b> <span data-testid="chat-text">${esc(l.text)}</span>${l.seat !== state.seat ? (reported.has(l.id) ? ` <span class="muted small" data-testid="chat-reported">${t('chat_reported')}</span>` : ` <button type="button" class="link small" data-report="${l.id}" data-testid="chat-report" title="${esc(t('chat_report'))}">⚑ ${t('chat_report')}</button>`) : ''}</div>`).join('') : `<div class="muted small">${t('chat_none')}</div>`);
    list.querySelectorAll('[data-report]').forEach((b) => b.addEventListener('click', async () => {
      const lid = Number(b.dataset.report);
      try { await api('POST', `/api/games/${encodeURIComponent(id)}/chat/report`, { id: lid }); reported.add(lid); draw(); }
      catch (x) { error(x.message); }
    }));
    list.scrollTop = list.scrollHeight;
  }
  const error = (m) => { const e = box.querySelector('[data-testid="chat-error"]'); if (e) e.textContent = m; };
  async function load() {
    try { const r = await api('GET', `/api/games/${encodeURIComponent(id)}/chat`); lines = r.lines; muted = r.muted; } catch { /* no chat here */ }
    draw();
  }
  return {
    /** A new state of the game (the chat opens once the viewer is seated). */
    onState(s) { const was = state && chatOn(state); state = s; if (chatOn(s) && (!loaded || !was)) { loaded = true; load(); } else if (!chatOn(s)) draw(); },
    /** A chat frame from the socket. */
    onFrame(m) { if (lines.some((l) => l.id === m.id)) return; lines.push({ id: m.id, seat: m.seat, text: m.text, at_ms: m.at_ms }); if (lines.length > 50) lines.shift(); draw(); },
    /** After a reconnect: what was said meanwhile. */
    reload() { if (state && chatOn(state)) load(); },
  };
}
