#!/usr/bin/env python3
"""The figures of bench/verify_history_bench.sh, from the times it prints.

A run of the benchmark prints its times as three lines, `plain runs:`,
`append runs:` and `rewrite runs:`, each in the order it ran them: a round
is without history, then rewrite in odd rounds (append in even ones),
without, then the other; one more run without history closes the last
round. From those this prints:

- each history run against the mean of the runs without history on
  either side of it ("sandwiched"): the median of those ratios, with a
  95 % bootstrap interval (the ratios resampled, fixed seed), which is
  what tells whether a cost is within a goal;
- beside it, the ratio of the medians of all runs and of their lower
  quartiles.

Given the output of several runs, it pools them: every sandwiched ratio,
every time (docs/dev/performance.md, "`urldb verify --history`").

    python3 bench/verify_history_stats.py OUTPUT...
"""

import random
import statistics as st
import sys

times = {"plain": [], "append": [], "rewrite": []}
ratios = {"append": [], "rewrite": []}
for path in sys.argv[1:]:
    run = {}
    with open(path) as f:
        for line in f:
            name, sep, values = line.partition(" runs: ")
            if sep and name in times:
                run[name] = [float(t) for t in values.split()]
    plain, rounds = run["plain"], len(run["append"])
    if len(plain) != 2 * rounds + 1 or len(run["rewrite"]) != rounds:
        sys.exit(f"{path}: not the times of {rounds} rounds")
    for i in range(1, rounds + 1):
        order = ("rewrite", "append") if i % 2 else ("append", "rewrite")
        # Round i's runs without history are 2i - 2, 2i - 1 and 2i.
        for name, before in zip(order, (2 * i - 2, 2 * i - 1)):
            neighbours = (plain[before] + plain[before + 1]) / 2
            ratios[name].append(run[name][i - 1] / neighbours)
    for name in times:
        times[name] += run[name]

q1 = lambda xs: st.quantiles(xs, n=4)[0] if len(xs) > 1 else xs[0]
pct = lambda r: f"{(r - 1) * 100:+.1f}%"
plain = times["plain"]
print(f"without history: median {st.median(plain):.2f} s, from {min(plain):.2f} to {max(plain):.2f} s")
print(f"{'cost':8} {'sandwiched (95% interval)':>27} {'medians':>9} {'quartile':>9}")
for name in ("append", "rewrite"):
    rng = random.Random(1)
    boot = sorted(st.median(rng.choices(ratios[name], k=len(ratios[name]))) for _ in range(4000))
    low, high = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    sandwiched = f"{pct(st.median(ratios[name]))} ({pct(low)} to {pct(high)})"
    print(f"{name:8} {sandwiched:>27} {pct(st.median(times[name]) / st.median(plain)):>9} "
          f"{pct(q1(times[name]) / q1(plain)):>9}")
