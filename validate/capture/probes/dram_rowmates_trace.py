#!/usr/bin/env python3
"""Writes the launches of dram_rowmates.cu as Accel-Sim traces, one directory per launch (D, the
second load's distance in bytes), for the simulator side of the HBM row-mate probe: 1056 CTAs of
256 threads, grid-stride thread i loading the float at byte i x 512 and the one D bytes further
(two LDG.E.CONSTANT in flight, then their FADDs), 1 M pairs. Simulate from an empty L2, as the H200
ran it, and compare cycles with validate/reference/h200/dram_rowmates.tsv:
    dram_rowmates_trace.py OUT_DIR [D ...] && warpsim run --trace OUT_DIR/256/kernelslist.g
"""
import os
import sys

import probe_trace

PAIRS = 1 << 20
DISTANCES = [128, 256, 256 + 512, 256 + 512 * 3, 256 + 512 * 7, 256 + 512 * 15, 256 + 512 * 63,
             256 + 512 * 95, 256 + 512 * 191, 256 + 512 * 383, 256 + 512 * 1535, 256 + 512 * 6143]


def write(out, distance):
    grid = 1056 * 256

    def iterations(first):
        for i in range(first, PAIRS, grid):
            a = probe_trace.BASE + 512 * i
            yield [f"0020 ffffffff 1 R5 LDG.E.CONSTANT 1 R4 4 1 0x{a:016x} 512 0",
                   f"0028 ffffffff 1 R6 LDG.E.CONSTANT 1 R4 4 1 0x{a + distance:016x} 512 0",
                   "0030 ffffffff 1 R7 FADD 2 R5 R6 0",
                   "0038 ffffffff 1 R0 FADD 2 R7 R0 0"]

    probe_trace.write_launch(out, f"probe_pairs_{distance}", 1056, 256, iterations)


def main():
    out = sys.argv[1]
    for distance in [int(a) for a in sys.argv[2:]] or DISTANCES:
        write(os.path.join(out, str(distance)), distance)


if __name__ == "__main__":
    main()
