#!/usr/bin/env bash
# Checks of the page's JavaScript (web/): tsc over its JSDoc types (// @ts-check
# in every file), eslint, and that shared modules name no game. Exits non-zero
# on any error.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
npm ci --no-audit --no-fund --silent
echo "== tsc (web/, checkJs)"
node_modules/.bin/tsc -p tsconfig.json
# checkJs checks every file; the line at the top of each keeps editors
# checking them too, so each must have it.
missing=$(grep -L '^// @ts-check' ../../web/*.js ../../web/games/*.js ../../web/strings/*.js || true)
if [ -n "$missing" ]; then echo "no // @ts-check at the top of: $missing" >&2; exit 1; fi
echo "== eslint (web/)"
# From the repository root: eslint lints nothing outside its base folder.
(cd ../.. && "$here/node_modules/.bin/eslint" -c "$here/eslint.config.js" web)
echo "== shared web modules name no game"
node no-game-names.mjs
echo "== four-army Junqi's board geometry"
node siguo-geo.mjs
echo "== Jifen on the analysis board: perft as the engine's"
node jifen-study.mjs
echo "== Tiaoqi on the analysis board: perft as the engine's"
node tiaoqi-study.mjs
echo "== the catalogue: both languages, every error code"
node i18n-complete.mjs
echo "web checks passed"
