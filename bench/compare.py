#!/usr/bin/env python3
"""urldb's performance benchmark, side by side with yamllint, prettier and
the reference tool's PyYAML load + dump (docs/dev/performance.md).

usage: python3 bench/compare.py [--quick] [--work DIR] [--runs N]
                                [--slow-runs N] [--skip-competitors]
                                [--skip-big] [--skip-dirty]

A benchmark, never a test: the numbers depend on the machine and on what
else runs on it. One command does everything:

1. `cargo build --release --example gen_db` and `cargo build --release`.
2. Generates, under the work directory (default `target/bench/`), with
   `examples/gen_db.rs`:
   - DB_BIG   = 1,000,000 records in 10,000 files, seed 1 (about 110 MB),
   - DB_SMALL =   100,000 records in  1,000 files, seed 1 (about 11 MB),
   - DB_DIRTY =   100,000 records in  1,000 files, seed 1, `--dirty 100`
     (every file valid but not canonical: urldb's general YAML path).
   A database is regenerated only when its stamp file (the generator's
   arguments and the hash of its source) does not match.
3. Installs the competitors if missing, under `<work>/tools/`: a Python
   venv with yamllint 1.38.0 and PyYAML 6.0.3, and prettier 3.10.1 with
   `npm install --prefix <work>/tools/node`.
4. Measures wall-clock time and peak RSS with a warm page cache: every
   file of a database is read once before it is measured, every command
   runs once untimed before its timed runs (the slow tools warm up on a
   10-file copy instead: their code and interpreter, not the data, is
   what is cold), and the median of N timed runs is reported (N = 5 for
   urldb and 3 for the slow tools; `--quick`: 3 and 1). The peak RSS is
   the largest of the timed runs: `ru_maxrss` from `os.wait4` on the
   child when it exceeds this script's own peak (a child inherits its
   parent's high-water mark through fork/exec), else the child's VmHWM
   sampled every 2 ms. No /usr/bin/time needed.
   - DB_BIG: `urldb --threads 1|2 --no-cache check -q` and `fmt --check
     -q`, and `urldb check -q` with the results cache (the untimed run
     fills it, the timed runs are second runs).
   - DB_SMALL: urldb `check` and `fmt --check` (2 threads, `--no-cache`),
     `yamllint -f parsable DIR` (default configuration), `prettier --check
     "DIR/**/*.yaml"` and `bench/pyyaml_reference.py DIR` (pure-Python
     PyYAML, as the reference tool).
   - DB_DIRTY: `urldb --threads 1 --no-cache check -q` (also with
     `--format concise`: the full report's rendering is costly) and
     `fmt --check -q`: the general path's MB/s per core.
   urldb runs with `--db DIR` and its working directory in DIR. On a clean
   database it must exit 0 (the script stops otherwise); the competitors'
   exit codes are recorded, not judged.
5. Prints one Markdown table per database (median seconds, MB/s = database
   bytes / median, ratio to `urldb check`, peak RSS), the 2-thread speed-up,
   the largest file and the memory bound 64 MiB + 3 x largest file, the
   machine (cores, CPU model) and the date, and writes the same text to
   `<work>/results.md`.

Needs: cargo, python3 with the venv module (Debian: apt-get install
python3-venv), node and npm for prettier (or --skip-competitors). The
script itself uses only the standard library.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(ROOT, "examples", "gen_db.rs")
REFERENCE = os.path.join(ROOT, "bench", "pyyaml_reference.py")

YAMLLINT = "1.38.0"
PYYAML = "6.0.3"
PRETTIER = "3.10.1"

MB = 1_000_000
MIB = 1024 * 1024


class BenchError(Exception):
    pass


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def need(tool, hint):
    path = shutil.which(tool)
    if not path:
        raise BenchError(f"`{tool}` not found on PATH: {hint}")
    return path


def run_checked(cmd, what, cwd=ROOT, env=None):
    """Run a setup command; on failure raise with its output."""
    log(f"$ {' '.join(cmd)}")
    proc = subprocess.run(
        cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-30:])
        raise BenchError(f"{what} failed (exit {proc.returncode}):\n{tail}")
    return proc.stdout


# ---------------------------------------------------------------- building


def target_dir():
    out = run_checked(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"], "cargo metadata"
    )
    return json.loads(out)["target_directory"]


def build():
    need("cargo", "install Rust (https://rustup.rs)")
    run_checked(["cargo", "build", "--release", "--example", "gen_db"], "building gen_db")
    run_checked(["cargo", "build", "--release"], "building urldb")
    target = target_dir()
    gen = os.path.join(target, "release", "examples", "gen_db")
    urldb = os.path.join(target, "release", "urldb")
    for path in (gen, urldb):
        if not os.access(path, os.X_OK):
            raise BenchError(f"{path} was not built")
    return gen, urldb


# ---------------------------------------------------------------- databases


def db_stats(path):
    files = 0
    total = 0
    largest = ("", 0)
    for dirpath, dirnames, filenames in os.walk(path):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if not name.endswith(".yaml"):
                continue
            size = os.path.getsize(os.path.join(dirpath, name))
            files += 1
            total += size
            if size > largest[1]:
                largest = (name, size)
    return {"files": files, "bytes": total, "largest": largest}


def generate(gen, work, name, records, files, seed, dirty=0):
    """The database `name` under work, generated unless its stamp matches."""
    path = os.path.join(work, name)
    stamp_path = path + ".stamp"
    with open(GENERATOR, "rb") as fh:
        source = hashlib.sha256(fh.read()).hexdigest()
    args = ["--records", str(records), "--files", str(files), "--seed", str(seed),
            "--dirty", str(dirty)]
    stamp = {"args": args, "generator_sha256": source}
    if os.path.isdir(path) and os.path.exists(stamp_path):
        with open(stamp_path) as fh:
            try:
                if json.load(fh) == stamp:
                    log(f"{name}: up to date ({' '.join(args)})")
                    return path
            except json.JSONDecodeError:
                pass
    if os.path.exists(stamp_path):
        os.remove(stamp_path)
    if os.path.isdir(path):
        shutil.rmtree(path)
    started = time.perf_counter()
    run_checked([gen, path] + args, f"generating {name}")
    log(f"{name}: generated in {time.perf_counter() - started:.1f} s")
    with open(stamp_path, "w") as fh:
        json.dump(stamp, fh)
        fh.write("\n")
    return path


def warm_page_cache(path):
    for dirpath, _, filenames in os.walk(path):
        for name in filenames:
            with open(os.path.join(dirpath, name), "rb") as fh:
                while fh.read(1 << 20):
                    pass


def sample_copy(db, work, count=10):
    """A copy of the first `count` files of db, to warm up the slow tools."""
    path = os.path.join(work, "warmup")
    if os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(path)
    for name in sorted(n for n in os.listdir(db) if n.endswith(".yaml"))[:count]:
        shutil.copy(os.path.join(db, name), os.path.join(path, name))
    return path


# ---------------------------------------------------------------- competitors


def install_competitors(work):
    tools = os.path.join(work, "tools")
    os.makedirs(tools, exist_ok=True)
    venv = os.path.join(tools, "venv")
    python = os.path.join(venv, "bin", "python")
    probe = ("import yaml, yamllint; "
             "print(yaml.__version__ + ' ' + yamllint.APP_VERSION)")
    have = None
    if os.access(python, os.X_OK):
        proc = subprocess.run([python, "-c", probe], capture_output=True, text=True)
        have = proc.stdout.strip() if proc.returncode == 0 else None
    if have != f"{PYYAML} {YAMLLINT}":
        if not os.access(python, os.X_OK):
            try:
                run_checked([sys.executable, "-m", "venv", venv], "creating the Python venv")
            except BenchError as e:
                raise BenchError(
                    f"{e}\n(the venv module or ensurepip is missing: on Debian/Ubuntu "
                    "`apt-get install python3-venv`)"
                ) from None
        run_checked(
            [python, "-m", "pip", "install", "--quiet", f"yamllint=={YAMLLINT}",
             f"pyyaml=={PYYAML}"],
            "pip install yamllint and PyYAML",
        )
    yamllint = os.path.join(venv, "bin", "yamllint")

    node_dir = os.path.join(tools, "node")
    prettier = os.path.join(node_dir, "node_modules", ".bin", "prettier")
    need("node", "install Node.js (prettier runs on it), or use --skip-competitors")
    version = None
    if os.access(prettier, os.X_OK):
        proc = subprocess.run([prettier, "--version"], capture_output=True, text=True)
        version = proc.stdout.strip() if proc.returncode == 0 else None
    if version != PRETTIER:
        need("npm", "install npm (it comes with Node.js), or use --skip-competitors")
        os.makedirs(node_dir, exist_ok=True)
        run_checked(
            ["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix",
             node_dir, f"prettier@{PRETTIER}"],
            "npm install prettier",
        )
    return {"python": python, "yamllint": yamllint, "prettier": prettier}


# ---------------------------------------------------------------- measuring


def read_hwm_kib(pid):
    """VmHWM (peak RSS of the process's current program) in KiB, or 0."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def run_once(cmd, cwd):
    """(wall seconds, peak RSS KiB, exit code) of one run; a negative peak
    is an upper bound (-KiB) when nothing better is known.

    The peak RSS needs care: a child that Python starts (vfork or fork, then
    exec) carries the parent's own high-water mark into its `ru_maxrss`, so
    `os.wait4` can only be trusted when it reports more than this process's
    own peak. Below that, a thread samples the child's VmHWM (the peak of
    the exec'd program alone) every 2 ms; the larger of the two trustworthy
    numbers is returned. The wall time comes from the blocking `wait4`,
    untouched by the sampling.
    """
    env = dict(os.environ, NO_COLOR="1")
    env.pop("URLDB_FORMAT", None)
    own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    sampled = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            sampled[0] = max(sampled[0], read_hwm_kib(proc.pid))
            done.wait(0.002)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    rss = max(usage.ru_maxrss if usage.ru_maxrss > own_peak else 0, sampled[0])
    if rss == 0:
        # Too short to sample and below our own peak: only a bound is known.
        return wall, -own_peak, proc.returncode
    return wall, rss, proc.returncode


def explain_failure(cmd, cwd):
    proc = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=dict(os.environ, NO_COLOR="1"))
    out = (proc.stdout + proc.stderr).strip().splitlines()
    return "\n".join(out[:40] + (["..."] if len(out) > 40 else []))


