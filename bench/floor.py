#!/usr/bin/env python3
"""urldb against the machine's floor, every row in one run.

usage: python3 bench/floor.py [--runs N] [--lsp] [--baseline URLDB]

Builds urldb and the generator in release mode, generates the databases
under target/bench/floor/ (deterministic: the same bytes every time), then
times each row's urldb command and its floor in turn (A B A B ...), N runs
each (default 5) after one warm-up, as whole processes: wall time, cpu time
(user + sys) and peak memory of that process (`wait4`). The floor reads the
same bytes and does the least work on them: `grep -c '^---'` (one pass that
finds every document) and `cat` to /dev/null. Prints medians and the ratios
of the medians; docs/dev/performance.md gives the goals and the figures.

--baseline URLDB times another build of urldb beside this one on every
row (the same command, A B A B ...): a release build of an earlier commit,
for example `git worktree add ../base REV && cargo build --release` there.

--lsp adds the language server's rows (bench/lsp_latency.py): one edit's
diagnostics on a 10,000-record file and on a 50 MB one.
"""

import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "bench", "floor")
URLDB = os.path.join(ROOT, "target", "release", "urldb")
GEN = os.path.join(ROOT, "target", "release", "examples", "gen_db")

args = sys.argv[1:]
RUNS = int(args[args.index("--runs") + 1]) if "--runs" in args else 5
LSP = "--lsp" in args
BASELINE = args[args.index("--baseline") + 1] if "--baseline" in args else None


def run(cmd, cwd, codes=(0, 1)):
    """One run of `cmd`: (wall s, cpu s, peak MiB). An exit code outside
    `codes` (urldb: 0 clean, 1 findings) stops the bench: a run that failed
    must not be timed as if it had worked."""
    start = time.perf_counter()
    child = subprocess.Popen(
        cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in codes:
        sys.exit(f"{' '.join(cmd[:4])} ... exited with {code} in {cwd}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def generate(name, *gen_args, then=None):
    out = os.path.join(WORK, name)
    if not os.path.isdir(out):
        subprocess.run([GEN, out, *gen_args], check=True, stdout=subprocess.DEVNULL)
        if then:
            # In a process of its own: a child's peak memory (wait4) starts
            # from this process's own at the fork, so this one stays small.
            subprocess.run([sys.executable, __file__, "--transform", then.__name__, out], check=True)
    return out


def files(directory):
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".yaml"))


def with_comment(directory):
    """One comment line after the metadata: the file takes the general parser."""
    (path,) = files(directory)
    with open(path) as f:
        text = f.read()
    head, sep, rest = text.partition("\n---\n")
    with open(path, "w") as f:
        f.write(head + "\n# a comment\n---\n" + rest)


def with_header(directory):
    """Comment lines above the first `---`, as a team keeps a header: the
    metadata's lead-in, read with it; the records stay on the fast path."""
    (path,) = files(directory)
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write("# The URLs of this domain that must keep working.\n# Kept by urldb.\n" + text)


def longer(directory):
    """Each record made longer by a last key of 150 characters (the
    document limit is 200,000, so a 50 MB file needs longer records)."""
    (path,) = files(directory)
    with open(path) as f:
        text = f.read()
    meta, sep, records = text.partition("\n---\n")
    note = "z-note: " + ("long text " * 15).strip() + "\n"
    records = records.replace("\n---\n", "\n" + note.rstrip("\n") + "\n---\n")
    with open(path, "w") as f:
        f.write(meta + sep + records + note)


def size(directory):
    return sum(os.path.getsize(p) for p in files(directory))


