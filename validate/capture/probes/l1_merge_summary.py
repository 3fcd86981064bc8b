#!/usr/bin/env python3
"""Summarises l1_merge.tsv (the GPU's, or l1_merge_trace.py's model side): for each number of
shared-line loads per warp (P) and warps (W), over rounds 1-7 (round 0 pays for the code and
constants), the cycles until a warp's own line arrived (median over the warps, and the largest)
and until the shared line arrived (largest), and the share of warps whose own line took more than
1.5 times the one-warp median: warps held up behind a stalled tag stage.
    l1_merge_summary.py FILE [FILE ...]"""
import collections
import csv
import statistics
import sys


def summarise(path):
    rows = collections.defaultdict(list)
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if int(r["round"]) == 0:
                continue
            rows[(int(r["shared_loads"]), int(r["warps"]))].append((int(r["own"]), int(r["shared"])))
    print(f"== {path}")
    print(f"{'P':>2} {'W':>3} {'waiters':>7} {'own med':>8} {'own max':>8} {'shared max':>10} {'late':>6}")
    for p in sorted({k[0] for k in rows}):
        alone = statistics.median(o for o, _ in rows[(p, 1)]) if (p, 1) in rows else None
        for w in sorted(k[1] for k in rows if k[0] == p):
            v = rows[(p, w)]
            own = [o for o, _ in v]
            late = sum(o > 1.5 * alone for o in own) / len(own) if alone else float("nan")
            print(f"{p:>2} {w:>3} {p * w:>7} {statistics.median(own):>8.0f} {max(own):>8} "
                  f"{max(s for _, s in v):>10} {late:>6.2f}")


for path in sys.argv[1:]:
    summarise(path)
