#!/usr/bin/env bash
# Cluster tests (issue 17): starts PostgreSQL and Redis on loopback in a
# temporary directory (installing the Debian packages when missing), runs the
# tests that need them, then stops both. Usage: tests/cluster/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PGPORT=$(free_port)
REDISPORT=$(free_port)
TMP=$(mktemp -d /tmp/qiyuan-cluster.XXXXXX)
chmod 755 "$TMP"
mkdir -p "$TMP/pg" "$TMP/sock"
# PostgreSQL will not run as root: as root, run it as the postgres user.
if [ "$(id -u)" = 0 ]; then
  chown postgres "$TMP/pg" "$TMP/sock"
  AS=(runuser -u postgres --)
else
  AS=()
fi

cleanup() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$TMP/pg" -m fast -w stop >/dev/null 2>&1 || true
  if [ -f "$TMP/redis.pid" ]; then kill "$(cat "$TMP/redis.pid")" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

"${AS[@]}" "$PGBIN/initdb" -D "$TMP/pg" -A trust -U postgres -E UTF8 >/dev/null
"${AS[@]}" "$PGBIN/pg_ctl" -D "$TMP/pg" -l "$TMP/sock/pg.log" -w \
  -o "-p $PGPORT -k $TMP/sock -c listen_addresses=127.0.0.1 -c synchronous_commit=on -c max_connections=200" \
  start >/dev/null
redis-server --port "$REDISPORT" --bind 127.0.0.1 --save '' --appendonly no \
  --daemonize yes --pidfile "$TMP/redis.pid" --logfile "$TMP/redis.log" --dir "$TMP"
for _ in $(seq 50); do
  redis-cli -p "$REDISPORT" ping >/dev/null 2>&1 && break
  sleep 0.1
done

export QIYUAN_TEST_POSTGRES="postgres://postgres@127.0.0.1:$PGPORT/postgres"
export QIYUAN_TEST_REDIS="redis://127.0.0.1:$REDISPORT/"
echo "PostgreSQL on $PGPORT, Redis on $REDISPORT"

# The same build as the README's `cargo test --workspace` (one test binary per
# crate, `it`), filtered to the tests that use the two servers.
cargo test --workspace --test it -- --nocapture \
  store_contract:: cluster_bus:: cluster:: banqi_hall::hidden_pieces_never_reach_any_client_across_nodes