class Row:
    def __init__(self, label, cmd, cwd, runs, expect=None, warmup_cmd=None):
        self.label = label
        self.cmd = cmd
        self.cwd = cwd
        self.runs = runs
        self.expect = expect
        self.warmup_cmd = warmup_cmd
        self.times = []
        self.rss_kib = 0
        self.rss_bound_kib = 0
        self.codes = []

    def measure(self):
        log(f"  {self.label}: warm-up")
        warm = self.warmup_cmd or self.cmd
        _, _, code = run_once(warm, self.cwd)
        if self.expect is not None and code != self.expect:
            raise BenchError(
                f"`{' '.join(warm)}` exited {code}, expected {self.expect}:\n"
                + explain_failure(warm, self.cwd)
            )
        for i in range(self.runs):
            wall, rss, code = run_once(self.cmd, self.cwd)
            if self.expect is not None and code != self.expect:
                raise BenchError(
                    f"`{' '.join(self.cmd)}` exited {code}, expected {self.expect}:\n"
                    + explain_failure(self.cmd, self.cwd)
                )
            self.times.append(wall)
            if rss >= 0:
                self.rss_kib = max(self.rss_kib, rss)
            else:
                self.rss_bound_kib = max(self.rss_bound_kib, -rss)
            self.codes.append(code)
            log(f"  {self.label}: run {i + 1}/{self.runs}: {wall:.3f} s, "
                f"{'≤ ' if rss < 0 else ''}{abs(rss) / 1024:.1f} MiB, exit {code}")
        return self

    @property
    def rss_text(self):
        if self.rss_kib >= self.rss_bound_kib:
            return f"{self.rss_kib / 1024:.1f}"
        return f"≤ {self.rss_bound_kib / 1024:.1f}"

    @property
    def median(self):
        return statistics.median(self.times)


