#!/usr/bin/env python3
"""Simulates the HBM read-depth probe (dram_depth_trace.py) and prints, per launch (sectors,
loads in flight per warp, CTAs), gpc__cycles_elapsed.max on the GPU (the median of the runs in
the given TSV, written by dram_depth.sh) and simulated, with the DRAM read bandwidth of each.
    dram_depth_compare.py WARPSIM TSV [--arch ARCH] [--set PATH=VALUE ...]
"""
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    warpsim, tsv, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    if "--arch" not in extra:
        extra = ["--arch", "h200"] + extra
    runs = {}
    for r in csv.DictReader(open(tsv), delimiter="\t"):
        key = (int(r["sectors"]), int(r["loads"]), int(r["ctas"]))
        runs.setdefault(key, []).append((float(r["gpc__cycles_elapsed.max"]),
                                         float(r["gpc__cycles_elapsed.avg.per_second"]),
                                         float(r["dram__bytes_read.sum"])))
    print("sectors\tloads\tctas\tGPU cycles\tsimulated\terror\tGPU GB/s\tsimulated GB/s")
    errors = []
    for key, values in runs.items():
        name = "%d_%d_%d" % key
        with tempfile.TemporaryDirectory() as t:
            subprocess.run([sys.executable, os.path.join(HERE, "dram_depth_trace.py"), t, name],
                           check=True)
            with tempfile.NamedTemporaryFile(suffix=".json") as out:
                subprocess.run([warpsim, "run", "--trace", os.path.join(t, name, "kernelslist.g"),
                                "--json", out.name, "--quiet"] + extra,
                               check=True, stdout=subprocess.DEVNULL)
                m = json.load(open(out.name))["kernels"][0]["metrics"]
        cycles = statistics.median(v[0] for v in values)
        hz = statistics.median(v[1] for v in values)
        measured_gbs = statistics.median(v[2] for v in values) / (cycles / hz) / 1e9
        sim = m["gpc__cycles_elapsed.max"]
        sim_gbs = m["dram__bytes_read.sum"] / m["gpu__time_duration.sum"]  # bytes per ns
        errors.append(abs(sim / cycles - 1))
        print(f"{key[0]}\t{key[1]}\t{key[2]}\t{cycles:.0f}\t{sim:.0f}\t"
              f"{100 * (sim / cycles - 1):+.1f}%\t{measured_gbs:.0f}\t{sim_gbs:.0f}", flush=True)
    print(f"mean absolute error {100 * statistics.mean(errors):.1f}%")


if __name__ == "__main__":
    main()
