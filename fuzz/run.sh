#!/usr/bin/env bash
# Builds the fuzz targets once, then runs each for a fixed time, one after another.
# Usage: fuzz/run.sh <seconds-per-target> [target...]   (default: all targets)
# Env: FUZZ_SANITIZER (address|none, default address), GOBL_EXAMPLES (seed source),
#      EINVOICE_FIXTURES (seeds of the ubl and cii targets),
#      CARGO_TARGET_DIR (default /var/tmp/folio-fuzz-target).
set -euo pipefail

secs=${1:?usage: fuzz/run.sh <seconds-per-target> [target...]}
shift
fuzz=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json envelope canonical taxid ubl cii)
examples=${GOBL_EXAMPLES:-$fuzz/../../shared/gobl}
fixtures=${EINVOICE_FIXTURES:-$fuzz/../../shared/einvoice/fixtures}

# cargo-fuzz passes -Z flags; this lets the stable toolchain accept them.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/var/tmp/folio-fuzz-target}
sanitizer=${FUZZ_SANITIZER:-address}
triple=$(rustc -vV | sed -n 's/^host: //p')

# -a keeps debug assertions and overflow checks on in the optimised build.
(cd "$fuzz/.." && cargo fuzz build -O -a -s "$sanitizer")

# Seeds are generated at run time, nothing copied is committed.
seed() {
    local dir=$fuzz/corpus/$1
    mkdir -p "$dir"
    case $1 in
    ubl | cii)
        # Every XML fixture of that syntax (by its root element), named by path.
        [ -d "$fixtures" ] || { echo "no seed fixtures at $fixtures" >&2; return; }
        local root=CrossIndustryInvoice
        [ "$1" = cii ] || root='(Invoice|CreditNote)'
        (cd "$fixtures" && find . -name '*.xml' -size -256k) | while read -r f; do
            if head -c 2048 "$fixtures/$f" | grep -qE "<([A-Za-z0-9]+:)?$root[ >]"; then
                cp "$fixtures/$f" "$dir/seed${f//\//_}"
            fi
        done
        return ;;
    esac
    [ -d "$examples" ] || { echo "no seed examples at $examples" >&2; return; }
    case $1 in
    json | envelope | canonical)
        # Named by path: inputs and their out/ envelopes share file names.
        (cd "$examples" && find . -name '*.json' -size -64k) | while read -r f; do
            cp "$examples/$f" "$dir/seed${f//\//_}"
        done ;;
    taxid)
        # Every tax code in the examples, once per known regime (first byte picks it).
        grep -rhoE '"code": *"[A-Za-z0-9]{5,20}"' "$examples" | sed -E 's/.*"([^"]+)"$/\1/' |
            sort -u | while read -r code; do
            for i in 0 1 2 3 4 5 6 7; do printf "\\x0$i%s" "$code" >"$dir/$i-$code"; done
        done ;;
    esac
}

crashed=0
for t in "${targets[@]}"; do
    seed "$t"
    mkdir -p "$fuzz/artifacts/$t"
    extra=()
    case $t in
    taxid) extra=(-max_len=64) ;;
    # -rss_limit_mb: a reader that allocates without bound fails the run
    ubl | cii) extra=(-dict="$fuzz/xml.dict" -max_len=262144 -rss_limit_mb=2048) ;;
    *) extra=(-dict="$fuzz/json.dict") ;;
    esac
    log=$fuzz/artifacts/$t/last-run.log
    status=0
    "$CARGO_TARGET_DIR/$triple/release/$t" "$fuzz/corpus/$t" "${extra[@]}" \
        -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$fuzz/artifacts/$t/" >"$log" 2>&1 || status=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ "$status" -eq 0 ]; then
        echo "$t: ${execs:-?} executions in ${secs}s, no crash"
    else
        crashed=1
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
        echo "$t: ${execs:-?} executions, CRASH (exit $status): ${artifact:-see $log}"
    fi
done
exit "$crashed"