def urldb_cmd(urldb, db, threads, cache, *args):
    cmd = [urldb, "--db", db]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    if not cache:
        cmd.append("--no-cache")
    return cmd + list(args)


# ---------------------------------------------------------------- reporting


def fmt_ratio(r):
    if r >= 100:
        return f"{r:,.0f}×"
    if r >= 10:
        return f"{r:.0f}×"
    if r >= 0.1:
        return f"{r:.2f}×"
    return f"{r:.3f}×"


def fmt_seconds(s):
    return f"{s:.3f}" if s < 10 else f"{s:.1f}"


def table(rows, db_bytes, reference):
    lines = [
        "| command | median s | MB/s | ratio vs urldb check | peak RSS MiB | runs | exit |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        codes = sorted(set(row.codes))
        lines.append(
            f"| `{row.label}` | {fmt_seconds(row.median)} | "
            f"{db_bytes / MB / row.median:,.2f} | {fmt_ratio(row.median / reference.median)} | "
            f"{row.rss_text} | {len(row.times)} | "
            f"{', '.join(str(c) for c in codes)} |"
        )
    return lines


def describe_db(name, stats, args):
    largest_name, largest = stats["largest"]
    return (f"{name}: {stats['files']:,} files, {stats['bytes']:,} bytes "
            f"({stats['bytes'] / MB:.1f} MB; `gen_db {' '.join(args)}`), "
            f"largest file {largest_name} ({largest:,} bytes)")


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return (f"Machine: {cores} cores (nproc), {model}, {platform.system()} "
            f"{platform.release()}; urldb at {rev}{' + uncommitted changes' if dirty else ''}; "
            f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}; "
            f"load average at the start {load()}")


