#!/usr/bin/env python3
"""Writes one variant of the row-wise passes probe (rows_passes.cu) as an Accel-Sim trace, for the
simulator side: a 128 MB settle read (its own lines), then the variant's kernel, 1024 CTAs of 256
threads, one row of 8192 floats each; per pass each warp walks its row 32 floats at a time, 256
apart, unrolled by 4 as nvcc compiles it (four 4-byte loads of whole lines, then their adds, and
for W / X the 4-byte stores of the output's lines), and the CTA meets at a barrier after each
pass. Its registers are the probe's as ptxas allocates them for sm_90 (`nvcc -Xptxas -v`: 40),
which on the H200 leave room for 6 CTAs an SM (rows_passes_ctas.tsv: 792 CTAs start at once).
    rows_passes_trace.py RRX OUT_DIR
    warpsim run --trace OUT_DIR/kernelslist.g --arch h200 --set launch.cache_start=WARM
Kernel 2 of the trace is the variant; compare it with its row of
validate/reference/h200/rows_passes.tsv.
"""
import os
import sys

from probe_trace import BASE, write_kernel

ROWS, COLS, BLOCK, UNROLL = 1024, 8192, 256, 4
GIB = 1 << 30
IN, OUT = BASE + GIB, BASE + 2 * GIB
HEADER = ("-kernel name = probe_rows\n-kernel id = 2\n-grid dim = ({rows},1,1)\n"
          "-block dim = ({block},1,1)\n-shmem = 0\n-nregs = 40\n-binary version = 90\n"
          "-cuda stream id = 0\n-shmem base_addr = 0x00007f4e3a000000\n"
          "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
          "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
          "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
          "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


def warp_lines(row, warp, passes):
    lines = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R1 S2R 0 0 0"]
    cols = list(range(warp * 32, COLS, BLOCK))
    for kind in passes:
        for g in range(0, len(cols), UNROLL):  # the loop unrolled by 4, as nvcc compiles it
            group = [4 * (row * COLS + c) for c in cols[g:g + UNROLL]]
            if kind in "RX":
                for j, off in enumerate(group):
                    lines.append(f"0020 ffffffff 1 R{4 + j} LDG.E.CONSTANT 1 R2 4 1 "
                                 f"0x{IN + off:016x} 4 0")
            for j, off in enumerate(group):
                if kind in "RX":
                    lines.append(f"0030 ffffffff 1 R8 FADD 2 R8 R{4 + j} 0")
                if kind == "X":
                    lines.append(f"0040 ffffffff 1 R{12 + j} FMUL 1 R{4 + j} 0")
                if kind in "WX":
                    src = f"R{12 + j}" if kind == "X" else "R8"
                    lines.append(f"0050 ffffffff 0 STG.E 2 R6 {src} 4 1 0x{OUT + off:016x} 4 0")
            lines.append("0060 ffffffff 1 R2 IADD3 2 R2 R3 0")
            lines.append("0070 ffffffff 1 P0 ISETP.GE.AND 2 R2 R9 0")
            lines.append("0080 ffffffff 0 BRA 1 P0 0")
        lines.append("0090 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0")
    lines.append("00a0 ffffffff 0 EXIT 0 0 0")
    return lines


def main():
    if len(sys.argv) != 3 or not sys.argv[1] or set(sys.argv[1]) - set("RWX"):
        sys.exit("usage: rows_passes_trace.py PASSES OUT_DIR   (PASSES: letters R, W, X)")
    passes, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\nkernel-2.traceg\n")
    settle_n = 128 * (1 << 20) // 16
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        def settle(first):
            for i in range(first, settle_n, 132 * 8 * 256):
                yield [f"0020 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x{BASE + 16 * i:016x} 16 0",
                       "0030 ffffffff 1 R8 FADD 2 R8 R4 0"]
        write_kernel(f, "settle_l2", 1, settle)
    with open(os.path.join(out, "kernel-2.traceg"), "w") as f:
        f.write(HEADER.format(rows=ROWS, block=BLOCK))
        for row in range(ROWS):
            f.write(f"#BEGIN_TB\n\nthread block = {row},0,0\n\n")
            for warp in range(BLOCK // 32):
                lines = warp_lines(row, warp, passes)
                f.write(f"warp = {warp}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
            f.write("#END_TB\n\n")


if __name__ == "__main__":
    main()
