#!/usr/bin/env python3
"""Pool the outputs of several runs of bench/verify_history_bench.sh.

Each run prints its times in the order it ran them (a round is: without
history, then append or rewrite, without, then the other; rewrite comes
first in odd rounds, and one more run without history closes the last
round). This reads those lists back, divides every history run by the
mean of the runs without history on either side of it, and prints the
median of all those ratios with the same 95 % bootstrap interval the
script prints for one run (docs/performance.md, "`urldb verify
--history`").

    python3 bench/verify_history_pool.py OUTPUT...
"""

import random
import statistics as st
import sys

pooled = {"append": [], "rewrite": []}
for path in sys.argv[1:]:
    times = {}
    with open(path) as f:
        for line in f:
            if " runs: " in line:
                name, values = line.split(" runs: ")
                times[name] = [float(t) for t in values.split()]
    plain = times["plain"]
    rounds = len(times["append"])
    if len(plain) != 2 * rounds + 1:
        sys.exit(f"{path}: {len(plain)} runs without history for {rounds} rounds")
    for i in range(1, rounds + 1):
        order = ("rewrite", "append") if i % 2 else ("append", "rewrite")
        for name, before in zip(order, (2 * i - 2, 2 * i - 1)):
            neighbours = (plain[before] + plain[before + 1]) / 2
            pooled[name].append(times[name][i - 1] / neighbours)

pct = lambda r: f"{(r - 1) * 100:+.1f}%"
for name, ratios in pooled.items():
    rng = random.Random(1)
    boot = sorted(st.median(rng.choices(ratios, k=len(ratios))) for _ in range(4000))
    low, high = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    print(f"{name:8} {len(ratios)} runs, sandwiched {pct(st.median(ratios))} ({pct(low)} to {pct(high)})")
