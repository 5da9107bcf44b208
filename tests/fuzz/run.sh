#!/usr/bin/env bash
# API fuzzer: schemathesis against a freshly started hall on loopback.
#
#   tests/fuzz/run.sh QIYUAN_BIN
#
# Starts QIYUAN_BIN on a free 127.0.0.1 port with a fresh SQLite file and no
# rate limit, seeds it with accounts, games and events (seed.py), then runs
# schemathesis with a fixed seed and a bounded number of examples per
# operation against /api/openapi.json as the server serves it. Fails on any
# 5xx, a dropped connection or crash, a response that does not match the
# document (status code, content type, schema), schema-valid data refused,
# schema-invalid data accepted, a panic in the server's log, or a server that
# is not alive at the end. Then probes.py sends fixed requests that broke the
# server before. The server is always killed on exit. Takes about a minute
# and a half on 2 cores (debug build).
#
# Skipped: the NDJSON streams (/api/games/{id}/stream, /api/events/{id}/stream)
# last as long as their game, and a user's events (/api/stream/event) for ever; the long poll /api/games/{id}/wait holds a
# request up to 60 s by design (its bounds are tested in game_page_api.rs);
# the WebSockets (/ws) are not in the document.
#
# Environment (all optional):
#   FUZZ_EXAMPLES   examples per operation, main pass (default 300)
#   FUZZ_SEED       hypothesis seed (default 20261201)
#   FUZZ_OUT        directory for logs and reports (default: a new temp dir)
#   QIYUAN_FUZZ_SCHEMA  fuzz this file's document instead of the served one
#                   (e.g. a saved copy of a newer document against an older binary)
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-${QIYUAN_BIN:-}}"
if [[ -z "$bin" || ! -x "$bin" ]]; then
  echo "usage: $0 QIYUAN_BIN" >&2
  exit 2
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
examples="${FUZZ_EXAMPLES:-300}"
seed="${FUZZ_SEED:-20261201}"
out="${FUZZ_OUT:-$(mktemp -d /tmp/qiyuan-fuzz.XXXXXX)}"
mkdir -p "$out"
schema_file="${QIYUAN_FUZZ_SCHEMA:-}"
[[ -n "$schema_file" ]] && schema_file="$(cd "$(dirname "$schema_file")" && pwd)/$(basename "$schema_file")"

echo "== fuzz: installing schemathesis (tests/fuzz/requirements.txt)"
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
  -r "$here/requirements.txt" || { echo "fuzz: pip install failed" >&2; exit 2; }
want="$(sed -n 's/^schemathesis==//p' "$here/requirements.txt")"
have="$(python3 -m pip show schemathesis 2>/dev/null | sed -n 's/^Version: //p')"
if [[ "$have" != "$want" ]]; then
  echo "fuzz: schemathesis $have installed, $want wanted" >&2
  exit 2
fi
st=(python3 -m schemathesis.cli)
python3 -c 'import schemathesis.cli' 2>/dev/null || st=(schemathesis)

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
db="$out/fuzz.db"
rm -f "$db" "$db"-*

pid=""
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== fuzz: starting $bin on $base (logs: $out)"
# A 4 GiB address-space cap: a request that makes the server allocate without
# bound kills it (a failure) instead of the machine. AI moves get 5 ms, so
# games against the AI that the fuzzer creates cost little CPU.
(
  ulimit -v 4194304
  cd "$out" && RUST_BACKTRACE=1 QIYUAN_AI_MOVE_MS=5 exec "$bin" serve --port "$port" \
    --database "sqlite://$db" --rate-limit 0 --open-room-idle-s 3600
) >"$out/server.log" 2>&1 &
pid=$!

up=""
for _ in $(seq 300); do
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  if curl -sf --max-time 2 "$base/healthz" >/dev/null 2>&1; then up=1; break; fi
  sleep 0.1
done
if [[ -z "$up" ]]; then
  echo "fuzz: the server did not come up" >&2
  tail -20 "$out/server.log" >&2
  exit 1
fi

python3 "$here/seed.py" "$base" "$here/schemathesis.toml.in" "$out/schemathesis.toml" "$out/tokens.env" \
  || { echo "fuzz: seeding failed" >&2; exit 1; }

