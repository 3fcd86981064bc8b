#!/usr/bin/env python3
"""Writes the partial-write probe of partial_writes.cu as an Accel-Sim trace, for the simulator
side of the probe: a grid-stride loop over the 32-byte sectors of an MB-megabyte region, each
sector getting one store of BYTES (4, 16 or 32) at its start, 1056 CTAs of 256 threads, as the
CUDA probe launches them. Simulate from an empty L2, as the H200 ran it (ncu --cache-control all):
    partial_writes_trace.py 4 16 OUT_DIR && warpsim run --trace OUT_DIR/kernelslist.g --arch h200
and compare DRAM bytes with validate/reference/h200/partial_writes.tsv.
"""
import os
import sys

CTAS, THREADS, BASE = 132 * 8, 256, 0x7F0000000000
STORES = {4: [("STG.E", 4, 0)], 16: [("STG.E.128", 16, 0)],
          32: [("STG.E.128", 16, 0), ("STG.E.128", 16, 16)]}


def main():
    nbytes, mb, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if nbytes not in STORES:
        sys.exit("bytes per sector: expected 4, 16 or 32")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    sectors, stride = mb * (1 << 20) // 32, CTAS * THREADS
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(f"-kernel name = probe_partial\n-kernel id = 1\n-grid dim = ({CTAS},1,1)\n"
                f"-block dim = ({THREADS},1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 90\n"
                "-cuda stream id = 0\n-shmem base_addr = 0x00007f4e3a000000\n"
                "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
                "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
                "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")
        for cta in range(CTAS):
            f.write(f"#BEGIN_TB\n\nthread block = {cta},0,0\n\n")
            for warp in range(THREADS // 32):
                first = cta * THREADS + warp * 32
                lines = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R1 S2R 0 0 0"]
                for s in range(first, sectors, stride):
                    lanes = min(32, sectors - s)
                    mask = (1 << lanes) - 1
                    for k, (op, width, offset) in enumerate(STORES[nbytes]):
                        addr = BASE + 32 * s + offset
                        lines.append(f"{0x20 + 0x10 * k:04x} {mask:08x} 0 {op} 2 R2 R4 {width} 1 "
                                     f"0x{addr:016x} 32 0")
                    lines.append("0040 ffffffff 1 R2 IADD3 2 R2 R3 0")
                    lines.append("0050 ffffffff 1 P0 ISETP.GE.U32.AND 2 R2 R9 0")
                    lines.append("0060 ffffffff 0 BRA 1 P0 0")
                lines.append("0070 ffffffff 0 EXIT 0 0 0")
                f.write(f"warp = {warp}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
            f.write("#END_TB\n\n")


if __name__ == "__main__":
    main()
