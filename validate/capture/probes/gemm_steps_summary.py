#!/usr/bin/env python3
"""Summarises gemm_steps.tsv(.gz): per launch state (cold, warm) the mean step of K (µs), and at
steps 1, 2, 4, 8, 16, 32, 64 and 127 how far apart the CTAs that share lines start that step:
over the CTAs of one column of B (one cta_x) and of one row of A (one cta_y), the spread (latest
less earliest start, warp 0 of each CTA), median over the columns or rows, in ns; and the spread
over all CTAs. A DRAM round trip is about 470 ns: CTAs further apart than that find the lines a
leader fetched already in the L2.
    gemm_steps_summary.py FILE"""
import collections
import csv
import gzip
import statistics
import sys

STEPS = (1, 2, 4, 8, 16, 32, 64, 127)


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    start = collections.defaultdict(dict)  # (state, step) -> {cta: ns}
    where = {}
    with opener(path, "rt") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["warp"] != "0":
                continue
            cta = int(r["cta"])
            where[cta] = (int(r["cta_x"]), int(r["cta_y"]))
            start[(r["state"], int(r["step"]))][cta] = int(r["ns"])
    for state in ("cold", "warm"):
        if (state, 0) not in start:
            continue
        first, last = start[(state, 0)], start[(state, 127)]
        mean_step = statistics.mean((last[c] - first[c]) / 127 for c in first)
        print(f"{state}: mean step {mean_step / 1000:.3f} us")
        print(f"  {'step':>4} {'column spread':>13} {'row spread':>10} {'all':>6}")
        for step in STEPS:
            t = start[(state, step)]
            cols, rows = collections.defaultdict(list), collections.defaultdict(list)
            for cta, ns in t.items():
                x, y = where[cta]
                cols[x].append(ns)
                rows[y].append(ns)
            col = statistics.median(max(v) - min(v) for v in cols.values())
            row = statistics.median(max(v) - min(v) for v in rows.values())
            print(f"  {step:>4} {col:>13.0f} {row:>10.0f} {max(t.values()) - min(t.values()):>6}")


if __name__ == "__main__":
    main(sys.argv[1])
