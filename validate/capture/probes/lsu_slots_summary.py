#!/usr/bin/env python3
"""Summarises lsu_slots.tsv (lsu_slots.cu): per kernel, lines per load and warps, how many loads a
warp queued before it was first held back (the first step, which holds the stamp's own start, aside), and the cycles a load cost before and after:
    lsu_slots_summary.py validate/reference/h200/lsu_slots.tsv

A warp's stamps rise by a few cycles per load while the queue takes its loads; once it is full, by
the tag-stage time of the loads ahead of it. "queued" is the first access whose step is over
`--jump` cycles (default 12), taken per warp, median over the warps; "before" is the median step
before it, "after" the median step over the last 16 loads, "last" the stamp after the last load.
Only the first `--accesses` stamps (default 32) follow loads: ptxas merged the probe's loads i and
i + 32, which read the same words, so its last 32 stamps follow no load."""
import argparse
import collections
import csv
import statistics


def steps(stamps):
    return [b - a for a, b in zip([0] + stamps[:-1], stamps)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tsv")
    parser.add_argument("--jump", type=int, default=12)
    parser.add_argument("--accesses", type=int, default=32)
    args = parser.parse_args()
    runs = collections.defaultdict(lambda: collections.defaultdict(dict))
    with open(args.tsv) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = (row["kernel"], int(row["lines"]), int(row["warps"]))
            runs[key][int(row["warp"])][int(row["access"])] = int(row["cycles"])
    print("kernel\tlines\twarps\tqueued\tbefore\tafter\tlast")
    for (kernel, lines, warps), by_warp in sorted(runs.items()):
        queued, before, after, last = [], [], [], []
        for accesses in by_warp.values():
            stamps = [accesses[i] for i in sorted(accesses)][:args.accesses]
            d = steps(stamps)
            # The first step also holds the stamp's own start; the queue shows from the second.
            first = next((i for i in range(1, len(d)) if d[i] > args.jump), len(d))
            queued.append(first)
            before.append(statistics.median(d[1:first]) if first > 1 else 0)
            after.append(statistics.median(d[-16:]))
            last.append(stamps[-1])
        print(f"{kernel}\t{lines}\t{warps}\t{statistics.median(queued):g}\t"
              f"{statistics.median(before):g}\t{statistics.median(after):g}\t"
              f"{statistics.median(last):g}")


if __name__ == "__main__":
    main()
