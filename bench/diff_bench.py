#!/usr/bin/env python3
"""`urldb diff` between two revisions against `urldb check` of the same
database.

usage: python3 bench/diff_bench.py [--runs N] [--records N] [--files N] [--changed N]

Builds urldb and the generator in release mode (into $CARGO_TARGET_DIR, by
default target/), generates a database of --records records (100,000) in
--files files (1,000) under target/bench/diff/repo/db (deterministic: the
same bytes every time), commits it, changes the content type of one
record in each of --changed files (10), commits again, then times in turn
(A B A B ...), N runs each (default 5) after one warm-up, as whole
processes (wall, cpu = user + sys, peak memory of that process):

- `urldb diff HEAD~1..HEAD --format json` (the change set of the last commit);
- `urldb check --no-cache` (every file read and checked);
- `urldb check` with its results cache warm (every file stat'ed).

The goal (docs/dev/performance.md): the diff takes no more than twice the
`check`. Prints medians and the ratios of the medians as a Markdown table.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
URLDB = os.path.join(TARGET, "release", "urldb")
GEN = os.path.join(TARGET, "release", "examples", "gen_db")
WORK = os.path.join(ROOT, "target", "bench", "diff")

args = sys.argv[1:]


def option(name, default):
    return int(args[args.index(name) + 1]) if name in args else default


RUNS = option("--runs", 5)
RECORDS = option("--records", 100_000)
FILES = option("--files", 1_000)
CHANGED = option("--changed", 10)

GIT_ENV = dict(
    os.environ,
    GIT_CONFIG_GLOBAL="/dev/null",
    GIT_CONFIG_NOSYSTEM="1",
    GIT_AUTHOR_NAME="bench",
    GIT_AUTHOR_EMAIL="bench@example.com",
    GIT_COMMITTER_NAME="bench",
    GIT_COMMITTER_EMAIL="bench@example.com",
)


def git(repo, *argv):
    subprocess.run(["git", *argv], cwd=repo, env=GIT_ENV, check=True, stdout=subprocess.DEVNULL)


def run(cmd, cwd):
    """One run of `cmd`: (wall s, cpu s, peak MiB); it must exit 0."""
    start = time.perf_counter()
    child = subprocess.Popen(
        cmd,
        cwd=cwd,
        env=dict(os.environ, XDG_CACHE_HOME=os.path.join(WORK, "cache")),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{' '.join(cmd)} exited with {code} in {cwd}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def make_repo():
    """The database committed, then one record of CHANGED files changed
    and committed: the change set of the last commit is CHANGED records."""
    repo = os.path.join(WORK, "repo")
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(repo)
    db = os.path.join(repo, "db")
    subprocess.run(
        [GEN, db, "--records", str(RECORDS), "--files", str(FILES), "--seed", "1"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with open(os.path.join(repo, "urldb.toml"), "w") as f:
        f.write('root = "db"\n')
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    names = sorted(n for n in os.listdir(db) if n.endswith(".yaml"))
    step = max(1, len(names) // CHANGED)
    changed = 0
    for name in names[::step][:CHANGED]:
        path = os.path.join(db, name)
        with open(path) as f:
            text = f.read()
        # The first record's content type (after the metadata document).
        at = text.index("\n---\n") + 1
        edited, n = re.subn(
            r"^content-type: .*$", "content-type: application/x-bench-changed", text[at:], count=1, flags=re.M
        )
        if n:
            with open(path, "w") as f:
                f.write(text[:at] + edited)
            changed += 1
    git(repo, "commit", "-q", "-am", "change")
    return repo, changed


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "urldb"], cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "gen_db"], cwd=ROOT, check=True)
    os.makedirs(WORK, exist_ok=True)
    repo, changed = make_repo()
    out = subprocess.run(
        [URLDB, "diff", "HEAD~1..HEAD", "--format", "json"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout
    assert f'"changed": {changed}' in out, out[:2000]
    size = sum(
        os.path.getsize(os.path.join(repo, "db", n)) for n in os.listdir(os.path.join(repo, "db"))
    ) / 1e6
    cmds = {
        "diff": [URLDB, "diff", "HEAD~1..HEAD", "--format", "json"],
        "check --no-cache": [URLDB, "check", "--no-cache", "-q"],
        "check (cache warm)": [URLDB, "check", "-q"],
    }
    for cmd in cmds.values():
        run(cmd, repo)  # warm-up: page cache, binary, the results cache
    results = {name: [] for name in cmds}
    for _ in range(RUNS):
        for name, cmd in cmds.items():
            results[name].append(run(cmd, repo))
    med = {name: [statistics.median(r[k] for r in res) for k in range(3)] for name, res in results.items()}
    print(f"{RECORDS} records in {FILES} files ({size:.1f} MB), {changed} records changed, {RUNS} runs, medians")
    print()
    print("| command | wall | cpu | peak | diff / this (wall) |")
    print("|---|---:|---:|---:|---:|")
    for name, (wall, cpu, peak) in med.items():
        ratio = med["diff"][0] / wall
        print(f"| `urldb {name}` | {wall * 1000:.1f} ms | {cpu * 1000:.1f} ms | {peak:.1f} MiB | {ratio:.2f}× |")


if __name__ == "__main__":
    main()
