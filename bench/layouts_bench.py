#!/usr/bin/env python3
"""What finding the databases costs: a bare run at the top of a repository
against the same run inside its one database, and many nested databases.

usage: python3 bench/layouts_bench.py [--runs N] [--unrelated N] [--databases N]

Builds urldb in release mode (into $CARGO_TARGET_DIR, by default target/)
and makes, under target/bench/layouts/ (deterministic: the same bytes
every time):

- `repo/`: a git repository in the layout `urldb init db` makes (the
  database in `db/`: 1,000 domain files of 10 records), beside --unrelated
  files (100,000) that are no part of it: half tracked source files in
  `src/`, half in an ignored `node_modules/` (as a JavaScript project
  has them). Times, in turn (A B A B ...), N runs each (default 5) after
  one warm-up, as whole processes (wall, cpu = user + sys):
  `urldb check --no-cache` at the top (it finds `db/urldb.toml` below,
  the unrelated files passed over) against `urldb check --no-cache` in
  `db/` (the floor: the same database, nothing to find).
- `many/`: --databases folders (64,000), each with its own `urldb.toml`
  and one domain file: `urldb check --no-cache .` at the top, against
  `urldb check --config ../one.toml --no-cache .` over the same files as one
  database (no nested configuration to read or route to).

Prints medians and the ratios of the medians as a Markdown table
(docs/dev/performance.md keeps the figures).
"""

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
URLDB = os.path.join(TARGET, "release", "urldb")
WORK = os.path.join(ROOT, "target", "bench", "layouts")

args = sys.argv[1:]


def option(name, default):
    return int(args[args.index(name) + 1]) if name in args else default


RUNS = option("--runs", 5)
UNRELATED = option("--unrelated", 100_000)
DATABASES = option("--databases", 64_000)

GIT_ENV = dict(
    os.environ,
    GIT_CONFIG_GLOBAL="/dev/null",
    GIT_CONFIG_NOSYSTEM="1",
    GIT_AUTHOR_NAME="bench",
    GIT_AUTHOR_EMAIL="bench@example.com",
    GIT_COMMITTER_NAME="bench",
    GIT_COMMITTER_EMAIL="bench@example.com",
)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def domain_file(i, records):
    text = "---\n"
    for k in range(records):
        text += f"---\n_path: /p{k:03}\ncontent-type: text/html\n"
    return text


def make_repo():
    repo = os.path.join(WORK, "repo")
    if os.path.isdir(repo):
        return repo
    write(os.path.join(repo, "db", "urldb.toml"), 'root = "."\n')
    for i in range(1_000):
        write(os.path.join(repo, "db", f"d{i:04}.example.org.yaml"), domain_file(i, 10))
    write(os.path.join(repo, ".gitignore"), "node_modules/\n")
    half = UNRELATED // 2
    for i in range(half):
        write(os.path.join(repo, "src", f"m{i // 1000:03}", f"f{i}.js"), "export {};\n")
    for i in range(UNRELATED - half):
        write(
            os.path.join(repo, "node_modules", f"p{i // 1000:03}", f"f{i}.js"),
            "module.exports = {};\n",
        )
    subprocess.run(["git", "init", "-q", repo], check=True, env=GIT_ENV)
    subprocess.run(["git", "-C", repo, "add", "-A"], check=True, env=GIT_ENV)
    subprocess.run(["git", "-C", repo, "commit", "-qm", "base"], check=True, env=GIT_ENV)
    return repo


def make_many():
    many = os.path.join(WORK, "many")
    if os.path.isdir(many):
        return many
    for i in range(DATABASES):
        folder = os.path.join(many, f"g{i // 1000:03}", f"db{i}")
        write(os.path.join(folder, "urldb.toml"), 'root = "."\n')
        write(os.path.join(folder, f"d{i}.example.org.yaml"), domain_file(i, 1))
    write(os.path.join(WORK, "one.toml"), 'root = "many"\n')
    return many


def timed(argv, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(argv)} in {cwd}: exit {proc.returncode}\n{proc.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def pair(name, a, b):
    times = {"a": [], "b": []}
    for run in range(RUNS + 1):
        for key, (argv, cwd) in (("a", a), ("b", b)):
            t = timed(argv, cwd)
            if run:
                times[key].append(t)
    med = lambda key, i: statistics.median(t[i] for t in times[key])
    print(
        f"| {name} | {med('a', 0):.3f} s | {med('b', 0):.3f} s | "
        f"{med('a', 0) / med('b', 0):.2f}× | {med('a', 1):.3f} s | {med('b', 1):.3f} s |"
    )


def main():
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    if "--fresh" in args and os.path.isdir(WORK):
        shutil.rmtree(WORK)
    repo = make_repo()
    many = make_many()
    print("| case | A wall | B (floor) wall | A/B | A cpu | B cpu |")
    print("|---|---|---|---|---|---|")
    pair(
        f"bare `check --no-cache` at the top, {UNRELATED:,} unrelated files (A) vs in `db/` (B)",
        ([URLDB, "check", "--no-cache"], repo),
        ([URLDB, "check", "--no-cache"], os.path.join(repo, "db")),
    )
    pair(
        f"`check --no-cache .` over {DATABASES:,} one-file databases (A) vs one database (B)",
        ([URLDB, "check", "--no-cache", "."], many),
        ([URLDB, "check", "--config", os.path.join(WORK, "one.toml"), "--no-cache", "."], many),
    )


if __name__ == "__main__":
    main()
