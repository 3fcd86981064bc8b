#!/usr/bin/env python3
"""Writes a launch of partial_writers.cu as an Accel-Sim trace, for the simulator side of the
probe: MODE 0 (each warp instruction stores one whole line), 1 (each line's 32 words as 4-byte
stores into one sector of each of 32 lines per instruction, all from the 8 warps of one CTA) or
2 (the same stores from four consecutive CTAs, partial_scatter.cu's words 8), over MB megabytes,
1056 CTAs of 256 threads as the CUDA probe launches them. Simulate from an empty L2, as the GPU
ran it (ncu --cache-control all):
    partial_writers_trace.py 1 64 OUT_DIR && warpsim run --trace OUT_DIR/kernelslist.g --arch h200
and compare DRAM bytes with validate/reference/h200/partial_writers_<gpu>.tsv.
"""
import sys

from partial_scatter_trace import scatter_iterations
from probe_trace import BASE, CTAS, THREADS, write_launch, write_warps

LOOP = ["0040 ffffffff 1 R2 IADD3 2 R2 R3 0", "0050 ffffffff 1 P0 ISETP.GE.U32.AND 2 R2 R9 0",
        "0060 ffffffff 0 BRA 1 P0 0"]


def store(addr, stride):
    return f"0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x{addr:016x} {stride} 0"


def whole_iterations(mb):
    lines = mb * (1 << 20) // 128

    def iterations(first):
        for line in range(first // 32, lines, CTAS * THREADS // 32):
            yield [store(BASE + 128 * line, 4)]
    return iterations


def one_sm_warp(mb):
    groups = mb * (1 << 20) // (32 * 128)

    def warp_lines(cta, warp):
        lines = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R1 S2R 0 0 0"]
        for g in range(cta, groups, CTAS):
            for r in range(warp, 32, THREADS // 32):
                lines.append(store(BASE + 128 * (g * 32) + 32 * (r // 8) + 4 * (r % 8), 128))
                lines += LOOP
        lines.append("0070 ffffffff 0 EXIT 0 0 0")
        return lines
    return warp_lines


def main():
    mode, mb, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if mode == 0:
        write_launch(out, "probe_whole", CTAS, THREADS, whole_iterations(mb))
    elif mode == 1:
        write_warps(out, "probe_one_sm", CTAS, THREADS, one_sm_warp(mb))
    elif mode == 2:
        write_launch(out, "probe_scatter", CTAS, THREADS, scatter_iterations(8, mb))
    else:
        sys.exit("mode: expected 0, 1 or 2")


if __name__ == "__main__":
    main()
