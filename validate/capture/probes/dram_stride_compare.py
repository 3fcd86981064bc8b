#!/usr/bin/env python3
"""Simulates the strided HBM read probe (dram_stride_trace.py) and prints, per launch (stride in
floats, CTAs), gpc__cycles_elapsed.max on the H200 (the median of the runs in
validate/reference/h200/dram_stride.tsv) and simulated, with the DRAM read bandwidth of each.
    dram_stride_compare.py WARPSIM [--set PATH=VALUE ...]
"""
import csv
import os
import statistics
import sys

import probe_trace

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "..", "reference", "h200", "dram_stride.tsv")


def main():
    warpsim, extra = sys.argv[1], sys.argv[2:]
    runs = {}
    for r in csv.DictReader(open(REF), delimiter="\t"):
        key = (int(r["stride"]), int(r["ctas"]))
        runs.setdefault(key, []).append((float(r["gpc__cycles_elapsed.max"]),
                                         float(r["gpc__cycles_elapsed.avg.per_second"]),
                                         float(r["dram__bytes_read.sum"])))
    print("stride\tctas\tH200 cycles\tsimulated\terror\tH200 GB/s\tsimulated GB/s")
    errors = []
    for key, values in runs.items():
        m = probe_trace.simulate(warpsim, os.path.join(HERE, "dram_stride_trace.py"), "%d_%d" % key,
                                 extra)
        row, error = probe_trace.dram_read_row(values, m)
        errors.append(abs(error))
        print(f"{key[0]}\t{key[1]}\t{row}")
    print(f"mean absolute error {100 * statistics.mean(errors):.1f}%")


if __name__ == "__main__":
    main()
