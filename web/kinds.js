// The games on offer, as the server lists them (GET /api/kinds): one list
// for the lobby, events and leaderboards. Loaded once at start.
let kinds = [];

export async function loadKinds() {
  try {
    const r = await fetch('/api/kinds');
    if (r.ok) kinds = (await r.json()).kinds;
  } catch { /* the lists stay empty; the page still works for links */ }
}

/** Every variant name, in the server's order. */
export function variantNames() { return kinds.flatMap((k) => k.variants.map((v) => v.name)); }

/** Every rating family (kind id). */
export function families() { return kinds.map((k) => k.id); }

/** Every rating family: each kind's, followed by `{kind}-multi` where the
 * kind has variants of more than two seats (rated on their own scale). */
export function ratingFamilies() {
  return kinds.flatMap((k) => (k.variants.some((v) => v.seats.some((n) => n > 2)) ? [k.id, `${k.id}-multi`] : [k.id]));
}

/** The kind of a variant. */
export function kindOf(variant) { return kinds.find((k) => k.variants.some((v) => v.name === variant)); }

const modules = {};

/** The page module of a variant's kind (`web/games/<web_module>.js`). */
export async function gameModule(variant) {
  const k = kindOf(variant);
  const name = (k && k.web_module) || 'xiangqi';
  if (!modules[name]) modules[name] = import(`./games/${name}.js`);
  return modules[name];
}
