#!/usr/bin/env bash
# What PostgreSQL alone allows the envelope PUT: pgbench (C, no HTTP, no JSON work) runs the
# statement an envelope PUT sends (`silo::db::envelopes::create`: the envelope row and its first
# version in one round trip, under folio's own schema) against the raw insert the PUT benchmark
# compares with, same text, same clients, alternating rounds. The ratio is the ceiling of the
# PUT's ratio on PostgreSQL on this machine, before folio spends any CPU of its own. Both run as
# folio and the PUT benchmark's raw insert do (sqlx): prepared once a connection, the envelope's
# text bound as a parameter, not parsed as a literal.
#
#   FOLIO_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bench/pg-ceiling.sh [SECONDS]
#
# `PG_CEILING_ONLY=put` runs one timed round of the PUT's statement alone (after the same warm-up
# and `ANALYZE`) and prints its transactions and the machine's CPU time each, for
# `bench/pg-waits.sh` to set beside folio's PUT.
#
# Works in a scratch schema of that database (dropped at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
url="${FOLIO_TEST_DATABASE_URL:?set FOLIO_TEST_DATABASE_URL to a PostgreSQL database}"
seconds="${1:-5}"
pgbench="$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench | sort -V | tail -n1)"
work="$(mktemp -d)"
schema="folio_pg_ceiling"
export PGOPTIONS="-c search_path=$schema"
trap 'psql -q "$url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1; rm -rf "$work"' EXIT

psql -q "$url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" -c "CREATE SCHEMA $schema" >/dev/null 2>&1
for migration in crates/store/migrations/postgres/*.sql; do
  psql -q -v ON_ERROR_STOP=1 "$url" -f "$migration" >/dev/null
done
psql -q "$url" -c "INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'bench', 0)" \
  -c "CREATE TABLE bench_raw (id TEXT NOT NULL PRIMARY KEY, data TEXT NOT NULL)" >/dev/null

# The PUT benchmark's envelope, compact, bound as `:data`.
python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
doc = json.load(open("../shared/gobl/examples/de/out/invoice-de-rounding.json"))
text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
open(f"{work}/data.txt", "w").write(text)
open(f"{work}/raw.sql", "w").write(
    f"INSERT INTO bench_raw (id, data) VALUES (gen_random_uuid()::text, :data);\n")
# The envelope's summary columns as `silo::summary` writes them (its search text feeds the GIN
# index, so the ceiling pays for that index too).
d = doc["doc"]
def q(v):
    return "NULL" if v is None else "'" + str(v).replace("'", "''") + "'"
def words(*parts):
    return " ".join(re.sub(r"[\W_]+", " ", " ".join(p for p in parts if p).lower()).split())
sup, cus = d.get("supplier", {}), d.get("customer", {})
def tax(p):
    t = p.get("tax_id") or {}
    return f"{t.get('code')} {t.get('country', '')}{t.get('code')}" if t.get("code") else ""
number = "-".join(x for x in (d.get("series"), d.get("code")) if x)
search = words(d.get("series"), d.get("code"), sup.get("name"), tax(sup), cus.get("name"), tax(cus))
summary = ", ".join(q(v) for v in (number or None, sup.get("name"), cus.get("name"),
    d.get("currency"), (d.get("totals") or {}).get("payable"), d.get("issue_date"), search))
open(f"{work}/put.sql", "w").write(
    "WITH first AS (INSERT INTO silo_envelopes (workspace_id, id, created_at, updated_at, key, "
    "folder, env_schema, doc_schema, digest, signed, state, version, tags, meta, fingerprint, "
    "faults, number, supplier, customer, currency, payable, issue_date, search_text) "
    "VALUES ('ws', gen_random_uuid()::text, 1, 1, NULL, NULL, "
    "'https://gobl.org/draft-0/envelope', 'https://gobl.org/draft-0/bill/invoice', "
    "'2b3ee400a605fb21d10fd02df92be4ef6d0a6d2c461dbd2ae1caf16d32066aae', 0, NULL, "
    "'0123456789abcdef', '[]', '{}', "
    "'2b3ee400a605fb21d10fd02df92be4ef6d0a6d2c461dbd2ae1caf16d32066aae', NULL, "
    f"{summary}) "
    "ON CONFLICT DO NOTHING RETURNING id) "
    "INSERT INTO silo_versions (workspace_id, envelope_id, version, created_at, data) "
    f"SELECT 'ws', id, '0123456789abcdef', 1, :data FROM first;\n")
PY

tps() { "$pgbench" -n -M prepared -D "data=$(cat "$work/data.txt")" -c 8 -j 2 -T "${2:-$seconds}" -f "$work/$1.sql" "$url" 2>/dev/null | sed -nE 's/^tps = ([0-9]+).*/\1/p'; }
# A warm-up round of each, then the statistics a running server has, as the other PostgreSQL
# benchmarks do. Without them the first timed round of the PUT's statement ran at two thirds
# of the others (likely its foreign-key checks planned for empty tables, as in the put bench).
tps raw 2 >/dev/null; tps put 2 >/dev/null
psql -q "$url" -c "ANALYZE" >/dev/null
if [ "${PG_CEILING_ONLY:-}" = put ]; then
  source bench/cpu.sh
  before="$(busy_us)"
  put="$(tps put)"
  echo "pgbench, the PUT's statement alone: $put tps, $(( ($(busy_us) - before) / (put * seconds) )) µs of the machine's CPU a statement"
  exit 0
fi
raw_runs=() put_runs=()
for _ in 1 2 3; do
  raw_runs+=("$(tps raw)")
  put_runs+=("$(tps put)")
done
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
raw="$(median "${raw_runs[@]}")"
put="$(median "${put_runs[@]}")"
echo "raw insert: ${raw_runs[*]} tps; the PUT's statement: ${put_runs[*]} tps (8 clients, ${seconds} s rounds)"
awk -v p="$put" -v r="$raw" 'BEGIN { printf "BENCH | the envelope PUT'"'"'s SQL alone, pgbench, postgres | %d/s | raw insert %d/s | %.2f\n", p, r, p / r }'
