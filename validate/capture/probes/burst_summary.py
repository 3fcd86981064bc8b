#!/usr/bin/env python3
"""Summarises the burst probe's rows (burst.cu): per file, the warps that ran and, for each
phase, the p10 / median / p90 of its cycles and when the SM's first warp finished it, counted
from the SM's first entry (median over SMs).
  burst_summary.py OUT_DIR/burst_*.tsv[.gz]"""
import csv
import gzip
import statistics
import sys


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summarise(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = [{k: int(v) for k, v in r.items()} for r in csv.DictReader(f, delimiter="\t")]
    if not rows:
        return f"{path}: no warps"
    by_sm = {}
    for r in rows:
        by_sm.setdefault(r["sm"], []).append(r)
    out = [f"{path}: {len(rows)} warps on {len(by_sm)} SMs"]
    for name, lo, hi in (("phase1", "t0", "t1"), ("phase2", "t1", "t2")):
        spans = [r[hi] - r[lo] for r in rows]
        first = [min(r[hi] for r in rs) - min(r["t0"] for r in rs) for rs in by_sm.values()]
        last = [max(r[hi] for r in rs) - min(r["t0"] for r in rs) for rs in by_sm.values()]
        out.append(f"  {name}: p10 {pct(spans, 0.1)} median {pct(spans, 0.5)} p90 {pct(spans, 0.9)}"
                   f"; SM's first done at {statistics.median(first):.0f}, last at "
                   f"{statistics.median(last):.0f}")
    return "\n".join(out)


for p in sys.argv[1:]:
    print(summarise(p))
