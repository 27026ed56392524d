#!/usr/bin/env bash
# Benchmark (issue 32): the silo with a million envelopes stored, against an empty store, in
# the same run. Fills a fresh store with SCALE_ENVELOPES generated envelopes (default
# 1,000,000: ten regimes, 1–50 lines, 50,000 customers, stored over a year) through the silo's
# own bulk import, then measures both stores over HTTP in alternating rounds:
#   - the envelope PUT rate (goal: at least 0.90 of the empty store's);
#   - the first list page and a folder's list page, p99 of one client (goal: ≤ 10 ms);
#   - search by party name, tax id and number, p99 of one client (goal: ≤ 50 ms);
#   - bytes on disk per envelope against its JSON (goal: ≤ 1.5×);
#   - jobs through the engine's claim with SCALE_JOBS finished jobs in the table (default
#     1,000,000) against an empty table (goal: at least 0.90 of it).
# SQLite, then PostgreSQL when FOLIO_TEST_DATABASE_URL is set (BENCH_BACKEND=sqlite|postgres
# for one). Prints BENCH lines; `BENCH_SCALE=1 bench/run.sh` adds them to its table. Not run by
# CI: a million envelopes take several minutes to fill and some GB of disk per backend.
#
#   bench/scale.sh                       SCALE_ENVELOPES=200000 bench/scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/folio-target}"
# One build of both benchmarks, then each binary run directly (bench/binaries.sh).
source bench/binaries.sh
build_benches -p folio-silo -p folio-transform --bench scale --bench engine
"$(bench scale)"
BENCH_FINISHED_JOBS="${SCALE_JOBS:-1000000}" "$(bench engine)"
