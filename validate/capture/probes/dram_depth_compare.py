#!/usr/bin/env python3
"""Simulates the HBM read-depth probe (dram_depth_trace.py) and prints, per launch (sectors,
loads in flight per warp, CTAs), gpc__cycles_elapsed.max on the GPU (the median of the runs in
the given TSV, written by dram_depth.sh) and simulated, with the DRAM read bandwidth of each.
    dram_depth_compare.py WARPSIM TSV [--arch ARCH] [--set PATH=VALUE ...]
"""
import csv
import os
import statistics
import sys

import probe_trace

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    warpsim, tsv, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    runs = {}
    for r in csv.DictReader(open(tsv), delimiter="\t"):
        key = (int(r["sectors"]), int(r["loads"]), int(r["ctas"]))
        runs.setdefault(key, []).append((float(r["gpc__cycles_elapsed.max"]),
                                         float(r["gpc__cycles_elapsed.avg.per_second"]),
                                         float(r["dram__bytes_read.sum"])))
    print("sectors\tloads\tctas\tGPU cycles\tsimulated\terror\tGPU GB/s\tsimulated GB/s")
    errors = []
    for key, values in runs.items():
        m = probe_trace.simulate(warpsim, os.path.join(HERE, "dram_depth_trace.py"),
                                 "%d_%d_%d" % key, extra)
        row, error = probe_trace.dram_read_row(values, m)
        errors.append(abs(error))
        print(f"{key[0]}\t{key[1]}\t{key[2]}\t{row}", flush=True)
    print(f"mean absolute error {100 * statistics.mean(errors):.1f}%")


if __name__ == "__main__":
    main()
