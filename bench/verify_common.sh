# What the `verify` benchmarks share, sourced by bench/verify_bench.sh and
# bench/verify_history_bench.sh: the local server (bench/verify_server.py
# on 127.0.0.1), a work directory removed on exit, a database of $URLS
# records in one domain file mapped to the server, and the median of a
# list of times. Expects ROOT and URLS; sets URLDB, WORK, PORT.

URLDB=${URLDB:-$ROOT/target/release/urldb}
WORK=$(mktemp -d)
PORT=$((20000 + RANDOM % 20000))

python3 "$ROOT/bench/verify_server.py" "$PORT" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
sleep 1

# One domain file with $URLS records, and the same URLs as a plain list
# (for tools that take one).
python3 - "$WORK" "$URLS" "$PORT" <<'PY'
import sys
work, n, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(f"{work}/bench.test.yaml", "w") as f:
    f.write("---\n")
    for i in range(n):
        f.write(f"---\n_path: /page/{i:07d}\ncontent-type: text/html\n")
with open(f"{work}/urls.txt", "w") as f:
    for i in range(n):
        f.write(f"http://127.0.0.1:{port}/page/{i:07d}\n")
PY

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
now() { date +%s.%N; }
