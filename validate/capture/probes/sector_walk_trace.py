#!/usr/bin/env python3
"""The simulator's side of sector_walk.cu: one thread reads sectors 0-3 of each of 64 lines in
turn from an empty L2 (lines 4 KB apart or consecutive), each load followed by its use and a
clock stamp, written as an Accel-Sim trace; prints the cycles of each load in sector_walk.tsv's
format:
    sector_walk_trace.py WARPSIM [--arch h100_sxm] [--set path=value ...] > model.tsv"""
import os
import tempfile

from probe_trace import cs2r_stamps, warpsim_args

BASE, LINES = 0x7F0000000000, 64
HEADER = ("-kernel name = walk\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
          "-shmem = 0\n-nregs = 16\n-binary version = 90\n-cuda stream id = 0\n"
          "-shmem base_addr = 0x00007f4e3a000000\n-local mem base_addr = 0x00007f4e38000000\n"
          "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
          "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
          "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


def write(out, line_bytes):
    body = ["00000001 1 R0 S2R 0 0 0"]
    for line in range(LINES):
        for sector in range(4):
            address = BASE + line * line_bytes + sector * 32
            body.append("00000001 1 R10 CS2R 0 0 0")
            body.append(f"00000001 1 R7 LDG.E.STRONG.GPU 1 R8 4 0 0x{address:016x} 0")
            body.append("00000001 1 R11 FADD 2 R7 R7 0")
            body.append("00000001 1 R12 CS2R 0 0 0")
    body.append("00000001 0 EXIT 0 0 0")
    lines = [f"{0x10 * i:04x} {text}" for i, text in enumerate(body)]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(HEADER + "#BEGIN_TB\n\nthread block = 0,0,0\n\n")
        f.write(f"warp = 0\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n#END_TB\n\n")


def main():
    warpsim, run_args = warpsim_args(__doc__.splitlines()[0], "h100_sxm")
    print("layout\tline\tsector\tcycles")
    with tempfile.TemporaryDirectory() as t:
        for layout, line_bytes in (("4KB_apart", 4096), ("consecutive", 128)):
            d = os.path.join(t, layout)
            write(d, line_bytes)
            stamps = cs2r_stamps(warpsim, d, run_args)[0]
            for i in range(LINES * 4):
                print(f"{layout}\t{i // 4}\t{i % 4}\t{stamps[2 * i + 1] - stamps[2 * i]}")


if __name__ == "__main__":
    main()
