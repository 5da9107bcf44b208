// @ts-check
// Light or dark colours (CSS variables in style.css, switched by
// <html data-theme>), kept in localStorage ('qy-theme'). With nothing kept
// the system's preference decides.
import { t } from './i18n.js';

const KEY = 'qy-theme';

export function theme() {
  const kept = localStorage.getItem(KEY);
  if (kept === 'dark' || kept === 'light') return kept;
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme() {
  const th = theme();
  document.documentElement.dataset.theme = th;
  const b = document.getElementById('theme');
  if (b) {
    // The button names what a click switches to.
    b.innerHTML = th === 'dark' ? `☀<span class="theme-label"> ${t('theme_light')}</span>` : `☾<span class="theme-label"> ${t('theme_dark')}</span>`;
    b.title = t('theme_about');
    b.setAttribute('aria-pressed', String(th === 'dark'));
  }
}

export function bindTheme() {
  const b = document.getElementById('theme');
  if (b) b.addEventListener('click', () => { localStorage.setItem(KEY, theme() === 'dark' ? 'light' : 'dark'); applyTheme(); });
  applyTheme();
}
