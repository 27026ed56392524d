#!/usr/bin/env bash
# Resident memory of the folio server (release build, SQLite): right after start, and after
# DURATION of envelope PUTs (a 6.5 KB German invoice, CONNECTIONS clients) over real HTTP.
#
#   bench/memory.sh [DURATION] [CONNECTIONS]     e.g. bench/memory.sh 10s 8
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10s}"
connections="${2:-8}"
source bench/server.sh 18182 19182
python3 - "$work/body.json" <<'PY'
import json, sys
env = json.load(open("../shared/gobl/examples/de/out/invoice-de-rounding.json"))
doc = env["doc"]
doc.pop("uuid", None)
json.dump({"data": doc}, open(sys.argv[1], "w"), separators=(",", ":"))
PY

rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$folio_pid/status"; }
idle="$(rss)"
put=$("$bin/loadgen" -c "$connections" -d "$duration" --method PUT --body-file "$work/body.json" \
  --label "envelope PUT over HTTP" -H "Authorization: Bearer $token" -H "Content-Type: application/json" \
  "http://127.0.0.1:18182/silo/v1/envelopes/{uuid}")
loaded="$(rss)"
echo "$put"
echo "resident memory: idle ${idle} MB, after the PUT load ${loaded} MB"
echo "BENCH | resident memory, idle / after $duration of PUTs | ${idle} MB / ${loaded} MB | - | -"
