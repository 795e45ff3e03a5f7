#!/usr/bin/env bash
# The history's size and read time at scale (docs/dev/performance.md,
# "The history at scale"): a history of URLS URLs (59 characters each,
# about what a documentation site's are) and RUNS runs, written as urldb
# writes it (run ids are start times; a few URLs broken, skipped or
# flaky), then one `verify --history` of one URL against it: the history
# is read before the run, judged, and rewritten under its lock after it.
# Prints the file's size, the run's wall time and peak memory. A
# benchmark, never a test.
#
#   cargo build --release
#   cargo build --release -p urldb-verify --example history_read   # optional
#   bench/verify_history_scale.sh [URLS] [RUNS]
set -euo pipefail

URLS=${1:-1000000}
RUNS=${2:-30}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
URLDB=${URLDB:-$ROOT/target/release/urldb}
WORK=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))
python3 "$ROOT/bench/verify_server.py" "$PORT" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT

python3 - "$WORK" "$URLS" "$RUNS" <<'PY'
import datetime, random, sys
work, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(1)
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
ids = [(start + datetime.timedelta(days=d)).strftime("%Y-%m-%dT%H:%M:%S.000Z") for d in range(runs)]
with open(f"{work}/h.jsonl", "w") as f:
    for i in ids:
        f.write(f'{{"run":"{i}","started":"{i}","checked":{n},"broken":{n // 100},'
                f'"blocked":0,"skipped":{n // 1000},"accepted":0}}\n')
    ok = "o" * runs
    last = ids[-1]
    # Sorted by URL, as urldb writes them.
    urls = sorted(f"https://docs.example.org/reference/section-{u % 997:03d}/page-{u:08d}.html"
                  for u in range(n))
    for url in urls:
        r = rng.random()
        if r < 0.01:
            recent, tail = "o" * (runs - 3) + "xxx", ',"status":404'
        elif r < 0.011:
            recent, tail = "-" * runs, ""
        elif r < 0.013:
            recent, tail = "".join(rng.choice("ox") for _ in range(runs)), ',"status":503'
        else:
            recent, tail = ok, ',"status":200'
        f.write(f'{{"url":"{url}","at":"{last}","recent":"{recent}"{tail}}}\n')
with open(f"{work}/bench.test.yaml", "w") as f:
    f.write("---\n---\n_path: /page/1\ncontent-type: text/html\n")
PY
sleep 1
echo "history: $URLS URLs, $RUNS runs: $(stat -c %s "$WORK/h.jsonl") bytes"
cp "$WORK/h.jsonl" "$WORK/h0.jsonl"
# The read alone (`History::read`, what a run does before its first
# request), when the example is built:
#   cargo build --release -p urldb-verify --example history_read
READ=$ROOT/target/release/examples/history_read
if [ -x "$READ" ]; then
    /usr/bin/time -f "read alone, last of 3: %e s wall, %U s user, %S s system, %M KiB peak" \
        "$READ" "$WORK/h0.jsonl" 3
fi
for k in 1 2 3; do
    cp "$WORK/h0.jsonl" "$WORK/h.jsonl"
    /usr/bin/time -f "run $k: %e s wall, %U s user, %S s system, %M KiB peak" \
        "$URLDB" --db "$WORK" verify -q --allow-private --map "bench.test=127.0.0.1:$PORT" \
        --retries 0 --format json --history "$WORK/h.jsonl" --run-id "2026-02-01T00:00:00.000Z" \
        >/dev/null
done
echo "rewritten: $(stat -c %s "$WORK/h.jsonl") bytes, $(wc -l < "$WORK/h.jsonl") lines"