def load():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


# ---------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(
        description="urldb benchmark, side by side with yamllint, prettier and PyYAML "
                    "(see the module docstring)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer runs: 3 for urldb, 1 for the slow tools")
    parser.add_argument("--work", default=os.path.join(ROOT, "target", "bench"),
                        help="work directory (default: target/bench)")
    parser.add_argument("--runs", type=int, help="timed runs of each urldb command")
    parser.add_argument("--slow-runs", type=int, help="timed runs of each slow tool")
    parser.add_argument("--skip-competitors", action="store_true",
                        help="measure urldb only (no yamllint, prettier, PyYAML)")
    parser.add_argument("--skip-big", action="store_true", help="skip DB_BIG")
    parser.add_argument("--skip-dirty", action="store_true", help="skip DB_DIRTY")
    opts = parser.parse_args()
    runs = max(1, opts.runs or (3 if opts.quick else 5))
    slow_runs = max(1, opts.slow_runs or (1 if opts.quick else 3))
    work = os.path.abspath(opts.work)
    os.makedirs(work, exist_ok=True)

    gen, urldb = build()
    big_args = small_args = dirty_args = None
    if not opts.skip_big:
        big_args = (1_000_000, 10_000, 1)
        db_big = generate(gen, work, "db-big", *big_args)
    small_args = (100_000, 1_000, 1)
    db_small = generate(gen, work, "db-small", *small_args)
    if not opts.skip_dirty:
        dirty_args = (100_000, 1_000, 1, 100)
        db_dirty = generate(gen, work, "db-dirty", *dirty_args)
    tools = None if opts.skip_competitors else install_competitors(work)

    out = ["# urldb benchmark", "", machine(), ""]
    out.append(f"Median of {runs} timed runs for urldb, {slow_runs} for the slow tools, "
               "after one untimed warm-up run; warm page cache. MB = 10^6 bytes.")
    out.append("")

    if not opts.skip_big:
        stats = db_stats(db_big)
        warm_page_cache(db_big)
        log("DB_BIG")
        rows = [
            Row("urldb --threads 1 --no-cache check -q",
                urldb_cmd(urldb, db_big, 1, False, "check", "-q"), db_big, runs, 0),
            Row("urldb --threads 2 --no-cache check -q",
                urldb_cmd(urldb, db_big, 2, False, "check", "-q"), db_big, runs, 0),
            Row("urldb --threads 1 --no-cache fmt --check -q",
                urldb_cmd(urldb, db_big, 1, False, "fmt", "--check", "-q"), db_big, runs, 0),
            Row("urldb --threads 2 --no-cache fmt --check -q",
                urldb_cmd(urldb, db_big, 2, False, "fmt", "--check", "-q"), db_big, runs, 0),
            Row("urldb check -q (cache, second run)",
                urldb_cmd(urldb, db_big, None, True, "check", "-q"), db_big, runs, 0),
        ]
        for row in rows:
            row.measure()
        check1, check2, fmt1, fmt2, cached = rows
        largest = stats["largest"][1]
        bound = 64 * MIB + 3 * largest
        peak = max(max(r.rss_kib, r.rss_bound_kib) for r in rows) * 1024
        out += ["## DB_BIG", "", describe_db("DB_BIG", stats, fmt_gen_args(big_args)), ""]
        out += table(rows, stats["bytes"], check2)
        out += [
            "",
            f"- 2 threads vs 1: check {check1.median / check2.median:.2f}×, "
            f"fmt --check {fmt1.median / fmt2.median:.2f}× (target: ≥ 1.8×)",
            f"- check, 2 threads: {check2.median:.3f} s = "
            f"{stats['bytes'] / MB / check2.median:.0f} MB/s (target: ≤ 0.5 s, ≥ 200 MB/s); "
            f"fmt --check: {fmt2.median:.3f} s",
            f"- cached second run: {cached.median * 1000:.0f} ms (target: ≤ 50 ms for 10,000 files)",
            f"- memory: peak RSS {peak / MIB:.1f} MiB; bound 64 MiB + 3 × largest file "
            f"({largest:,} bytes) = {bound / MIB:.1f} MiB: "
            f"{'within' if peak <= bound else 'OVER'}",
            "",
        ]

    stats = db_stats(db_small)
    warm_page_cache(db_small)
    log("DB_SMALL")
    check = Row("urldb --threads 2 --no-cache check -q",
                urldb_cmd(urldb, db_small, 2, False, "check", "-q"), db_small, runs, 0)
    rows = [
        check,
        Row("urldb --threads 2 --no-cache fmt --check -q",
            urldb_cmd(urldb, db_small, 2, False, "fmt", "--check", "-q"), db_small, runs, 0),
    ]
    if tools:
        warmup = sample_copy(db_small, work)
        rows += [
            Row("yamllint -f parsable DIR",
                [tools["yamllint"], "-f", "parsable", db_small], db_small, slow_runs,
                warmup_cmd=[tools["yamllint"], "-f", "parsable", warmup]),
            Row('prettier --check "DIR/**/*.yaml"',
                [tools["prettier"], "--check", f"{db_small}/**/*.yaml"], db_small, slow_runs,
                warmup_cmd=[tools["prettier"], "--check", f"{warmup}/**/*.yaml"]),
            Row("pyyaml_reference.py DIR (pure-Python PyYAML load + dump)",
                [tools["python"], REFERENCE, db_small], db_small, slow_runs,
                warmup_cmd=[tools["python"], REFERENCE, warmup]),
        ]
    for row in rows:
        row.measure()
    out += ["## DB_SMALL", "", describe_db("DB_SMALL", stats, fmt_gen_args(small_args)), ""]
    out += table(rows, stats["bytes"], check)
    if tools:
        targets = {"yamllint": 500, "prettier": 300, "pyyaml_reference": 1000}
        out.append("")
        for row in rows[2:]:
            key = next(k for k in targets if row.label.startswith(k))
            ratio = row.median / check.median
            out.append(f"- {key}: urldb check is {fmt_ratio(ratio)} faster "
                       f"(target: ≥ {targets[key]:,}×) — "
                       f"{'met' if ratio >= targets[key] else 'NOT met'}; "
                       f"exit code {', '.join(str(c) for c in sorted(set(row.codes)))}")
    out.append("")

    if not opts.skip_dirty:
        stats = db_stats(db_dirty)
        warm_page_cache(db_dirty)
        log("DB_DIRTY")
        rows = [
            Row("urldb --threads 1 --no-cache check -q",
                urldb_cmd(urldb, db_dirty, 1, False, "check", "-q"), db_dirty, runs, 1),
            Row("urldb --threads 1 --no-cache check -q --format concise",
                urldb_cmd(urldb, db_dirty, 1, False, "check", "-q", "--format", "concise"),
                db_dirty, runs, 1),
            Row("urldb --threads 1 --no-cache fmt --check -q",
                urldb_cmd(urldb, db_dirty, 1, False, "fmt", "--check", "-q"), db_dirty, runs, 1),
        ]
        for row in rows:
            row.measure()
        out += ["## DB_DIRTY (general YAML path, 1 thread)", "",
                describe_db("DB_DIRTY", stats, fmt_gen_args(dirty_args)), ""]
        out += table(rows, stats["bytes"], rows[0])
        largest = stats["largest"][1]
        bound = 64 * MIB + 3 * largest
        peak = max(max(r.rss_kib, r.rss_bound_kib) for r in rows) * 1024
        out += [
            "",
            f"- general path, 1 thread: check {stats['bytes'] / MB / rows[0].median:.1f} MB/s "
            f"(concise report {stats['bytes'] / MB / rows[1].median:.1f} MB/s), fmt --check "
            f"{stats['bytes'] / MB / rows[2].median:.1f} MB/s (target: ≥ 30 MB/s per core); "
            "exit 1 is expected (every file has findings)",
            f"- memory: peak RSS {peak / MIB:.1f} MiB; bound 64 MiB + 3 × largest file "
            f"({largest:,} bytes) = {bound / MIB:.1f} MiB: "
            f"{'within' if peak <= bound else 'OVER'}",
            "",
        ]

    out += [f"Load average at the end: {load()} (the machine may be shared: "
            "other work on it slows every tool).", ""]
    text = "\n".join(out) + "\n"
    print(text)
    with open(os.path.join(work, "results.md"), "w") as fh:
        fh.write(text)
    log(f"written to {os.path.join(work, 'results.md')}")


def fmt_gen_args(args):
    names = ["--records", "--files", "--seed", "--dirty"]
    return [f"{n} {v}" for n, v in zip(names, args)]


if __name__ == "__main__":
    try:
        main()
    except BenchError as e:
        print(f"compare.py: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
