#!/usr/bin/env python3
"""The H200 preset's hbm.background_* lists from idle-kernel profiles.

Reads idle_traffic.sh's TSVs (one row per launch: cycles, repeat, DRAM bytes read and written,
elapsed SM cycles and the SM clock) and prints, per spin length, the median seconds, bytes read and
bytes written over its repeats, then the three lists as the preset's text format:
  idle_traffic_fit.py validate/reference/h200/idle_traffic.tsv [more.tsv ...]
Rows of several files with the same spin length are pooled.
"""
import csv
import statistics
import sys
from collections import defaultdict


def main(paths):
    runs = defaultdict(list)
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                seconds = float(row["gpc__cycles_elapsed.max"]) / float(
                    row["gpc__cycles_elapsed.avg.per_second"])
                runs[int(row["cycles"])].append(
                    (seconds, float(row["dram__bytes_read.sum"]), float(row["dram__bytes_write.sum"])))
    points = []
    print("cycles\trepeats\tseconds\tread_bytes\twrite_bytes")
    for cycles in sorted(runs):
        rs = runs[cycles]
        med = [statistics.median(r[i] for r in rs) for i in range(3)]
        points.append(med)
        print(f"{cycles}\t{len(rs)}\t{med[0]:.6g}\t{med[1]:.0f}\t{med[2]:.0f}")
    print("background_seconds: [" + ", ".join(f"{p[0]:.6g}" for p in points) + "]")
    print("background_read_bytes: [" + ", ".join(f"{p[1]:.0f}" for p in points) + "]")
    print("background_write_bytes: [" + ", ".join(f"{p[2]:.0f}" for p in points) + "]")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
