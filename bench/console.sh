#!/usr/bin/env bash
# Benchmark (issue 28): the web console's pages against the API call of the same page, with
# many envelopes stored. Fills a fresh SQLite store over HTTP with CONSOLE_ENVELOPES built
# invoices (default 100,000), then measures, one connection at a time (server time, no queue),
# in alternating rounds:
#   - the envelope list page, GET /console/envelopes (first page, 25 rows), against
#     GET /silo/v1/envelopes?limit=25;
#   - an envelope page, GET /console/envelopes/{id}, against GET /silo/v1/envelopes/{id}.
# Goal: each page's p99 at most 1.5× its API call's. Prints BENCH lines (latency ratios: the
# page's p99 over the API call's, lower is better).
#
#   bench/console.sh [ROUND_DURATION]      e.g. CONSOLE_ENVELOPES=20000 bench/console.sh 3s
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-5s}"
want="${CONSOLE_ENVELOPES:-100000}"
source bench/server.sh 18280 19280
api="http://127.0.0.1:18280"
auth="Authorization: Bearer $token"

# An invoice whose code is new for every request (loadgen puts a fresh UUID in `{uuid}`).
python3 - "$work/invoice.json" <<'PY'
import json, sys
doc = json.load(open("crates/folio/tests/it/data/invoice-de-b2g.json"))
doc.pop("uuid", None)
doc["code"] = "{uuid}"
json.dump({"data": doc}, open(sys.argv[1], "w"))
PY

started=$SECONDS
stored=0
while [ "$stored" -lt "$want" ]; do
  out="$("$bin/loadgen" -c 16 -d 10s --method PUT --body-file "$work/invoice.json" \
    -H "$auth" -H "Content-Type: application/json" --label fill "$api/silo/v1/envelopes/{uuid}")"
  stored=$(( stored + $(sed -E 's/.* ([0-9]+) ok.*/\1/' <<<"$out") ))
  echo "filled $stored envelopes ($out)" >&2
done
echo "filled $stored envelopes in $(( SECONDS - started )) s" >&2

# A console session for the token (the sign-in form, as a browser sends it).
cookie="$(curl -s -o /dev/null -D - -X POST "$api/console/sign-in" \
  --data-urlencode "token=$token" --data-urlencode "next=/console/envelopes" |
  sed -nE 's/^[Ss]et-[Cc]ookie: ([^;]*).*/\1/p' | head -n1)"
[ -n "$cookie" ] || { echo "no console session"; exit 1; }
id="$(curl -sf "$api/silo/v1/envelopes?limit=1" -H "$auth" | python3 -c 'import json,sys; print(json.load(sys.stdin)["list"][0]["id"])')"
for path in /console/envelopes "/console/envelopes/$id"; do
  curl -sf -o /dev/null "$api$path" -H "Cookie: $cookie" || { echo "GET $path failed"; exit 1; }
done

# Rounds alternate page and API call; each side's median p99 counts.
p99() { sed -E 's/.*p99 ([0-9.]+) ms.*/\1/' <<<"$1"; }
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
measure() { # label, page path, API path
  local pages=() calls=()
  for _ in 1 2 3 4 5; do
    pages+=("$(p99 "$("$bin/loadgen" -c 1 -d "$duration" -H "Cookie: $cookie" --label "$1" "$api$2")")")
    calls+=("$(p99 "$("$bin/loadgen" -c 1 -d "$duration" -H "$auth" --label "$1 API" "$api$3")")")
  done
  local page call
  page="$(median "${pages[@]}")"
  call="$(median "${calls[@]}")"
  echo "$1: page p99 ${pages[*]} ms; API p99 ${calls[*]} ms" >&2
  awk -v p="$page" -v c="$call" -v l="$1" -v n="$stored" -v a="$3" \
    'BEGIN { printf "BENCH | %s, %d envelopes, p99 of 1 connection | %s ms | GET %s %s ms | %.2f\n", l, n, p, a, c, p / c }'
}
measure "console envelope list page" /console/envelopes "/silo/v1/envelopes?limit=25"
measure "console envelope page" "/console/envelopes/$id" "/silo/v1/envelopes/$id"
