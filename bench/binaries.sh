# Sourced by the benchmark scripts: `build_benches CARGO_BENCH_ARGS...` builds benchmarks in one
# cargo run (one feature set: a `cargo bench -p` per crate would rebuild shared crates with that
# crate's features) and keeps their executables; `bench NAME` prints the path of one.
build_benches() {
  benches="$(cargo bench --no-run -q "$@" --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and "bench" in m["target"]["kind"] and m.get("executable"):
        print(m["target"]["name"], m["executable"])
')"
}
bench() { awk -v n="$1" '$1 == n { print $2 }' <<<"$benches"; }
