#!/usr/bin/env python3
"""Simulates the store-drain probe (store_drain_trace.py) and prints, per launch (kind, n, CTAs,
threads), the cycles a warp waits in `drain` after its EXIT on the GPU (the median over the runs
in the given TSVs, written by store_drain.sh) and simulated, with the elapsed cycles of each.
    store_drain_compare.py WARPSIM TSV [TSV ...] [--arch ARCH] [--set PATH=VALUE ...]
"""
import csv
import os
import statistics
import sys

import probe_trace

HERE = os.path.dirname(os.path.abspath(__file__))
DRAIN = "smsp__average_warps_issue_stalled_drain_per_issue_active.ratio"


def drain_per_warp(m, warps):
    return float(m[DRAIN]) * float(m["smsp__inst_executed.sum"]) / warps


def main():
    warpsim = sys.argv[1]
    tsvs = [a for a in sys.argv[2:] if a.endswith(".tsv")]
    extra = [a for a in sys.argv[2:] if not a.endswith(".tsv")]
    runs = {}
    for tsv in tsvs:
        for r in csv.DictReader(open(tsv), delimiter="\t"):
            key = (r["kind"], int(r["n"]), int(r["ctas"]), int(r["threads"]))
            warps = float(r["smsp__warps_launched.sum"])
            runs.setdefault(key, []).append((drain_per_warp(r, warps),
                                             float(r["gpc__cycles_elapsed.max"])))
    print("kind\tn\tctas\tthreads\tGPU drain a warp\tsimulated\tGPU cycles\tsimulated")
    errors = []
    for key, values in runs.items():
        m = probe_trace.simulate(warpsim, os.path.join(HERE, "store_drain_trace.py"),
                                 "%s_%d_%d_%d" % key, extra)
        warps = key[2] * (key[3] // 32)
        gpu_drain = statistics.median(v[0] for v in values)
        gpu_cycles = statistics.median(v[1] for v in values)
        sim_drain = drain_per_warp(m, warps)
        errors.append(abs(sim_drain - gpu_drain))
        print(f"{key[0]}\t{key[1]}\t{key[2]}\t{key[3]}\t{gpu_drain:.1f}\t{sim_drain:.1f}\t"
              f"{gpu_cycles:.0f}\t{float(m['gpc__cycles_elapsed.max']):.0f}", flush=True)
    print(f"mean absolute difference {statistics.mean(errors):.1f} cycles a warp")


if __name__ == "__main__":
    main()