def row(name, directory, command, floors, goal):
    grep = ["grep", "-c", "^---", *files(directory)]
    cat = ["sh", "-c", "cat *.yaml > /dev/null"]
    floor = {"grep": grep, "cat": cat}
    if BASELINE:
        floors = ["baseline", *floors]
        floor["baseline"] = [BASELINE if c == URLDB else c for c in command]
    cmds = [command] + [floor[f] for f in floors]
    for cmd in cmds:
        run(cmd, directory)  # warm-up: page cache, binaries
    results = [[] for _ in cmds]
    for _ in range(RUNS):
        for i, cmd in enumerate(cmds):
            results[i].append(run(cmd, directory))
    med = [[statistics.median(r[k] for r in res) for k in range(3)] for res in results]
    mb = size(directory) / 1e6
    (wall, cpu, peak) = med[0]
    line = f"| {name} ({mb:.1f} MB) | {wall:.3f} s | {cpu:.3f} s | {peak:.1f} MiB |"
    for f, (fw, fc, fp) in zip(floors, med[1:]):
        if f == "baseline":
            # Two builds of urldb: the ratio to a few per cent, and the peak.
            line += f" `{f}` {fw:.3f} s wall, {fc:.3f} s cpu, {fp:.1f} MiB: **{wall / fw:.2f}×** wall, **{cpu / max(fc, 1e-3):.2f}×** cpu;"
            continue
        line += f" `{f}` {fw:.3f} s wall, {fc:.3f} s cpu: **{wall / fw:.1f}×** wall, **{cpu / max(fc, 1e-3):.1f}×** cpu;"
    line += f" {mb / cpu:.1f} MB/s per cpu-second | {goal} |"
    print(line, flush=True)


def main():
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "gen_db"], cwd=ROOT, check=True)
    os.makedirs(WORK, exist_ok=True)
    million = generate("million", "--records", "1000000", "--files", "10000", "--seed", "1")
    single = generate("single", "--records", "199000", "--files", "1", "--seed", "1")
    commented = generate("commented", "--records", "199000", "--files", "1", "--seed", "1", then=with_comment)
    headed = generate("headed", "--records", "199000", "--files", "1", "--seed", "1", then=with_header)
    dirty = generate("dirty", "--records", "100000", "--files", "1000", "--seed", "1", "--dirty", "100")
    fifty = generate("fifty", "--records", "190000", "--files", "1", "--seed", "2", then=longer)
    print(f"{RUNS} runs each after a warm-up, medians; {os.cpu_count()} cores; load {os.getloadavg()[0]:.1f}")
    print()
    print("| work | urldb wall | cpu | peak | against the floor | throughput | goal |")
    print("|---|---|---|---|---|---|---|")
    check = [URLDB, "--no-cache", "check", "-q"]
    row("1,000,000 records, 10,000 files, `check`", million, check, ["grep", "cat"], "≤ 2.5× grep wall, ≤ 5× cpu")
    row("same, `fmt --check`", million, [URLDB, "--no-cache", "fmt", "--check", "-q"], ["grep"], "≤ 2.5× grep wall, ≤ 5× cpu")
    row("one file of 199,000 records, `check`", single, check, ["grep"], "≤ 0.4 s wall, peak ≤ 64 MiB + 3 × size")
    row("the same with one comment (general parser)", commented, check, ["grep"], "peak ≤ 64 MiB + 3 × size")
    row("the same with a comment header on top", headed, check, ["grep"], "peak ≤ 64 MiB + 3 × size")
    row("1,000 non-canonical files (general parser), 1 thread", dirty, [URLDB, "--threads", "1", "--no-cache", "check", "-q"], ["grep"], "≥ 40 MB/s per core")
    row("one file of 190,000 longer records, `check`", fifty, check, ["grep"], "peak ≤ 64 MiB + 3 × size")
    if LSP:
        lsp = os.path.join(ROOT, "bench", "lsp_latency.py")
        for records, edits, note in [("10000", "50", "0"), ("190000", "6", "230")]:
            print(f"\nlanguage server, {records} records:", flush=True)
            subprocess.run([sys.executable, lsp, URLDB, "--records", records, "--edits", edits, "--open", "0", "--note", note], check=True)


if __name__ == "__main__":
    if "--transform" in args:
        i = args.index("--transform")
        {"with_comment": with_comment, "with_header": with_header, "longer": longer}[args[i + 1]](args[i + 2])
    else:
        main()
