#!/usr/bin/env bash
# What the envelope PUT on PostgreSQL waits for and spends its database time on (issue 32): runs
# the PUT benchmark on PostgreSQL alone while one session samples what every client backend of
# the benchmark's database is doing (`pg_stat_activity`, every 10 ms), then prints the samples by
# state and wait event, and the statements by total time (`pg_stat_statements`, reset first;
# the benchmark's database is dropped by then, so its statements are found by their count).
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

put="$(cargo bench --no-run -q -p folio-silo --bench put --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "put" and m.get("executable"):
        print(m["executable"])
')"

psql -q "$url" -c "DROP TABLE IF EXISTS bench_waits" \
  -c "CREATE UNLOGGED TABLE bench_waits (state TEXT, wait TEXT, query TEXT)" \
  -c "SELECT pg_stat_statements_reset()" >/dev/null
# The sampler: one session, 10 ms apart, until the benchmark ends (it is cancelled then).
psql -q "$url" -c "DO \$\$ BEGIN LOOP
  INSERT INTO bench_waits SELECT state, coalesce(wait_event_type || ':' || wait_event, 'CPU'),
    left(query, 60) FROM pg_stat_activity
   WHERE backend_type = 'client backend' AND datname LIKE 'folio_test_%' AND pid <> pg_backend_pid();
  COMMIT; PERFORM pg_sleep(0.01); END LOOP; END \$\$" >/dev/null 2>&1 &
sampler=$!
trap 'kill $sampler 2>/dev/null || true' EXIT

BENCH_BACKEND=postgres "$put" | grep -E '^BENCH|clients'
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true

echo "== client backends of the benchmark, by state and wait event (share of samples)"
psql -q "$url" -c "SELECT coalesce(state, '?') AS state, wait, count(*) AS samples,
  round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS pct
  FROM bench_waits GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 12"
echo "== active backends only: what they wait for"
psql -q "$url" -c "SELECT wait, count(*) AS samples,
  round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS pct
  FROM bench_waits WHERE state = 'active' GROUP BY 1 ORDER BY 2 DESC LIMIT 12"
echo "== statements by total time"
psql -q "$url" -c "SELECT calls, round(total_exec_time::numeric, 0) AS total_ms,
  round(mean_exec_time::numeric, 3) AS mean_ms, wal_records, round(wal_bytes / greatest(calls, 1)) AS wal_b_per_call,
  left(regexp_replace(query, '\s+', ' ', 'g'), 90) AS query
  FROM pg_stat_statements WHERE calls >= 100 ORDER BY total_exec_time DESC LIMIT 10"
psql -q "$url" -c "DROP TABLE IF EXISTS bench_waits" >/dev/null
