#!/usr/bin/env bash
# What the envelope PUT on PostgreSQL waits for and spends its database time on, beside the same
# statement run by a bare server and by pgbench (issue 32): runs, one after the other, folio's PUT
# alone and the bare server running the PUT's statement alone (the `put` bench's one-side modes,
# `PG_WAITS_N` requests each, default 20,000), then the PUT's statement alone in pgbench
# (`bench/pg-ceiling.sh`'s one-side mode, `PG_WAITS_SECONDS`, default 10), while one session
# samples what every client backend is doing (`pg_stat_activity`, every 10 ms). Prints, for each
# side, its rate and the machine's CPU a request, the samples by state and wait event, and its
# statements by total time (`pg_stat_statements`, reset before each side).
#
#   FOLIO_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bench/pg-waits.sh
#
# Needs `pg_stat_statements` in `shared_preload_libraries` (a server restart):
#   psql -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'" && restart
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/folio-target}"
url="${FOLIO_TEST_DATABASE_URL:?set FOLIO_TEST_DATABASE_URL to a PostgreSQL database}"
psql -q "$url" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
psql -qtA "$url" -c "SELECT 1 FROM pg_stat_statements LIMIT 1" >/dev/null ||
  { echo "pg_stat_statements is not loaded (shared_preload_libraries)"; exit 1; }

# `PUT_BENCH` names a built `put` bench binary to use instead (another version's, say).
put="${PUT_BENCH:-$(cargo bench --no-run -q -p folio-silo --bench put --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "put" and m.get("executable"):
        print(m["executable"])
')}"

psql -q "$url" -c "DROP TABLE IF EXISTS bench_waits, bench_phase, bench_statements" \
  -c "CREATE UNLOGGED TABLE bench_waits (side TEXT, state TEXT, wait TEXT, query TEXT)" \
  -c "CREATE UNLOGGED TABLE bench_phase (side TEXT)" \
  -c "CREATE UNLOGGED TABLE bench_statements AS SELECT ''::text AS side, * FROM pg_stat_statements LIMIT 0" \
  -c "INSERT INTO bench_phase VALUES ('set-up')" >/dev/null
# The sampler: one session, 10 ms apart, until every side has run (it is cancelled then).
psql -q "$url" -c "DO \$\$ BEGIN LOOP
  INSERT INTO bench_waits SELECT (SELECT side FROM bench_phase LIMIT 1), state,
    coalesce(wait_event_type || ':' || wait_event, 'CPU'), left(query, 60) FROM pg_stat_activity
   WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
     AND (datname LIKE 'folio_test_%' OR application_name = 'pgbench');
  COMMIT; PERFORM pg_sleep(0.01); END LOOP; END \$\$" >/dev/null 2>&1 &
sampler=$!
trap 'kill $sampler 2>/dev/null || true' EXIT

# One side: its phase for the sampler, its statements kept apart.
side() {
  psql -q "$url" -c "UPDATE bench_phase SET side = '$1'" -c "SELECT pg_stat_statements_reset()" >/dev/null
  "${@:2}"
  psql -q "$url" -c "INSERT INTO bench_statements SELECT '$1', * FROM pg_stat_statements WHERE calls >= 100" >/dev/null
}
source bench/cpu.sh
n="${PG_WAITS_N:-20000}"
one_side() {
  local started=$SECONDS before
  before="$(busy_us)"
  BENCH_BACKEND=postgres SILO_BENCH_ONLY="$1" SILO_BENCH_N="$n" "$put"
  echo "$1 alone: $n requests in $((SECONDS - started)) s (its set-up and a warm-up of 100 included), $(( ($(busy_us) - before) / n )) µs of the machine's CPU a request"
}
side "folio PUT" one_side put
side "bare statement server" one_side statement
side pgbench env PG_CEILING_ONLY=put bench/pg-ceiling.sh "${PG_WAITS_SECONDS:-10}"
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true

echo "== client backends of each side, by state and wait event (share of the side's samples)"
psql -q "$url" -c "SELECT side, coalesce(state, '?') AS state, wait, count(*) AS samples,
  round(100.0 * count(*) / sum(count(*)) OVER (PARTITION BY side), 1) AS pct
  FROM bench_waits WHERE side <> 'set-up' GROUP BY 1, 2, 3 HAVING count(*) >= 10 ORDER BY 1, 4 DESC"
echo "== active backends only: what they wait for"
psql -q "$url" -c "SELECT side, wait, count(*) AS samples,
  round(100.0 * count(*) / sum(count(*)) OVER (PARTITION BY side), 1) AS pct
  FROM bench_waits WHERE side <> 'set-up' AND state = 'active' GROUP BY 1, 2 HAVING count(*) >= 10 ORDER BY 1, 3 DESC"
echo "== statements by total time"
psql -q "$url" -c "SELECT side, calls, round(total_exec_time::numeric, 0) AS total_ms,
  round(mean_exec_time::numeric, 3) AS mean_ms, wal_records / greatest(calls, 1) AS wal_records_per_call,
  round(wal_bytes / greatest(calls, 1)) AS wal_b_per_call,
  left(regexp_replace(query, '\s+', ' ', 'g'), 70) AS query
  FROM bench_statements ORDER BY 1, total_exec_time DESC"
psql -q "$url" -c "DROP TABLE IF EXISTS bench_waits, bench_phase, bench_statements" >/dev/null
