#!/usr/bin/env python3
"""Simulates the load-width probe (coalesced_latency_trace.py) and prints, per shape (threads,
lanes), cycles per iteration on the H200 (validate/reference/h200/coalesced_latency.tsv) and
simulated: the difference of gpc__cycles_elapsed.max between 1024 and 512 iterations / 512.
    coalesced_latency_compare.py WARPSIM [--set PATH=VALUE ...]
"""
import csv
import os
import sys

import probe_trace

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "..", "reference", "h200", "coalesced_latency.tsv")


def main():
    warpsim, extra = sys.argv[1], sys.argv[2:]
    measured = {(int(r["threads"]), int(r["lanes"]), int(r["iters"])): float(r["gpc__cycles_elapsed.max"])
                for r in csv.DictReader(open(REF), delimiter="\t")}
    sim = {}
    for key in measured:
        sim[key] = probe_trace.simulate(warpsim, os.path.join(HERE, "coalesced_latency_trace.py"),
                                        "%d_%d_%d" % key, extra)["gpc__cycles_elapsed.max"]
    print("threads\tlanes\tH200 cycles/iter\tsimulated\tdifference")
    for threads in (32, 256):
        for lanes in (1, 8, 16, 32):
            m = (measured[(threads, lanes, 1024)] - measured[(threads, lanes, 512)]) / 512
            s = (sim[(threads, lanes, 1024)] - sim[(threads, lanes, 512)]) / 512
            print(f"{threads}\t{lanes}\t{m:.1f}\t{s:.1f}\t{s - m:+.1f}")


if __name__ == "__main__":
    main()
