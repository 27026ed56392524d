#!/usr/bin/env bash
# CI: the served contract tells the truth. Starts folio on a fresh SQLite data folder on loopback
# ports and runs schemathesis (every check) against every committed `api/<service>/v<N>.json` and `api/apps/<app>/v<N>.json`.
# Any failure or server error fails the run. One worker: with two, CPython 3.11's parser is not
# thread-safe under Hypothesis ("AST constructor recursion depth mismatch", a runtime error).
#
# Budget: a fixed seed and a bounded example count per operation, so a run is reproducible and
# takes about a minute and a half on a 2-core machine once folio is built (budget: 4 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/folio-target}"
SEED="${SCHEMATHESIS_SEED:-20240301}"
EXAMPLES="${SCHEMATHESIS_EXAMPLES:-20}"

echo "== schemathesis $(schemathesis --version | awk '{print $NF}'): seed $SEED, $EXAMPLES examples per operation"
cargo build --quiet -p folio
folio="$CARGO_TARGET_DIR/debug/folio"

work="$(mktemp -d)"
server=""
stop() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill -TERM "$server" && wait "$server" || true
  fi
  rm -rf "$work"
}
trap stop EXIT

# Port 0: the kernel picks free ports; the server logs where it listens.
"$folio" serve --data "$work/data" --listen 127.0.0.1:0 --ops-listen 127.0.0.1:0 \
  --log-format text >"$work/server.log" 2>&1 &
server=$!
api=""
for _ in $(seq 1 100); do
  api="$(grep -o 'listening on http://127\.0\.0\.1:[0-9]*' "$work/server.log" | head -n1 | sed 's/^listening on //')" || true
  [ -n "$api" ] && [ -s "$work/data/token" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; exit 1; }
  sleep 0.1
done
[ -n "$api" ] || { echo "the server did not start"; cat "$work/server.log"; exit 1; }
token="$(cat "$work/data/token")"
echo "server at $api"

failed=0
for doc in api/*/v*.json api/apps/*/v*.json; do
  echo "== schemathesis $doc"
  # The committed document is the one tested, so it must be the one the server serves.
  served="${doc#api/}"
  served="/${served%.json}/openapi.json"
  curl -fsS "$api$served" | cmp -s - "$doc" || { echo "$served differs from $doc"; failed=1; }
  if ! schemathesis --config-file .ci/schemathesis.toml run "$doc" --url "$api" \
      -H "Authorization: Bearer $token" \
      --checks all --seed "$SEED" --max-examples "$EXAMPLES" --workers 1 \
      --generation-database none --no-color \
      --report junit --report-dir "$work/report"; then
    failed=1
  fi
done

if grep -q 'panicked' "$work/server.log"; then
  echo "the server panicked:"; grep -A3 'panicked' "$work/server.log"; failed=1
fi
exit "$failed"
