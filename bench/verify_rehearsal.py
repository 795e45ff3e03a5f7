#!/usr/bin/env python3
"""The scale rehearsal of `urldb verify` (docs/dev/performance.md, "The scale
rehearsal"): URLS URLs over HOSTS hosts, each host its own loopback address
(127.10.x.y: Linux routes all of 127.0.0.0/8), the maps given by
`--map-file` (2,000 `--map` options do not fit a command line), checked by
SHARDS shards by host running at once as separate processes. A benchmark,
never a test: it takes minutes and its times depend on the machine.

    cargo build --release
    python3 bench/verify_rehearsal.py [--urls 200000] [--hosts 2000] [--shards 4]
        [--per-host 2] [--interval-ms 100] [--runs-kept 30]

The hosts: host 0 is the largest (URLS / 200 URLs: its URLs × the interval
is the politeness floor); one in twenty has a robots.txt with wildcard
rules (`Disallow: /*.pdf$`, `Disallow: /private/`, `Allow: /private/ok/`)
and `Crawl-delay: 1`, one in twenty the same rules without it; one in
twenty answers its third request 429 with `Retry-After: 1`, one in twenty
429 without it; the rest answer 200. One server process (asyncio, below)
listens on every address and records, per address it was reached at
(`getsockname`): each request's arrival time and path, the requests in
flight (head read, answer not yet written) and their peak.

It prints, from the server's records: the most requests in flight at one
host across all shards (at most --per-host), the shortest gap between
two requests to one host against its interval, the gap after each 429,
the robots.txt rules obeyed (no disallowed path requested, every allowed
one requested), the total time against the politeness floor, each
shard's peak memory (`/usr/bin/time -f %M`), and the history: the shards'
files concatenated, then the same URLs with RUNS_KEPT runs of verdicts
(written as urldb writes them), its size and the time of a run that reads
and rewrites it.
"""

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URLDB = os.environ.get("URLDB", os.path.join(ROOT, "target", "release", "urldb"))
TIME = "/usr/bin/time"

SLOW = 0.3

ROBOTS = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /private/\nAllow: /private/ok/\n"


def address(i):
    """Host i's loopback address: 127.10.0.1, 127.10.0.2, ..."""
    return f"127.10.{i // 250}.{i % 250 + 1}"


def kind(i):
    """What host i does: plain, robots (with or without Crawl-delay), a
    429 on its third request (with or without Retry-After), or slow (each
    answer after SLOW seconds: more than --per-host requests would be in
    flight if urldb let them)."""
    if i == 0:
        return "plain"
    return {1: "robots-delay", 2: "429-retry-after", 3: "429", 4: "robots", 5: "slow"}.get(
        i % 20, "plain"
    )


def disallowed(path):
    """What ROBOTS disallows: RFC 9309's longest match, written out."""
    if path.startswith("/private/ok/"):
        return False
    return path.endswith(".pdf") or path.startswith("/private/")


# ---------------------------------------------------------------- the server


