#!/usr/bin/env python3
"""Writes the launches of dram_stride.cu as Accel-Sim traces, one directory per launch
(STRIDE_CTAS), for the simulator side of the strided HBM read probe: CTAS CTAs of 256 threads
read 2 M floats, grid-stride thread i the float at i x STRIDE, each warp's load
(LDG.E.CONSTANT, one in flight) waited on by its FADD, as the probe's SASS
(validate/reference/h200/dram_stride_sass.txt). Simulate from an empty L2, as the H200 ran it:
    dram_stride_trace.py OUT_DIR [STRIDE_CTAS ...] && warpsim run --trace OUT_DIR/32_1056/kernelslist.g
and compare cycles with validate/reference/h200/dram_stride.tsv (the same launches).
"""
import os
import sys

import probe_trace

COUNT = 1 << 21
LAUNCHES = [(8, 1056), (16, 1056), (32, 1056), (64, 1056), (128, 1056), (256, 1056), (32, 528),
            (32, 264)]


def write(out, stride, ctas):
    grid = ctas * 256

    def iterations(first):
        for i in range(first, COUNT, grid):
            addr = probe_trace.BASE + 4 * stride * i
            yield [f"0020 ffffffff 1 R5 LDG.E.CONSTANT 1 R4 4 1 0x{addr:016x} {4 * stride} 0",
                   "0030 ffffffff 1 R0 FADD 2 R5 R0 0"]

    probe_trace.write_launch(out, f"probe_stride_{stride}", ctas, 256, iterations)


def main():
    out = sys.argv[1]
    wanted = [tuple(int(x) for x in a.split("_")) for a in sys.argv[2:]] or LAUNCHES
    for stride, ctas in wanted:
        write(os.path.join(out, f"{stride}_{ctas}"), stride, ctas)


if __name__ == "__main__":
    main()
