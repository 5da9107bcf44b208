// @ts-check
// The dark theme, set before the first paint (a classic script in <head>, so
// the page never flashes light; the Content-Security-Policy allows no inline
// script).
try { var q = localStorage.getItem('qy-theme'); if (q === 'dark' || (!q && matchMedia('(prefers-color-scheme: dark)').matches)) document.documentElement.dataset.theme = 'dark'; } catch { /* storage refused: the light theme */ }
