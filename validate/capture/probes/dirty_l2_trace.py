#!/usr/bin/env python3
"""Writes the write and read probes of dirty_l2.cu as an Accel-Sim trace, for the simulator side of
the L2 write-back probe: a grid-stride loop of 16-byte stores (probe_write) or loads
(probe_read) over MB megabytes, 1056 CTAs of 256 threads, as the CUDA probe launches them.
    dirty_l2_trace.py write 48 OUT_DIR && warpsim run --trace OUT_DIR/kernelslist.g --arch h200
`write_read W R` writes the probe's sequence as two kernels, W MB written, then R MB of other
lines read; simulate it with the L2 carried from one kernel to the next, as the probe ran:
    warpsim run --trace OUT_DIR/kernelslist.g --arch h200 --set launch.cache_start=WARM
`--settle MB` first reads MB megabytes of other lines (a kernel named settle_l2), as the probe
settles the L2 before each sequence so that it starts full of clean lines: give 128 (twice the L2)
and read the sequence's kernels after it.
"""
import os
import sys

CTAS, THREADS, BASE = 132 * 8, 256, 0x7F0000000000


def main():
    args = sys.argv[1:]
    settle = []
    if args[0] == "--settle":
        settle, args = [("settle", int(args[1]))], args[2:]
    kind, out = args[0], args[-1]
    phases = settle + ([(kind, int(args[1]))] if kind != "write_read" else [
        ("write", int(args[1])), ("read", int(args[2]))])
    os.makedirs(out, exist_ok=True)
    stride = CTAS * THREADS
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("".join(f"kernel-{k + 1}.traceg\n" for k in range(len(phases))))
    for k, (what, mb) in enumerate(phases):
        with open(os.path.join(out, f"kernel-{k + 1}.traceg"), "w") as f:
            name = "settle_l2" if what == "settle" else f"probe_{what}"
            f.write(f"-kernel name = {name}\n-kernel id = {k + 1}\n-grid dim = ({CTAS},1,1)\n"
                    f"-block dim = ({THREADS},1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 90\n"
                    "-cuda stream id = 0\n-shmem base_addr = 0x00007f4e3a000000\n"
                    "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
                    "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
                    "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")
            write_phase(f, k, what, mb * (1 << 20) // 16, stride)

def write_phase(f, phase, kind, n, stride):
    base = BASE + phase * (1 << 30)
    for cta in range(CTAS):
        f.write(f"#BEGIN_TB\n\nthread block = {cta},0,0\n\n")
        for warp in range(THREADS // 32):
            first = cta * THREADS + warp * 32
            lines = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R1 S2R 0 0 0"]
            for i in range(first, n, stride):
                addr = base + 16 * i
                if kind == "write":
                    lines.append(f"0020 ffffffff 0 STG.E.128 2 R2 R4 16 1 0x{addr:016x} 16 0")
                else:
                    lines.append(f"0020 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x{addr:016x} 16 0")
                    lines.append("0030 ffffffff 1 R8 FADD 2 R8 R4 0")
                lines.append("0040 ffffffff 1 R2 IADD3 2 R2 R3 0")
                lines.append("0050 ffffffff 1 P0 ISETP.GE.U32.AND 2 R2 R9 0")
                lines.append("0060 ffffffff 0 BRA 1 P0 0")
            lines.append("0070 ffffffff 0 EXIT 0 0 0")
            f.write(f"warp = {warp}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
        f.write("#END_TB\n\n")


if __name__ == "__main__":
    main()
