#!/usr/bin/env bash
# Soak test of the hall: tests/soak/run.sh QIYUAN_BIN [SECONDS]
# Real games over WebSocket and HTTP, bad requests and socket churn against a
# fresh server on 127.0.0.1 for SECONDS (default 60), then checks that it
# stayed alive, answered no 5xx, did not keep memory, and lost no
# acknowledged move, also across a SIGKILL and restart. Python 3 stdlib only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ $# -lt 1 ]]; then
  echo "usage: $0 QIYUAN_BIN [SECONDS]" >&2
  exit 2
fi
exec python3 "$here/soak.py" "$1" --seconds "${2:-60}"
