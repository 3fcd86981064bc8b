#!/usr/bin/env python3
"""Summarises gemm_steps.tsv(.gz), or the model's timeline of the same grid: per launch state
(cold, warm; the model's run is cold) the mean step of K, and at chosen steps how far apart the
CTAs that share lines reach that step: over the CTAs of one column of B (one cta_x) and of one
row of A (one cta_y), the spread (latest less earliest, warp 0 of each CTA), median over the
columns or rows, in ns; and the spread over all CTAs. A DRAM round trip is about 470 ns: CTAs
further apart than that find the lines a leader fetched already in the L2.
    gemm_steps_summary.py gpu gemm_steps.tsv.gz
    warpsim run --workload gemm_mma_bf16 --param m=1056 --param n=384 --param k=2048 \\
        --arch h100_sxm --timeline T.json --timeline-events 8000000
    gemm_steps_summary.py model T.json
The GPU's stamps are taken at the top of each step; the model's marks are the issue of the step's
first HMMA (the twin's loop runs two steps, HMMAs at 0x7e0 and 0x9e0), so only the spreads compare.
The timeline keeps each SM's first events only: about the first 30 steps."""
import collections
import csv
import gzip
import json
import statistics
import sys

STEPS = (1, 2, 4, 8, 16, 24, 30, 32, 64, 127)
HMMA_PCS = {0x7E0: 0, 0x9E0: 1}


def gpu(path):
    """{state: {step: {(x, y): ns}}} from the probe's rows (warp 0 of each CTA)."""
    out = collections.defaultdict(lambda: collections.defaultdict(dict))
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["warp"] == "0":
                out[r["state"]][int(r["step"])][(int(r["cta_x"]), int(r["cta_y"]))] = int(r["ns"])
    return out


def model(path):
    """The same from a warpsim timeline: CTA slots from the launch events, steps from the HMMAs."""
    cta_of, marks = {}, collections.defaultdict(lambda: collections.defaultdict(list))
    with open(path) as f:
        f.readline()
        for line in f:
            if '"cat":"cta"' in line and " launch" in line:
                e = json.loads(line.rstrip().rstrip(","))
                x, y = e["name"].split("(")[1].split(")")[0].split(",")[:2]
                cta_of[(e["pid"], e["args"]["slot"])] = (int(x), int(y))
            elif '"HMMA' in line and '"cat":"issue"' in line:
                e = json.loads(line.rstrip().rstrip(","))
                if e["args"]["pc"] in HMMA_PCS:
                    marks[(e["pid"], e["tid"])][e["args"]["pc"]].append(e["ts"] * 1000.0)
    out = collections.defaultdict(dict)
    for (pid, tid), by_pc in marks.items():
        warp_slot = tid - 1  # timeline thread ids are warp slots + 1
        if warp_slot % 4 or (pid, warp_slot // 4) not in cta_of:
            continue
        for pc, half in HMMA_PCS.items():
            for i, ns in enumerate(by_pc[pc]):
                out[2 * i + half][cta_of[(pid, warp_slot // 4)]] = ns
    return {"cold": out}


def report(states):
    for state, steps in states.items():
        full = [s for s in steps if len(steps[s]) == len(steps[0])] if 0 in steps else []
        last = max(full) if full else None
        if last:
            mean = statistics.mean(steps[last][c] - steps[0][c] for c in steps[0]) / last
            print(f"{state}: mean step {mean / 1000:.3f} us over steps 0-{last}")
        print(f"  {'step':>4} {'column spread':>13} {'row spread':>10} {'all':>6}")
        for step in STEPS:
            t = steps.get(step, {})
            if not t or (0 in steps and len(t) < len(steps[0])):
                continue
            cols, rows = collections.defaultdict(list), collections.defaultdict(list)
            for (x, y), ns in t.items():
                cols[x].append(ns)
                rows[y].append(ns)
            col = statistics.median(max(v) - min(v) for v in cols.values())
            row = statistics.median(max(v) - min(v) for v in rows.values())
            print(f"  {step:>4} {col:>13.0f} {row:>10.0f} {max(t.values()) - min(t.values()):>6.0f}")


if __name__ == "__main__":
    report(gpu(sys.argv[2]) if sys.argv[1] == "gpu" else model(sys.argv[2]))
