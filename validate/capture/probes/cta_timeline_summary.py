#!/usr/bin/env python3
"""Summarises where the transpose_tile33 kernel's time goes, per warp, on the H200 (the rows
cta_timeline.cu wrote) or in warpsim (its --timeline of the same kernel), in SM cycles:
  load     t1 - t0: entry to the 4 loads in shared memory
  barrier  t2 - t1: BAR.SYNC.DEFER_BLOCKING lets the warp issue the stamp after it before it
           blocks, so on the H200 this is 2 cycles and the wait falls in the next phase; in the
           model t2 is the first issue after the barrier released
  store    t3 - t2: the 4 LDS / STG pairs issued (on the H200 with the barrier wait, and the first
           STG's operand read, whose address register the last stamp reuses)
per SM: its span (first entry to last store), the first wave's load phase, and when its k-th
warp started; and the loads' completion rate over time: the 512 bytes of each warp whose loads
completed in each 500-cycle bin (SM-relative times), in TB/s at 1.97 GHz.
"""
import collections
import csv
import json
import statistics
import sys


def device_warps(path):
    """(sm, cta, t0, t1, t2, t3) per warp."""
    return [(int(r["sm"]), int(r["cta"]), int(r["t0"]), int(r["t1"]), int(r["t2"]), int(r["t3"]))
            for r in csv.DictReader(open(path), delimiter="\t")]


def model_warps(path, ghz):
    """The same from a warpsim timeline: a warp slot's warp starts at pc 0; t1 is its BAR's
    issue, t2 the next issue, t3 its EXIT's. CTAs are told apart by start order per SM."""
    events = json.load(open(path))["traceEvents"]
    per_slot = collections.defaultdict(list)
    for e in events:
        if e.get("cat") == "issue" and e.get("ph") == "X":
            per_slot[(e["pid"], e["tid"])].append((e["ts"], e["args"]["pc"], e["name"]))
    warps = []
    for (sm, _slot), issues in per_slot.items():
        issues.sort()
        cur = None
        for ts, pc, name in issues:
            c = round(ts * 1000 * ghz)
            if pc == 0:
                cur = {"t0": c}
            elif cur is None:
                continue
            elif name.startswith("BAR"):
                cur["t1"] = c
            elif "t1" in cur and "t2" not in cur:
                cur["t2"] = c
            if name == "EXIT" and "t2" in cur:
                warps.append((sm, -1, cur["t0"], cur["t1"], cur["t2"], c))
                cur = None
    return warps


def quantiles(values):
    q = statistics.quantiles(values, n=10)
    return f"{q[0]:7.0f} {statistics.median(values):7.0f} {q[-1]:7.0f}"


def summarise(warps):
    print(f"warps {len(warps)}")
    print("phase      p10  median     p90  (cycles)")
    for name, k in (("load", 3), ("barrier", 4), ("store", 5)):
        print(f"{name:8s} {quantiles([w[k] - w[k - 1] for w in warps])}")
    print(f"{'life':8s} {quantiles([w[5] - w[2] for w in warps])}")
    by_sm = collections.defaultdict(list)
    for w in warps:
        by_sm[w[0]].append(w)
    spans = [max(w[5] for w in ws) - min(w[2] for w in ws) for ws in by_sm.values()]
    print(f"SMs {len(by_sm)}, span per SM: min {min(spans)}, median {statistics.median(spans):.0f},"
          f" max {max(spans)}")
    first = [w for ws in by_sm.values() for w in ws if w[2] - min(x[2] for x in ws) < 200]
    print(f"first wave (warps entering within 200 cycles of their SM's first): {len(first)},"
          f" load {quantiles([w[3] - w[2] for w in first])}")
    done = sorted(w[3] - min(x[2] for x in by_sm[w[0]]) for w in warps)
    bins = collections.Counter(d // 500 for d in done)
    print("loads completed, TB/s per 500-cycle bin:")
    print("  " + " ".join(f"{500 * b}:{bins[b] * 512 / 500 * 1.97e9 / 1e12:.2f}"
                          for b in range(0, max(bins) + 1)))
    # Warp starts per SM, relative to its first: with 8 CTAs of 8 warps resident, warp 64k is
    # about the first of wave k + 1.
    starts = [sorted(w[2] - min(x[2] for x in ws) for w in ws) for ws in by_sm.values()]
    depth = max(len(v) for v in starts)
    print("k-th warp start on its SM (median over SMs):")
    print("  " + " ".join(f"{k}:{statistics.median([v[k] for v in starts if len(v) > k]):.0f}"
                          for k in range(0, depth, 32)))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "device":
        summarise(device_warps(sys.argv[2]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "model":
        summarise(model_warps(sys.argv[2], float(sys.argv[3])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
