#!/usr/bin/env python3
"""Writes the load-width probe of coalesced_latency.cu as Accel-Sim traces, one directory per
launch (THREADS_LANES_ITERS), for the simulator side of the probe: 132 CTAs of THREADS threads,
each warp loading ITERS never-revisited 128-byte lines, one in flight, its lanes reading LANES
distinct floats of the line, each load's FADD holding the warp. Simulate from an empty L2, as the
H200 ran it (ncu --cache-control all):
    coalesced_latency_trace.py OUT_DIR [THREADS_LANES_ITERS ...] && warpsim run --trace OUT_DIR/256_32_1024/kernelslist.g
and compare cycles per iteration with validate/reference/h200/coalesced_latency.tsv
(coalesced_latency_compare.py does both).
"""
import os
import sys

import probe_trace

CTAS = 132
SHAPES = [(t, lanes, iters) for t in (32, 256) for lanes in (1, 8, 16, 32) for iters in (512, 1024)]


def write(out, threads, lanes, iters):
    warps = CTAS * threads // 32

    def iterations(first):
        warp = first // 32
        for k in range(iters):
            line = probe_trace.BASE + 128 * (warp + k * warps)
            # The lanes beyond LANES read what lanes 0..LANES-1 read: the same sectors, so the
            # trace lists only those.
            mask = (1 << lanes) - 1
            yield [f"0020 {mask:08x} 1 R5 LDG.E.CONSTANT 1 R4 4 1 0x{line:016x} 4 0",
                   "0030 ffffffff 1 R8 FADD 2 R5 R8 0 0"]

    probe_trace.write_launch(out, f"probe_lanes_{lanes}", CTAS, threads, iterations)


def main():
    out = sys.argv[1]
    shapes = [tuple(int(x) for x in a.split("_")) for a in sys.argv[2:]] or SHAPES
    for threads, lanes, iters in shapes:
        write(os.path.join(out, f"{threads}_{lanes}_{iters}"), threads, lanes, iters)


if __name__ == "__main__":
    main()
