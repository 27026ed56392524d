# Sourced by the server benchmarks: builds folio and the load generator in release mode and
# starts folio on SQLite in a temporary folder, on loopback port $1 (ops on $2). Sets `bin`,
# `work`, `folio_pid` and `token`; the server and the folder go when the script exits.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/folio-target}"
cargo build --release -q -p folio -p folio-loadgen
bin="$CARGO_TARGET_DIR/release"

work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
# The rate limit stays on but is set above what one token can send here, so it is checked on
# every request without refusing any.
cat > "$work/folio.toml" <<TOML
[limits]
rate_per_second = 10000000
rate_burst = 10000000
TOML

RUST_LOG=warn "$bin/folio" serve --data "$work/data" --config "$work/folio.toml" \
  --listen "127.0.0.1:$1" --ops-listen "127.0.0.1:$2" &
folio_pid=$!
for _ in $(seq 1 50); do [ -s "$work/data/token" ] && break; sleep 0.2; done
token="$(cat "$work/data/token")"
for _ in $(seq 1 50); do curl -sf "127.0.0.1:$1/utils/v1/ping" -H "Authorization: Bearer $token" >/dev/null && break; sleep 0.2; done
