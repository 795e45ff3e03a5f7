#!/usr/bin/env bash
# What `verify --history` costs: 100,000 URLs against a local server, with
# and without a history file, side by side in one run; medians
# (docs/performance.md, "`urldb verify --history`"). A benchmark, never a
# test.
#
#   cargo build --release
#   bench/verify_history_bench.sh [URLS] [RUNS]
#
# Each round runs urldb four times, each run with history between two
# without (so a machine slowing down or speeding up over seconds, as a
# shared host does, hits both sides of every comparison alike):
#   plain    no --history;
#   append   --history-keep 3 on a file holding two earlier runs of every
#            URL: this run's lines are appended (what most runs do);
#   plain;
#   rewrite  --history-keep 3 on a file holding four earlier runs: the file
#            is past its limit (docs/verify.md, "History"), so it is read
#            again under the lock and rewritten with the newest three runs;
# with append and rewrite swapping places every other round, and one more
# plain run at the end.
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


declare -A times after
plains=0
timed() {
    local what=$1
    shift
    local t0
    t0=$(now)
    run "$@"
    times[$what]+="$(echo "$(now) - $t0" | bc) "
    # Which run without history came last before this one.
    after[$what]+="$((plains - 1)) "
}
plain() {
    timed plain
    plains=$((plains + 1))
}
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

orders=("plain append plain rewrite" "plain rewrite plain append")
for i in $(seq "$RUNS"); do
    for step in ${orders[$((i % 2))]}; do
        "$step"
    done
done
plain

# Each history run against the mean of the runs without history on either
# side of it ("sandwiched"): the median of those ratios, with a 95 %
# bootstrap interval (the ratios resampled; fixed seed), which is what
# tells whether a cost is within a goal. Beside it, the ratio of the
# medians of all runs and of their lower quartiles.
python3 - "${times[plain]}" "${times[append]}" "${times[rewrite]}" \
    "${after[append]}" "${after[rewrite]}" <<'PY'
import random, statistics as st, sys
plain, append, rewrite = ([float(t) for t in arg.split()] for arg in sys.argv[1:4])
after = dict(zip(("append", "rewrite"), ([int(k) for k in arg.split()] for arg in sys.argv[4:])))
q1 = lambda xs: st.quantiles(xs, n=4)[0] if len(xs) > 1 else xs[0]
pct = lambda r: f"{(r - 1) * 100:+.1f}%"
print(f"without history: median {st.median(plain):.2f} s, from {min(plain):.2f} to {max(plain):.2f} s")
print(f"{'cost':8} {'sandwiched (95% interval)':>27} {'medians':>9} {'quartile':>9}")
for name, times in (("append", append), ("rewrite", rewrite)):
    ratios = [t / ((plain[k] + plain[k + 1]) / 2) for k, t in zip(after[name], times)]
    rng = random.Random(1)
    boot = sorted(st.median(rng.choices(ratios, k=len(ratios))) for _ in range(4000))
    low, high = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    sandwiched = f"{pct(st.median(ratios))} ({pct(low)} to {pct(high)})"
    print(f"{name:8} {sandwiched:>27} {pct(st.median(times) / st.median(plain)):>9} "
          f"{pct(q1(times) / q1(plain)):>9}")
for name, times in (("plain", plain), ("append", append), ("rewrite", rewrite)):
    print(f"{name} runs: {' '.join(f'{t:.3f}' for t in times)}")
PY
