#!/usr/bin/env python3
"""Writes the launches of dram_depth.cu as Accel-Sim traces, one directory per launch
(SECTORS_LOADS_CTAS), for the simulator side of the HBM read-depth probe: CTAS CTAs of 256 threads
read the first SECTORS sectors of each of 2 M lines, 16 bytes a lane (LDG.E.128.CONSTANT), each
warp LOADS loads a grid of warps apart before the FADDs that use them. Simulate from an empty L2,
as the GPU ran it:
    dram_depth_trace.py OUT_DIR [SECTORS_LOADS_CTAS ...] && warpsim run --trace OUT_DIR/4_8_1056/kernelslist.g
and compare cycles with validate/reference/h200/dram_depth.tsv (dram_depth_compare.py).
"""
import os
import sys

import probe_trace

LINES = 1 << 21
LAUNCHES = [(s, l, c) for c in (1056, 264) for s in (1, 2, 4) for l in (1, 2, 4, 8)]


def write(out, sectors, loads, ctas):
    lanes_per_line = 2 * sectors
    lines_per_load = 32 // lanes_per_line
    chunks = LINES // lines_per_load
    warps = ctas * 256 // 32
    # Each lane's byte offset within a load's span of lines.
    offsets = [(lane // lanes_per_line) * 128 + (lane % lanes_per_line) * 16 for lane in range(32)]
    deltas = " ".join(str(offsets[i] - offsets[i - 1]) for i in range(1, 32))

    def iterations(first):
        warp = first // 32
        for c in range(warp, chunks, warps * loads):
            body = []
            used = []
            for j in range(loads):
                chunk = c + j * warps
                if chunk >= chunks:
                    break
                addr = probe_trace.BASE + chunk * lines_per_load * 128
                reg = 8 + 4 * j
                body.append(f"0020 ffffffff 1 R{reg} LDG.E.128.CONSTANT 1 R4 16 2 0x{addr:016x} {deltas} 0")
                used.append(reg)
            for reg in used:
                body.append(f"0030 ffffffff 1 R0 FADD 2 R{reg} R0 0")
            yield body

    probe_trace.write_launch(out, f"probe_depth_{loads}", ctas, 256, iterations)


def main():
    out = sys.argv[1]
    wanted = [tuple(int(x) for x in a.split("_")) for a in sys.argv[2:]] or LAUNCHES
    for sectors, loads, ctas in wanted:
        write(os.path.join(out, f"{sectors}_{loads}_{ctas}"), sectors, loads, ctas)


if __name__ == "__main__":
    main()
