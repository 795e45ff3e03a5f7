#!/usr/bin/env bash
# What `verify --history` costs: 100,000 URLs against a local server, with
# and without a history file, runs alternating so machine load hits both
# alike; the median of each (docs/verify.md, "History"). A benchmark,
# never a test.
#
#   cargo build --release
#   bench/verify_history_bench.sh [URLS] [RUNS]
#
# The history file starts each run with the lines of two earlier runs of
# every URL (a copy, so every run reads and rewrites the same size), and
# holds at most --history-keep 3 runs.
set -euo pipefail

URLS=${1:-100000}
RUNS=${2:-5}
CONC=64
ROOT=$(cd "$(dirname "$0")/.." && pwd)
URLDB=${URLDB:-$ROOT/target/release/urldb}
WORK=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))

python3 "$ROOT/bench/verify_server.py" "$PORT" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
sleep 1

python3 - "$WORK" "$URLS" <<'PY'
import sys
work, n = sys.argv[1], int(sys.argv[2])
with open(f"{work}/bench.test.yaml", "w") as f:
    f.write("---\n")
    for i in range(n):
        f.write(f"---\n_path: /page/{i:07d}\ncontent-type: text/html\n")
PY

run() {
    "$URLDB" --db "$WORK" verify -q --allow-private --concurrency $CONC --per-host $CONC \
        --map "bench.test=127.0.0.1:$PORT" --retries 0 --format json "$@" >/dev/null
}

# Two earlier runs in the history.
run --history "$WORK/seed.jsonl" --run-id seed-1 --history-keep 3
run --history "$WORK/seed.jsonl" --run-id seed-2 --history-keep 3
echo "history: $(wc -l < "$WORK/seed.jsonl") lines, $(du -h "$WORK/seed.jsonl" | cut -f1)"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
now() { date +%s.%N; }

plain=()
history=()
for i in $(seq "$RUNS"); do
    t0=$(now)
    run
    plain+=("$(echo "$(now) - $t0" | bc)")
    cp "$WORK/seed.jsonl" "$WORK/h.jsonl"
    t0=$(now)
    run --history "$WORK/h.jsonl" --run-id "run-$i" --history-keep 3
    history+=("$(echo "$(now) - $t0" | bc)")
done

p=$(printf '%s\n' "${plain[@]}" | median)
h=$(printf '%s\n' "${history[@]}" | median)
printf 'without --history: median %.2f s (runs: %s)\n' "$p" "${plain[*]}"
printf 'with --history:    median %.2f s (runs: %s)\n' "$h" "${history[*]}"
printf 'cost of the history: %+.1f %%\n' "$(echo "($h - $p) * 100 / $p" | bc -l)"
