#!/usr/bin/env python3
"""One large file that the canonical pieces do not take: peak memory against
the bound, 1 thread against 2, MB/s per cpu-second.

usage: python3 bench/general_bench.py [--runs N] [--records N] [--base URLDB]

Builds urldb and the generator in release mode, generates one domain file
of N records (default 180,000: about 20 MB) under target/bench/general/
(deterministic), and writes it in four shapes:

- canonical: what `fmt` writes (the pieces take it; for comparison);
- comment: the same with one comment line on top of the metadata;
- reversed: every document's keys in reverse order (not canonical anywhere,
  an `unsorted-keys` finding on every record);
- quoted: every `content-type` double-quoted (not canonical anywhere, read
  by the general parser: the fast reader declines quoted values).

Each shape's `check --no-cache -q` and `fmt --check` run with `--threads 1`
and `--threads 2` in turn (1 2 1 2 ...), N runs each (default 5) after one
warm-up, as whole processes (wall, cpu = user + sys, peak memory from
`wait4`). Prints medians: the peak against 64 MiB + 3 x the file's size,
the wall time of 2 threads as a share of 1 thread's, and MB per
cpu-second of 1 thread. With --base, another build runs the same commands
in the same turns (its row below each), for a before and after in one run.
docs/dev/performance.md gives the goals and the figures.
"""

import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "bench", "general")
URLDB = os.path.join(ROOT, "target", "release", "urldb")
GEN = os.path.join(ROOT, "target", "release", "examples", "gen_db")

args = sys.argv[1:]
RUNS = int(args[args.index("--runs") + 1]) if "--runs" in args else 5
RECORDS = args[args.index("--records") + 1] if "--records" in args else "180000"
BASE = args[args.index("--base") + 1] if "--base" in args else None


def run(cmd, cwd, codes=(0, 1)):
    """One run of `cmd`: (wall s, cpu s, peak MiB). An exit code outside
    `codes` (urldb: 0 clean, 1 findings) stops the bench."""
    start = time.perf_counter()
    child = subprocess.Popen(
        cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in codes:
        sys.exit(f"{' '.join(cmd[:5])} ... exited with {code} in {cwd}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def documents(text):
    """The documents of a generated file, each with its `---` line."""
    return ["---\n" + d for d in text.split("---\n")[1:]]


def reversed_keys(text):
    out = []
    for doc in documents(text):
        blocks = []
        for line in doc.splitlines(keepends=True)[1:]:
            if line.startswith("- ") and blocks:
                blocks[-1] += line
            else:
                blocks.append(line)
        out.append("---\n" + "".join(reversed(blocks)))
    return "".join(out)


def quoted(text):
    lines = text.splitlines(keepends=True)
    return "".join(
        f'content-type: "{l[len("content-type: "):-1]}"\n' if l.startswith("content-type: ") else l
        for l in lines
    )


SHAPES = {
    "canonical": lambda t: t,
    "comment": lambda t: "# a comment on top\n" + t,
    "reversed": reversed_keys,
    "quoted": quoted,
}


def generate():
    """The folder of each shape, each holding the one file."""
    source = os.path.join(WORK, f"source-{RECORDS}")
    if not os.path.isdir(source):
        subprocess.run([GEN, source, "--records", RECORDS, "--files", "1", "--seed", "1"],
                       check=True, stdout=subprocess.DEVNULL)
    (name,) = [f for f in os.listdir(source) if f.endswith(".yaml")]
    out = {}
    for shape, write in SHAPES.items():
        folder = os.path.join(WORK, f"{shape}-{RECORDS}")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            with open(os.path.join(source, name)) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(write(text))
        out[shape] = (folder, name, os.path.getsize(path))
    return out


def medians(results):
    return [statistics.median(r[k] for r in results) for k in range(3)]


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "gen_db"], cwd=ROOT, check=True)
    # In a process of its own: a child's peak memory (wait4) starts from
    # this process's own at the fork, so this one never holds the text.
    subprocess.run([sys.executable, __file__, "--generate", *args], check=True)
    shapes = generate()
    builds = [("this build", URLDB)] + ([("base", BASE)] if BASE else [])
    print(f"runs: {RUNS}, medians; load average at the start: {os.getloadavg()[0]:.1f}")
    print("| file | command | build | peak (1 thread) | bound | 1 thread wall, cpu | 2 threads wall, cpu | 2 threads / 1 (wall) | MB per cpu-second |")
    print("|---|---|---|---|---|---|---|---|---|")
    for shape, (folder, name, size) in shapes.items():
        mb = size / 1e6
        bound = 64 + 3 * size / 2**20
        for command in (["check", "-q"], ["fmt", "--check"]):
            cmds = [
                [urldb, "--no-cache", "--threads", threads, *command, name]
                for _, urldb in builds
                for threads in ("1", "2")
            ]
            for cmd in cmds:
                run(cmd, folder)  # warm-up
            results = [[] for _ in cmds]
            for _ in range(RUNS):
                for i, cmd in enumerate(cmds):
                    results[i].append(run(cmd, folder))
            for b, (build, _) in enumerate(builds):
                one = medians(results[2 * b])
                two = medians(results[2 * b + 1])
                print(
                    f"| {shape} ({mb:.1f} MB) | `{' '.join(command)}` | {build} | {one[2]:.1f} MiB"
                    f" (2 threads {two[2]:.1f}) | {bound:.1f} MiB | {one[0]:.3f} s, {one[1]:.3f} s"
                    f" | {two[0]:.3f} s, {two[1]:.3f} s | {two[0] / one[0]:.2f} | {mb / one[1]:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    if "--generate" in args:
        generate()
    else:
        main()