if [[ -n "$schema_file" ]]; then
  location=("$schema_file" --url "$base")
  echo "== fuzz: document $schema_file (not the served one)"
else
  location=("$base/api/openapi.json")
fi

# Checks (v4 names). Not used: missing_required_header (no required headers),
# object_level_authorization (needs two identities per operation).
checks="not_a_server_error,status_code_conformance,content_type_conformance"
checks+=",response_headers_conformance,response_schema_conformance"
checks+=",positive_data_acceptance,negative_data_rejection"
checks+=",unsupported_method,allow_header_conformance,ignored_auth"
checks+=",use_after_free,ensure_resource_availability"

common=(
  --checks "$checks"
  --seed "$seed"
  --exclude-path-regex '/(stream|ws|wait)$|^/api/stream/'
  --workers 1
  --request-timeout 30
  --generation-database none
  --no-shrink
  --continue-on-failure
  --warnings off
)
# One worker: Python 3.11's ast module is not thread-safe, and hypothesis
# parses lambdas with it (spurious "AST constructor recursion depth mismatch"
# errors with -w 2). --no-shrink: shrinking replays failing cases many times,
# which costs minutes and is pointless against a crashed server.

status=0
cd "$out" || exit 2

echo "== fuzz: registered user, $examples examples per operation"
"${st[@]}" --no-color --config-file "$out/schemathesis.toml" run "${location[@]}" \
  "${common[@]}" --max-examples "$examples" \
  --report junit,har --report-dir "$out/report-user" >"$out/fuzz-user.txt" 2>&1
rc=$?
sed -n '/^=* \(ERRORS\|FAILURES\)/,$p' "$out/fuzz-user.txt" | cut -c1-2000
[[ $rc -ne 0 ]] && { echo "fuzz: registered-user pass failed (exit $rc)"; status=1; }

if kill -0 "$pid" 2>/dev/null; then
  guest_examples=$(( examples / 5 > 10 ? examples / 5 : 10 ))
  echo "== fuzz: guest, $guest_examples examples per POST operation"
  "${st[@]}" --no-color --config-file "$out/schemathesis.toml.guest" run "${location[@]}" \
    "${common[@]}" --max-examples "$guest_examples" --include-method POST \
    --phases coverage,fuzzing \
    --report junit --report-dir "$out/report-guest" >"$out/fuzz-guest.txt" 2>&1
  rc=$?
  sed -n '/^=* \(ERRORS\|FAILURES\)/,$p' "$out/fuzz-guest.txt" | cut -c1-2000
  [[ $rc -ne 0 ]] && { echo "fuzz: guest pass failed (exit $rc)"; status=1; }
fi

# Fixed probes of bugs found before (last: some may kill the server).
if kill -0 "$pid" 2>/dev/null; then
  echo "== fuzz: probes of known bugs (probes.py)"
  python3 "$here/probes.py" "$base" "${schema_file:-$base/api/openapi.json}" >"$out/probes.txt" 2>&1
  rc=$?
  grep -v '^probe ok' "$out/probes.txt"
  [[ $rc -ne 0 ]] && status=1
fi

if ! kill -0 "$pid" 2>/dev/null || ! curl -sf --max-time 5 "$base/healthz" >/dev/null 2>&1; then
  echo "fuzz: FAIL: the server is not alive at the end; the end of its log:"
  grep -a -v -e '^ \+\(at \|[0-9]\+: \)' -e 'stack backtrace:' -e '^note: ' "$out/server.log" | sed 's/\x1b\[[0-9;]*m//g' | tail -5 | cut -c1-300
  status=1
fi
if grep -a -q -E 'panicked at|memory allocation of' "$out/server.log"; then
  echo "fuzz: FAIL: the server panicked or aborted while fuzzed:"
  grep -a -A1 -E 'panicked at|memory allocation of' "$out/server.log" | grep -a -v -e '^--$' -e 'stack backtrace:' \
    | sed 's/\x1b\[[0-9;]*m//g; s/ ([0-9]*) panicked/ panicked/' | cut -c1-300 | sort | uniq -c | head -20
  status=1
fi

if [[ $status -eq 0 ]]; then
  echo "fuzz: 1 passed, 0 failed (logs in $out)"
else
  echo "fuzz: 0 passed, 1 failed (logs, HAR of every request, JUnit in $out)"
fi
exit $status
