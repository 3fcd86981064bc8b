#!/usr/bin/env python3
"""Fits the L1's miss entries per SM (l1.mshrs) to the two HBM read probes whose warps keep more
lines in flight than any SM's entries hold: dram_stride.cu (1056 x 256 threads, one load in flight
a warp, a line or a 64-byte fetch per lane) and dram_rowmates.cu (the same grid, two loads in
flight a warp, one 64-byte fetch per lane each). Each value in VALUES is simulated on every launch
of both probes (validate/reference/h200/dram_stride.tsv, dram_rowmates.tsv; medians of their
runs) and scored by the mean absolute error in cycles of each probe and of all launches together:
    l1_mshrs_fit.py WARPSIM [--jobs N] [--set PATH=VALUE ...] VALUE [VALUE ...]
"""
import concurrent.futures
import csv
import os
import statistics
import sys

import probe_trace

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "..", "..", "reference", "h200")


def measured(tsv, key_fields):
    runs = {}
    for r in csv.DictReader(open(os.path.join(REFERENCE, tsv)), delimiter="\t"):
        key = "_".join(r[f] for f in key_fields)
        runs.setdefault(key, []).append(float(r["gpc__cycles_elapsed.max"]))
    return {k: statistics.median(v) for k, v in runs.items()}


def simulate(warpsim, script, launch, extra):
    return probe_trace.simulate(warpsim, os.path.join(HERE, script), launch,
                                extra)["gpc__cycles_elapsed.max"]


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    warpsim, args = args[0], args[1:]
    jobs, extra, values = os.cpu_count() or 1, [], []
    while args:
        a = args.pop(0)
        if a == "--jobs":
            jobs = int(args.pop(0))
        elif a == "--set":
            extra += ["--set", args.pop(0)]
        else:
            values.append(int(a))
    probes = {"dram_stride": ("dram_stride_trace.py", measured("dram_stride.tsv", ["stride", "ctas"])),
              "dram_rowmates": ("dram_rowmates_trace.py", measured("dram_rowmates.tsv", ["distance"]))}
    tasks = {}
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        for v in values:
            for probe, (script, launches) in probes.items():
                for launch in launches:
                    tasks[(v, probe, launch)] = pool.submit(
                        simulate, warpsim, script, launch, extra + ["--set", f"l1.mshrs={v}"])
        errors = {}
        print("mshrs\tprobe\tlaunch\tH200 cycles\tsimulated\terror")
        for (v, probe, launch), f in tasks.items():
            h200 = probes[probe][1][launch]
            errors[(v, probe, launch)] = (f.result() - h200) / h200 * 100
            print(f"{v}\t{probe}\t{launch}\t{h200:.0f}\t{f.result():.0f}\t"
                  f"{errors[(v, probe, launch)]:+.1f}%")
    print("\nmshrs\t" + "\t".join(probes) + "\tall (mean absolute error)")
    for v in values:
        per = {p: [abs(errors[(v, p, l)]) for l in probes[p][1]] for p in probes}
        both = [e for p in probes for e in per[p]]
        print(f"{v}\t" + "\t".join(f"{statistics.mean(per[p]):.2f}%" for p in probes) +
              f"\t{statistics.mean(both):.2f}%")


if __name__ == "__main__":
    main()
