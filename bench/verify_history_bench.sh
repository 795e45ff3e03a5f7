#!/usr/bin/env bash
# What `verify --history` costs: 100,000 URLs against a local server, with
# and without a history file, side by side in one run; medians
# (docs/dev/performance.md, "`urldb verify --history`"). A benchmark, never a
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

orders=("plain append plain rewrite" "plain rewrite plain append")
for i in $(seq "$RUNS"); do
    for step in ${orders[$((i % 2))]}; do
        "$step"
    done
done
plain

# The times, in the order run, and what bench/verify_history_stats.py
# reads from them (each history run against its neighbours, with a 95 %
# interval; the medians and lower quartiles).
for name in plain append rewrite; do
    echo "$name runs: ${times[$name]}"
done > "$WORK/times.txt"
python3 "$ROOT/bench/verify_history_stats.py" "$WORK/times.txt"
cat "$WORK/times.txt"
