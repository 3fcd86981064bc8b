#!/usr/bin/env python3
"""Summarises page_sets.cu's output: per footprint and kind of chunk selection, the share of timed
hops that missed the near partition (beyond --near cycles: a far hit or DRAM) and that went to
DRAM (beyond --dram cycles), as the least and greatest over the selections of that kind.
    page_sets_summary.py validate/reference/h200/page_sets_h100.tsv [--near 350 --dram 550]
"""
import argparse
import collections
import csv


def shares(histogram, near, dram, bin_cycles=25):
    counts = {}
    for pair in histogram.strip(",").split(","):
        b, c = pair.split(":")
        counts[int(b) * bin_cycles] = int(c)
    total = sum(counts.values())
    beyond_near = sum(c for lo, c in counts.items() if lo >= near)
    beyond_dram = sum(c for lo, c in counts.items() if lo >= dram)
    return 100.0 * beyond_near / total, 100.0 * beyond_dram / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsv")
    ap.add_argument("--near", type=int, default=350)
    ap.add_argument("--dram", type=int, default=550)
    args = ap.parse_args()
    groups = collections.OrderedDict()
    gpu = ""
    for row in csv.DictReader(open(args.tsv), delimiter="\t"):
        gpu = row["gpu"]
        key = (int(row["mb"]), int(row["chunks"]), row["selection"])
        groups.setdefault(key, []).append(shares(row["histogram"], args.near, args.dram))
    print(f"{gpu}: % of timed hops beyond {args.near} cycles (near miss) / {args.dram} (DRAM), "
          "least-greatest over the selections")
    print("MB\tchunks\tselection\tn\tnear miss %\tDRAM %")
    for (mb, chunks, sel), vals in groups.items():
        near = [v[0] for v in vals]
        dram = [v[1] for v in vals]
        print(f"{mb}\t{chunks}\t{sel}\t{len(vals)}\t{min(near):.2f}-{max(near):.2f}\t"
              f"{min(dram):.3f}-{max(dram):.3f}")


if __name__ == "__main__":
    main()
