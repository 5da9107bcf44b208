// @ts-check
// Board and piece themes, for the boards whose game module takes them (its
// `themes` hook; the module's board reads the choice), chosen on the game
// page and kept in localStorage ('qy-board', 'qy-pieces'). The dark page
// theme dims whichever board is chosen (style.css).
export const BOARDS = {
  wood: { bg: '#e9c98f', line: '#5b3a1a', coord: '#6b4a22' },
  green: { bg: '#cfe3c0', line: '#2f4a2a', coord: '#2f4a2a' },
  blue: { bg: '#d6e2ee', line: '#23405c', coord: '#23405c' },
  paper: { bg: '#f4f1ea', line: '#2a2a2a', coord: '#444444' },
};

export const PIECES = {
  // Characters in the side's colour on a cream disc.
  classic: { face: '#fbeed2', idle: '#eee6d6', red: '#b5221b', black: '#1b1b1b', solid: false },
  // Discs filled with the side's colour, white characters.
  solid: { face: null, idle: null, red: '#b5221b', black: '#24324a', solid: true },
  // Green-black and red on pale jade.
  jade: { face: '#e4f1e8', idle: '#d8e6dc', red: '#a3261d', black: '#1d4d3a', solid: false },
};

/** @param {string} key @param {Record<string, any>} table @param {string} fallback */
const pick = (key, table, fallback) => {
  let v = '';
  try { v = localStorage.getItem(key) || ''; } catch { v = ''; }
  return table[v] ? v : fallback;
};

/** The chosen board and piece theme names. */
export function boardTheme() { return pick('qy-board', BOARDS, 'wood'); }
export function pieceTheme() { return pick('qy-pieces', PIECES, 'classic'); }

export function setBoardTheme(name) { if (BOARDS[name]) localStorage.setItem('qy-board', name); }
export function setPieceTheme(name) { if (PIECES[name]) localStorage.setItem('qy-pieces', name); }
