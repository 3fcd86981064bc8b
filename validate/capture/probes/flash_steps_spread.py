#!/usr/bin/env python3
"""Spread of one head's CTAs at each block of keys in flash_steps.tsv (flash_steps.sh's output):
for each (heads, run, head, block), the latest CTA's block start less the earliest's, in ns.
Prints, per heads and run, the median and largest spread over heads and blocks, and the spread at
the second and the last block (median over heads).

  validate/capture/probes/flash_steps_spread.py validate/reference/h200/flash_steps.tsv
"""
import collections
import csv
import statistics
import sys


def main(path):
    starts = collections.defaultdict(list)
    for row in csv.DictReader(open(path), delimiter="\t"):
        key = (int(row["heads"]), int(row["run"]), int(row["head"]), int(row["block"]))
        starts[key].append(int(row["ns"]))
    spreads = collections.defaultdict(list)
    by_block = collections.defaultdict(lambda: collections.defaultdict(list))
    for (heads, run, head, block), ns in starts.items():
        spread = max(ns) - min(ns)
        spreads[(heads, run)].append(spread)
        by_block[(heads, run)][block].append(spread)
    print("heads\trun\tmedian_ns\tmax_ns\tblock1_ns\tlast_block_ns")
    for (heads, run), values in sorted(spreads.items()):
        blocks = by_block[(heads, run)]
        last = max(blocks)
        print(f"{heads}\t{run}\t{statistics.median(values):.0f}\t{max(values)}\t"
              f"{statistics.median(blocks[1]):.0f}\t{statistics.median(blocks[last]):.0f}")


if __name__ == "__main__":
    main(sys.argv[1])