def serve(config_path, port, stats_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with open(config_path) as f:
        kinds = json.load(f)  # address -> kind
    arrivals = {a: [] for a in kinds}  # (time, path, status)
    inflight = {a: 0 for a in kinds}
    peak = {a: 0 for a in kinds}
    body = b"<p>ok</p>"
    ok = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\n" + body
    robots_delay = (ROBOTS + "Crawl-delay: 1\n").encode()

    def text(payload, content_type=b"text/plain"):
        return (
            b"HTTP/1.1 200 OK\r\nContent-Type: " + content_type + b"\r\nContent-Length: "
            + str(len(payload)).encode() + b"\r\n\r\n" + payload
        )

    not_found = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
    refused = b"HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\n\r\n"
    refused_ra = b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n"

    async def handle(reader, writer):
        local = writer.get_extra_info("sockname")[0]
        what = kinds.get(local, "plain")
        # A connection's first request is dated when the connection was
        # accepted: the client's pace let it start before it connected.
        accepted = time.monotonic()
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                arrived, accepted = accepted or time.monotonic(), None
                path = head.split(b" ", 2)[1].decode("latin-1")
                inflight[local] += 1
                peak[local] = max(peak[local], inflight[local])
                seen = arrivals[local]
                if path == "/robots.txt":
                    if what == "robots-delay":
                        answer = text(robots_delay)
                    elif what == "robots":
                        answer = text(ROBOTS.encode())
                    else:
                        answer = not_found
                else:
                    answer = ok
                    if what.startswith("429") and sum(1 for a in seen if a[1] != "/robots.txt") == 2:
                        answer = refused_ra if what == "429-retry-after" else refused
                seen.append((arrived, path, int(answer[9:12])))
                if what == "slow":
                    await asyncio.sleep(SLOW)
                writer.write(answer)
                await writer.drain()
                inflight[local] -= 1
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def main():
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        server = await asyncio.start_server(handle, host=list(kinds), port=port, backlog=4096)
        open(stats_path + ".ready", "w").close()
        async with server:
            await stop.wait()
        with open(stats_path, "w") as f:
            json.dump({"arrivals": arrivals, "peak": peak}, f)

    asyncio.run(main())


# ---------------------------------------------------------------- the driver


def generate(work, n_urls, n_hosts, interval, port):
    """The database, the map file and the server's configuration; each
    host's URL count and interval (for the floor)."""
    rng = random.Random(1)
    db = os.path.join(work, "db")
    os.makedirs(db)
    largest = max(n_urls // 200, 3 * n_urls // n_hosts)
    # A Crawl-delay host's URLs × 1 s stay under a third of the floor.
    delayed = max(5, min(30, int(largest * interval / 3)))
    counts = {}
    for i in range(n_hosts):
        if i == 0:
            counts[i] = largest
        elif kind(i) == "robots-delay":
            counts[i] = delayed
    rest = [i for i in range(n_hosts) if i not in counts]
    left = n_urls - sum(counts.values())
    weights = [rng.uniform(0.5, 1.5) for _ in rest]
    total = sum(weights)
    for i, w in zip(rest, weights):
        counts[i] = min(largest - 1, max(1, int(left * w / total)))
    with open(os.path.join(db, "urldb.toml"), "w") as f:
        f.write("# the scale rehearsal (bench/verify_rehearsal.py)\n")
    kinds = {}
    maps = []
    for i in range(n_hosts):
        host = f"h{i:04d}.rehearsal.test"
        kinds[address(i)] = kind(i)
        maps.append(f"{host}=http://{address(i)}:{port}")
        paths = []
        for u in range(counts[i]):
            if kind(i).startswith("robots"):
                paths.append(
                    [f"/p/{u:06d}", f"/files/{u:06d}.pdf", f"/files/{u:06d}.pdf?v=1",
                     f"/private/{u:06d}", f"/private/ok/{u:06d}"][u % 5]
                )
            else:
                paths.append(f"/p/{u:06d}")
        with open(os.path.join(db, f"{host}.yaml"), "w") as f:
            f.write("---\n")
            for p in paths:
                f.write(f"---\n_path: {p}\ncontent-type: text/html\n")
    with open(os.path.join(work, "maps.txt"), "w") as f:
        f.write("# each host to its own loopback address\n" + "\n".join(maps) + "\n")
    with open(os.path.join(work, "kinds.json"), "w") as f:
        json.dump(kinds, f)
    intervals = {address(i): (1.0 if kind(i) == "robots-delay" else interval) for i in range(n_hosts)}
    requested = {}
    for i in range(n_hosts):
        n = counts[i]
        if kind(i).startswith("robots"):
            n = sum(1 for u in range(counts[i]) if u % 5 in (0, 2, 4)) + 1  # + robots.txt
        elif kind(i).startswith("429"):
            n += 1  # the retry
        requested[address(i)] = n
    return db, counts, intervals, requested


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--urls", type=int, default=200_000)
    ap.add_argument("--hosts", type=int, default=2_000)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--per-host", type=int, default=2)
    ap.add_argument("--interval-ms", type=int, default=100)
    ap.add_argument("--runs-kept", type=int, default=30)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    args = ap.parse_args()
    interval = args.interval_ms / 1000

    work = tempfile.mkdtemp(prefix="urldb-rehearsal-")
    port = 20000 + random.Random().randrange(20000)
    db, counts, intervals, requested = generate(work, args.urls, args.hosts, interval, port)
    stats_path = os.path.join(work, "stats.json")
    server = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--serve", os.path.join(work, "kinds.json"),
         str(port), stats_path]
    )
    while not os.path.exists(stats_path + ".ready"):
        time.sleep(0.1)
        if server.poll() is not None:
            sys.exit("the server did not start")
    print(f"{sum(counts.values())} URLs over {args.hosts} hosts (largest {counts[0]}), {args.shards} shards, "
          f"--per-host {args.per_host}, --per-host-interval {args.interval_ms}ms; work in {work}")

    run_id = "2026-12-06T00:00:00.000Z"
    shards = []
    start = time.monotonic()
    for k in range(1, args.shards + 1):
        cmd = [TIME, "-f", "%M %e", "-o", os.path.join(work, f"time{k}"), URLDB, "--db", db,
               "verify", "-q", "--allow-private", "--respect-robots", "--retries", "2",
               "--per-host", str(args.per_host), "--per-host-interval", f"{args.interval_ms}ms",
               "--map-file", os.path.join(work, "maps.txt"), "--shard", f"{k}/{args.shards}",
               "--format", "json", "--history", os.path.join(work, f"h{k}.jsonl"),
               "--run-id", run_id]
        out = open(os.path.join(work, f"shard{k}.json"), "w")
        err = open(os.path.join(work, f"shard{k}.err"), "w")
        shards.append((subprocess.Popen(cmd, stdout=out, stderr=err), out, err))
    ends = []
    for p, out, err in shards:
        p.wait()
        ends.append(time.monotonic() - start)
        out.close()
        err.close()
    total = max(ends)
    server.send_signal(signal.SIGTERM)
    server.wait()
    with open(stats_path) as f:
        stats = json.load(f)

    # Each shard: its exit, its URLs and verdicts.
    checked = broken = skipped = 0
    for k in range(1, args.shards + 1):
        with open(os.path.join(work, f"shard{k}.json")) as f:
            text = f.read()
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            sys.exit(f"shard {k}: no JSON; stderr: {open(os.path.join(work, f'shard{k}.err')).read()[:2000]}")
        s = doc["summary"]
        checked += s["urls"]
        broken += s["broken"] + s["blocked"]
        skipped += s["skipped-robots"]
    print(f"results: {checked} URLs, {broken} broken or blocked, {skipped} skipped by "
          f"robots.txt; shards ended after {', '.join(f'{e:.1f}' for e in ends)} s")

    # In flight, gaps, 429s, robots.txt.
    peak = max(stats["peak"].values())
    worst_gap = (float("inf"), None)
    # The span of 10 requests in a row against 9 intervals: what the pace
    # keeps, whatever the jitter of one arrival on a loaded machine.
    worst_span = float("inf")
    under = 0
    gaps_all = []
    after_429 = {"429-retry-after": [], "429": []}
    disallowed_hits = allowed_missed = 0
    served = 0
    kinds = json.load(open(os.path.join(work, "kinds.json")))
    for addr, seen in stats["arrivals"].items():
        served += len(seen)
        seen.sort()
        times = [t for t, _, _ in seen]
        want = intervals[addr]
        for (a, _, status), (b, _, _) in zip(seen, seen[1:]):
            gap = b - a
            if status == 429:
                after_429[kinds[addr]].append(gap)
                continue
            gaps_all.append(gap / want)
            if gap / want < worst_gap[0]:
                worst_gap = (gap / want, (addr, gap, want))
            if gap < want * 0.9:
                under += 1
        plain = [t for t, _, status in seen]
        if not kinds[addr].startswith("429"):
            for a, b in zip(plain, plain[9:]):
                worst_span = min(worst_span, (b - a) / (9 * want))
        paths = [p for _, p, _ in seen]
        if kinds[addr].startswith("robots"):
            disallowed_hits += sum(1 for p in paths if disallowed(p))
            got = set(paths)
            i = int(addr.split(".")[2]) * 250 + int(addr.split(".")[3]) - 1
            for u in range(counts[i]):
                p = [f"/p/{u:06d}", None, f"/files/{u:06d}.pdf?v=1", None, f"/private/ok/{u:06d}"][u % 5]
                if p and p not in got:
                    allowed_missed += 1
    floor = max((requested[a] - 1) * intervals[a] for a in requested)
    ratio, (waddr, wgap, wwant) = worst_gap
    gaps_all.sort()
    q = gaps_all[len(gaps_all) // 1000] if gaps_all else 0
    print(f"requests served: {served} (and robots.txt)")
    print(f"max requests in flight at one host, all shards: {peak} (--per-host {args.per_host})")
    print(f"shortest gap between two requests to one host: {wgap * 1000:.1f} ms at {waddr} "
          f"(its interval {wwant * 1000:.0f} ms: {ratio:.2f} ×); 0.1st percentile {q:.2f} × "
          f"the interval; {under} of {len(gaps_all)} gaps under 0.9 × the interval")
    print(f"shortest span of 10 requests in a row to one host: {worst_span:.2f} × 9 intervals")
    for k, gaps in after_429.items():
        if gaps:
            print(f"gap after a 429 ({'Retry-After: 1' if k == '429-retry-after' else 'no Retry-After'}): "
                  f"min {min(gaps) * 1000:.0f} ms, median {statistics.median(gaps) * 1000:.0f} ms "
                  f"over {len(gaps)} hosts")
    print(f"robots.txt: {disallowed_hits} disallowed paths requested, {allowed_missed} allowed "
          f"paths not requested")
    print(f"total {total:.1f} s; politeness floor {floor:.1f} s (the largest host's requests × its "
          f"interval): {total / floor:.2f} ×")
    for k in range(1, args.shards + 1):
        mem, wall = open(os.path.join(work, f"time{k}")).read().split()[-2:]
        print(f"shard {k}: peak memory {int(mem) / 1024:.0f} MiB, {wall} s")

    # The history: the shards' files concatenated (one run), then the same
    # URLs with --runs-kept runs.
    hist = os.path.join(work, "history.jsonl")
    with open(hist, "wb") as out:
        for k in range(1, args.shards + 1):
            with open(os.path.join(work, f"h{k}.jsonl"), "rb") as f:
                shutil.copyfileobj(f, out)
    one = os.path.getsize(hist)
    kept = os.path.join(work, "history30.jsonl")
    runs = args.runs_kept
    ids = [f"2026-11-{d + 1:02d}T00:00:00.000Z" for d in range(runs - 1)] + [run_id]
    with open(hist) as f, open(kept, "w") as out:
        lines = f.read().splitlines()
        for line in lines:
            d = json.loads(line)
            if "checked" in d:
                for i in ids[:-1]:
                    out.write(json.dumps({**d, "run": i, "started": i}, separators=(",", ":")) + "\n")
                out.write(line + "\n")
        for line in lines:
            d = json.loads(line)
            if "recent" in d:
                d["recent"] = d["recent"][-1] * (runs - 1) + d["recent"]
                out.write(json.dumps(d, separators=(",", ":")) + "\n")
    size = os.path.getsize(kept)
    n_lines = sum(1 for _ in open(kept))
    one_db = os.path.join(work, "one")
    os.makedirs(one_db)
    with open(os.path.join(one_db, "h0000.rehearsal.test.yaml"), "w") as f:
        f.write("---\n---\n_path: /p/000000\ncontent-type: text/html\n")
    times = []
    for r in range(3):
        h = os.path.join(work, f"read{r}.jsonl")
        shutil.copy(kept, h)
        t0 = time.monotonic()
        subprocess.run([URLDB, "--db", one_db, "verify", "-q", "--allow-private", "--retries", "0",
                        "--map", f"h0000.rehearsal.test=http://127.0.0.1:9", "--format", "json",
                        "--history", h, "--run-id", "2026-12-07T00:00:00.000Z"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.monotonic() - t0)
    print(f"history after 1 run (the shards' files concatenated): {one / 1e6:.1f} MB; "
          f"after {runs} runs: {size / 1e6:.1f} MB ({n_lines} lines, {size / max(1, args.urls):.0f} "
          f"bytes a URL); a run that reads and rewrites it: "
          f"{', '.join(f'{t:.2f}' for t in times)} s")
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        serve(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        main()
