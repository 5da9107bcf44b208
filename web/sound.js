// @ts-check
// Sounds for a move, a capture, a game's end and start, and a challenge, made with the Web Audio API
// (no sound files). On or off is kept in localStorage ('qy-sound'); on by
// default. Each sound played is also noted in window.__qySounds (tests read it).
const KEY = 'qy-sound';
let ctx = null;

export function soundOn() { return localStorage.getItem(KEY) !== 'off'; }
export function setSound(on) { localStorage.setItem(KEY, on ? 'on' : 'off'); }

function audio() {
  if (!ctx) {
    // Older Safari names it webkitAudioContext.
    const A = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!A) return null;
    try { ctx = new A(); } catch { return null; }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

// One tone: frequency (Hz), start offset and length (s), peak gain, wave shape.
function tone(a, freq, at, len, gain, type = 'sine') {
  const o = a.createOscillator(), g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, a.currentTime + at);
  g.gain.setValueAtTime(0.0001, a.currentTime + at);
  g.gain.exponentialRampToValueAtTime(gain, a.currentTime + at + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + at + len);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + at);
  o.stop(a.currentTime + at + len + 0.02);
}

const SOUNDS = {
  // A piece set down on wood: a short low knock.
  move: (a) => { tone(a, 420, 0, 0.08, 0.35, 'triangle'); tone(a, 180, 0, 0.06, 0.25); },
  // A capture: two knocks, the second sharper.
  capture: (a) => { tone(a, 300, 0, 0.07, 0.35, 'triangle'); tone(a, 620, 0.06, 0.12, 0.3, 'square'); },
  // The end of a game: three notes.
  end: (a) => { tone(a, 523, 0, 0.18, 0.25); tone(a, 659, 0.16, 0.18, 0.25); tone(a, 784, 0.32, 0.35, 0.25); },
  // A game of one's starts: two rising notes.
  start: (a) => { tone(a, 587, 0, 0.12, 0.25); tone(a, 880, 0.1, 0.22, 0.25); },
  // A challenge comes: a bell struck twice.
  challenge: (a) => { tone(a, 988, 0, 0.25, 0.2); tone(a, 988, 0.3, 0.3, 0.2); },
  // Check (将军): the knock of the move, then a sharp high warning.
  check: (a) => { tone(a, 420, 0, 0.08, 0.35, 'triangle'); tone(a, 1175, 0.08, 0.16, 0.25, 'square'); tone(a, 1480, 0.2, 0.18, 0.2, 'square'); },
  // One's own clock runs low: three short ticks.
  lowtime: (a) => { tone(a, 1760, 0, 0.05, 0.2, 'square'); tone(a, 1760, 0.18, 0.05, 0.2, 'square'); tone(a, 1760, 0.36, 0.05, 0.2, 'square'); },
};

/** Plays `name` ('move', 'capture', 'check', 'end', 'start', 'challenge', 'lowtime') if sounds are on. */
export function play(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  // The sounds played, for the browser tests to read.
  const w = /** @type {any} */ (window);
  (w.__qySounds = w.__qySounds || []).push(name);
  const a = audio();
  if (a) { try { SOUNDS[name](a); } catch { /* no audio device */ } }
}

/** How many pieces a position text shows (a capture lowers it). */
function pieces(fen) { return ((fen || '').split(' ')[0].match(/[A-Za-z?]/g) || []).length; }

/** The sound for the step from `prev` to `next` state, or null. */
export function soundFor(prev, next) {
  if (!prev || prev.id !== next.id) return null;
  if (prev.status !== 'finished' && next.status === 'finished') return 'end';
  const a = (prev.records || []).length, b = (next.records || []).length;
  if (b <= a) return null;
  const before = a ? next.records[a - 1].fen : prev.fen;
  // A move that leaves something marked in danger (a general in check) sounds the warning.
  if ((next.alerts || []).length && next.status === 'playing') return 'check';
  return pieces(next.fen) < pieces(before || prev.fen) ? 'capture' : 'move';
}
