#!/usr/bin/env bash
# Benchmark: GET /utils/v1/ping on folio (auth, rate limit, metrics, request ids all on) against
# a bare axum hello-world server, both built now in release mode and driven by the same load
# generator with the same settings, in alternating rounds. Prints every round, the medians and
# the ratio.
#
#   bench/ping.sh [DURATION] [CONNECTIONS]     e.g. bench/ping.sh 10s 32
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10s}"
connections="${2:-32}"
source bench/server.sh 18180 19180
"$bin/hello" --listen 127.0.0.1:18181 2>/dev/null &
for _ in $(seq 1 50); do curl -sf 127.0.0.1:18181/utils/v1/ping >/dev/null && break; sleep 0.2; done

"$bin/loadgen" -c "$connections" -d 2s --label warmup http://127.0.0.1:18181/utils/v1/ping >/dev/null
"$bin/loadgen" -c "$connections" -d 2s --label warmup -H "Authorization: Bearer $token" http://127.0.0.1:18180/utils/v1/ping >/dev/null

# Rounds alternate between the two servers and each side's median round counts: on two cores
# the load generator shares the CPU with the server, and one round of either can catch a
# neighbour's burst.
rounds=5
base_runs=() folio_runs=()
for _ in $(seq 1 "$rounds"); do
  base_runs+=("$("$bin/loadgen" -c "$connections" -d "$duration" --label "bare axum hello" http://127.0.0.1:18181/utils/v1/ping)")
  folio_runs+=("$("$bin/loadgen" -c "$connections" -d "$duration" --label "folio ping" -H "Authorization: Bearer $token" http://127.0.0.1:18180/utils/v1/ping)")
done
rps() { sed -E 's/.*: ([0-9]+) req\/s.*/\1/' <<<"$1"; }
p99() { sed -E 's/.*p99 ([0-9.]+) ms.*/\1/' <<<"$1"; }
# the round of median throughput
median() { for run in "$@"; do echo "$(rps "$run")|$run"; done | sort -n | sed -n "$(( ($# + 1) / 2 ))p" | cut -d'|' -f2-; }
printf '%s\n' "${base_runs[@]}" "${folio_runs[@]}"
base="$(median "${base_runs[@]}")"
folio="$(median "${folio_runs[@]}")"
echo "medians of $rounds rounds:"
echo "$base"
echo "$folio"
awk -v f="$(rps "$folio")" -v b="$(rps "$base")" 'BEGIN { printf "ratio folio/bare: %.3f\n", f / b }'
# the line bench/run.sh collects into its table
awk -v f="$(rps "$folio")" -v b="$(rps "$base")" -v p="$(p99 "$folio")" -v c="$connections" -v r="$rounds" \
  'BEGIN { printf "BENCH | GET /utils/v1/ping, %d connections, median of %d rounds | %d req/s, p99 %s ms | bare axum hello %d req/s | %.2f\n", c, r, f, p, b, f / b }'
