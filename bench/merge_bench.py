#!/usr/bin/env python3
"""`urldb merge` of a large domain file against `urldb check` (and
`urldb fmt --check`) of that file.

usage: python3 bench/merge_bench.py [--runs N] [--records N] [--changes N]

Builds urldb in release mode (into $CARGO_TARGET_DIR, by default target/),
writes under target/bench/merge/ a database with one domain file of
--records records (100,000; deterministic), and two edit sets of --changes
changes each (100: a third added next to existing records, a third with a
new content type, a third removed), disjoint, then times in turn (A B A B
...), N runs each (default 5) after one warm-up, as whole processes (wall,
cpu = user + sys, peak memory):

- canonical: `urldb merge BASE OURS THEIRS -o OUT` of three canonical
  versions, against `urldb check --no-cache` of the base;
- not canonical: the same merge with the base and theirs written in
  another layout (keys out of order, values double-quoted: every record
  differs in its bytes, so every record is read), against `urldb fmt
  --check` of that base.

The goals (docs/git.md, "Merging"): the first merge takes at most twice
the `check`, the second at most three times the `fmt --check`. Prints the
medians and their ratios as a Markdown table, and checks that each merge
is the expected text (the three versions' records, merged).
"""

import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
URLDB = os.path.join(TARGET, "release", "urldb")
WORK = os.path.join(ROOT, "target", "bench", "merge")

args = sys.argv[1:]


def option(name, default):
    return int(args[args.index(name) + 1]) if name in args else default


RUNS = option("--runs", 5)
RECORDS = option("--records", 100_000)
CHANGES = option("--changes", 100)


def record(i, content_type="text/html", canonical=True):
    path = f"/docs/{i:07d}/page"
    if canonical:
        return f"---\n_path: {path}\ncategories:\n- docs\ncontent-type: {content_type}\n"
    return f'---\ncontent-type: "{content_type}"\n_path: "{path}"\ncategories: ["docs"]\n'


def text(records, canonical=True):
    return "---\nhttps: true\n" + "".join(
        record(i, ct, canonical) for i, ct in sorted(records.items())
    )


def versions():
    """Base, ours and theirs as {index: content type}; records are at even
    indexes, and additions take odd ones (next to an existing record)."""
    base = {2 * i: "text/html" for i in range(RECORDS)}
    step = max(1, RECORDS // CHANGES)

    def edited(offset, content_type):
        side = dict(base)
        for n in range(CHANGES):
            i = 2 * ((n * step + offset) % RECORDS)
            kind = n % 3
            if kind == 0:
                side[i + 1] = "text/plain"
            elif kind == 1:
                side[i] = content_type
            else:
                side.pop(i, None)
        return side

    ours = edited(step // 3, "application/pdf")
    theirs = edited(2 * step // 3, "image/png")
    merged = dict(base)
    for side in (ours, theirs):
        for i in set(base) - set(side):
            merged.pop(i, None)
        for i, ct in side.items():
            if base.get(i) != ct:
                merged[i] = ct
    return base, ours, theirs, merged


def run(cmd, ok=(0,)):
    """One run of `cmd`: (wall s, cpu s, peak MiB)."""
    start = time.perf_counter()
    child = subprocess.Popen(
        cmd,
        cwd=WORK,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        sys.exit(f"{' '.join(cmd)} exited with {code}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    subprocess.run(
        ["cargo", "build", "--release", "--bin", "urldb"], cwd=ROOT, check=True
    )
    os.makedirs(os.path.join(WORK, "db"), exist_ok=True)
    with open(os.path.join(WORK, "urldb.toml"), "w") as f:
        f.write('root = "db"\n')
    base, ours, theirs, merged = versions()
    files = {
        "base.yaml": text(base),
        "ours.yaml": text(ours),
        "theirs.yaml": text(theirs),
        "base-layout.yaml": text(base, canonical=False),
        "theirs-layout.yaml": text(theirs, canonical=False),
        os.path.join("db", "example.org.yaml"): text(base),
        os.path.join("db", "layout.org.yaml"): text(base, canonical=False),
    }
    for name, content in files.items():
        with open(os.path.join(WORK, name), "w") as f:
            f.write(content)
    name = ["--path", "db/example.org.yaml"]
    cases = [
        (
            "canonical",
            [URLDB, "merge", "base.yaml", "ours.yaml", "theirs.yaml", "-o", "out.yaml", *name],
            [URLDB, "check", "--no-cache", "db/example.org.yaml"],
            "check --no-cache",
            (0,),
        ),
        (
            "not canonical",
            [
                URLDB, "merge", "base-layout.yaml", "ours.yaml", "theirs-layout.yaml",
                "-o", "out-layout.yaml", *name,
            ],
            [URLDB, "fmt", "--check", "db/layout.org.yaml"],
            "fmt --check",
            (1,),
        ),
    ]
    rows = []
    for label, merge, against, against_name, against_ok in cases:
        run(merge)
        run(against, against_ok)
        a, b = [], []
        for _ in range(RUNS):
            a.append(run(merge))
            b.append(run(against, against_ok))
        med = lambda xs, k: statistics.median(x[k] for x in xs)
        rows.append(
            f"| {label} | {med(a, 0):.3f} s ({med(a, 1):.3f} cpu, {med(a, 2):.0f} MiB) "
            f"| `{against_name}` {med(b, 0):.3f} s ({med(b, 1):.3f} cpu, {med(b, 2):.0f} MiB) "
            f"| {med(a, 0) / med(b, 0):.2f} |"
        )
    for out in ("out.yaml", "out-layout.yaml"):
        with open(os.path.join(WORK, out)) as f:
            if f.read() != text(merged):
                sys.exit(f"{out}: not the expected merge")
    print(f"{RECORDS} records, {CHANGES} changes per side, {RUNS} runs, medians\n")
    print("| files | urldb merge | against | ratio |")
    print("|---|---|---|---|")
    print("\n".join(rows))


main()
