#!/usr/bin/env bash
# What `verify --history` costs: 100,000 URLs against a local server, with
# and without a history file, side by side in one run; medians
# (docs/performance.md, "`urldb verify --history`"). A benchmark, never a
# test.
#
#   cargo build --release
#   bench/verify_history_bench.sh [URLS] [RUNS]
#
# Each round runs urldb three times, in an order that turns every round
# (so a machine slowing down or speeding up hits all three alike):
#   plain    no --history;
#   append   --history-keep 3 on a file holding two earlier runs of every
#            URL: this run's lines are appended (what most runs do);
#   rewrite  --history-keep 3 on a file holding four earlier runs: the file
#            is past its limit (docs/verify.md, "History"), so it is read
#            again under the lock and rewritten with the newest three runs.
# Each history run starts from a copy of the same file, so every round
# reads and writes the same sizes.
set -euo pipefail

URLS=${1:-100000}
RUNS=${2:-9}
CONC=64
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/verify_common.sh
. "$ROOT/bench/verify_common.sh"

run() {
    "$URLDB" --db "$WORK" verify -q --allow-private --concurrency $CONC --per-host $CONC \
        --map "bench.test=127.0.0.1:$PORT" --retries 0 --format json "$@" >/dev/null
}

for k in 1 2 3 4; do
    run --history "$WORK/seed4.jsonl" --run-id "seed-$k" --history-keep 9
done
grep -v '"run":"seed-[12]"' "$WORK/seed4.jsonl" > "$WORK/seed2.jsonl"
echo "append:  the history holds $(wc -l < "$WORK/seed2.jsonl") lines, $(du -h "$WORK/seed2.jsonl" | cut -f1)"
echo "rewrite: the history holds $(wc -l < "$WORK/seed4.jsonl") lines, $(du -h "$WORK/seed4.jsonl" | cut -f1)"


declare -A times
timed() {
    local what=$1
    shift
    local t0
    t0=$(now)
    run "$@"
    times[$what]+="$(echo "$(now) - $t0" | bc) "
}
plain() { timed plain; }
append() {
    cp "$WORK/seed2.jsonl" "$WORK/h.jsonl"
    timed append --history "$WORK/h.jsonl" --run-id "run-$i" --history-keep 3
    [ "$(wc -l < "$WORK/h.jsonl")" -eq $((3 * URLS)) ]
}
rewrite() {
    cp "$WORK/seed4.jsonl" "$WORK/h.jsonl"
    timed rewrite --history "$WORK/h.jsonl" --run-id "run-$i" --history-keep 3
    [ "$(wc -l < "$WORK/h.jsonl")" -eq $((3 * URLS)) ]
}

orders=("plain append rewrite" "append rewrite plain" "rewrite plain append")
for i in $(seq "$RUNS"); do
    for step in ${orders[$((i % 3))]}; do
        "$step"
    done
done

# Four readings of the same times, the host being noisy: the ratio of
# the medians, the median of each round's ratio, the ratio of the lower
# quartiles (the runs the host slowed least) and of the fastest runs.
python3 - "${times[plain]}" "${times[append]}" "${times[rewrite]}" <<'PY'
import statistics as st, sys
plain, append, rewrite = ([float(t) for t in arg.split()] for arg in sys.argv[1:])
q1 = lambda xs: st.quantiles(xs, n=4)[0] if len(xs) > 1 else xs[0]
print(f"without history: median {st.median(plain):.2f} s, from {min(plain):.2f} to {max(plain):.2f} s")
print(f"{'cost':8} {'medians':>9} {'ratios':>9} {'quartile':>9} {'fastest':>9}")
for name, times in (("append", append), ("rewrite", rewrite)):
    cost = lambda a, b: f"{(a / b - 1) * 100:+8.1f}%"
    ratios = st.median(t / p for t, p in zip(times, plain))
    print(f"{name:8} {cost(st.median(times), st.median(plain))} {(ratios - 1) * 100:+8.1f}% "
          f"{cost(q1(times), q1(plain))} {cost(min(times), min(plain))}")
for name, times in (("plain", plain), ("append", append), ("rewrite", rewrite)):
    print(f"{name} runs: {' '.join(f'{t:.3f}' for t in times)}")
PY
