#!/usr/bin/env bash
# Every benchmark of folio in one run, release build, on this machine: each measures its
# baseline in the same run and prints a `BENCH | path | figure | baseline | ratio` line; this
# script collects them into one table with the goal of each path (issue 12).
#
#   bench/run.sh            (PostgreSQL rows too when FOLIO_TEST_DATABASE_URL is set;
#                            the scale rows of bench/scale.sh with BENCH_SCALE=1)
#
# The ratio is folio's throughput over the baseline's (1.00 = as fast as the baseline).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/folio-target}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

started=$SECONDS
echo "building (release) ..." >&2
cargo build --release -q -p folio -p folio-loadgen
# One build of every benchmark, then each binary run directly (bench/binaries.sh).
source bench/binaries.sh
build_benches -p gobl -p folio-silo -p folio-transform -p folio-einvoice -p folio-pdf \
  -p folio-sequence -p folio-national 2>/dev/null

run() { echo "== $*" >&2; "$@" 2>&1 | tee -a "$log" | grep -v '^BENCH' >&2 || true; }
# A criterion filter that matches no group: the criterion benches print only their direct
# figures (the BENCH lines), which keeps the whole run to a few minutes.
direct=(--bench --exact no-criterion-group)
run bench/ping.sh 3s 32
run bench/memory.sh 10s 8
run "$(bench put)"
# What PostgreSQL alone leaves the PUT: its statement against the raw insert, in pgbench.
[ -n "${FOLIO_TEST_DATABASE_URL:-}" ] && run bench/pg-ceiling.sh
run "$(bench engine)"
run "$(bench invoice)" "${direct[@]}"
run "$(bench convert)" "${direct[@]}"
run "$(bench render)" "${direct[@]}"
run "$(bench national)"
run "$(bench entries)"
# The silo with a million envelopes (several minutes and GB): only when asked.
[ "${BENCH_SCALE:-}" = 1 ] && run "$(bench scale)"
[ "${BENCH_SCALE:-}" = 1 ] && BENCH_FINISHED_JOBS="${SCALE_JOBS:-1000000}" run "$(bench engine)"

goal() {
  case "$1" in
    "GET /utils/v1/ping"*) echo "≥ 0.90" ;;
    "envelope PUT"*sqlite*) echo "≥ 0.85, p99 ≤ 10 ms" ;;
    "the envelope PUT against its pgbench ceiling"*) echo "≥ 0.90" ;;
    "the envelope PUT's SQL"*) echo "the PUT's ceiling" ;;
    "jobs,"*sqlite*) echo "≥ 0.75" ;;
    "jobs,"*postgres*) echo "≥ 0.65" ;;
    "invoice build, 10 lines"*) echo "≥ 0.45" ;;
    "invoice build, 200 lines"*) echo "≥ 0.55" ;;
    "invoice build with "*) echo "≥ 0.80 (add-on ≤ 20% more)" ;;
    "resident memory"*) echo "idle < 30 MB" ;;
    "GOBL → "*", "*" lines"*) echo "≥ 0.30" ;;
    "UBL → GOBL, "*|"CII → GOBL, "*) echo "≥ 0.30" ;;
    "scale: envelope PUT"*) echo "≥ 0.90" ;;
    "scale: "*"list page"*) echo "p99 ≤ 10 ms" ;;
    "scale: search"*) echo "p99 ≤ 50 ms" ;;
    "scale: bytes"*) echo "≤ 1.5×" ;;
    "scale: jobs"*) echo "≥ 0.90" ;;
    *) echo "-" ;;
  esac
}

# PostgreSQL's PUT against what PostgreSQL alone allows its statement: the PUT's ratio to the
# raw insert over the pgbench ratio of the same two statements.
ratio_of() { grep "^BENCH | $1" "$log" | head -n1 | awk -F'|' '{ gsub(/ /, "", $5); print $5 }'; }
put_pg="$(ratio_of "the envelope PUT against the database alone, postgres")"
ceiling="$(ratio_of "the envelope PUT's SQL alone")"
if [ -n "$put_pg" ] && [ -n "$ceiling" ]; then
  awk -v p="$put_pg" -v c="$ceiling" 'BEGIN { printf "BENCH | the envelope PUT against its pgbench ceiling, postgres | PUT / raw insert %.2f | pgbench PUT SQL / raw insert %.2f | %.2f\n", p, c, p / c }' >>"$log"
fi
# The same for a server that does nothing but run the PUT's statement over HTTP (same request,
# same answer's size): what the ceiling leaves any server once HTTP is paid.
bare_pg="$(ratio_of "a bare server running the PUT's statement against the database alone, postgres")"
if [ -n "$bare_pg" ] && [ -n "$ceiling" ]; then
  awk -v p="$bare_pg" -v c="$ceiling" 'BEGIN { printf "BENCH | a bare server running the PUT'"'"'s statement against the pgbench ceiling, postgres | bare statement / raw insert %.2f | pgbench PUT SQL / raw insert %.2f | %.2f\n", p, c, p / c }' >>"$log"
fi

echo
echo "| path | folio | baseline | ratio | goal |"
echo "|---|---|---|---|---|"
trim() { sed -E 's/^ +| +$//g' <<<"$1"; }
grep '^BENCH | ' "$log" | while IFS='|' read -r _ path figure baseline ratio; do
  path="$(trim "$path")"
  echo "| $path |$figure|$baseline| $(trim "$ratio") | $(goal "$path") |"
done
echo
echo "$(nproc) cores; $((SECONDS - started)) s in all, build included"
