#!/usr/bin/env python3
"""Writes the launches of cta_turnover.cu as Accel-Sim traces, one directory per launch
(THREADS_0), for the simulator side of the CTA-turnover probe: eight waves of CTAs of THREADS
threads (32, 8 or 2 CTAs an SM), each meeting at a barrier twice, thread 0 storing its stamps.
Only the launches without a spin are written: the clock64 loop has no faithful trace. Then
compare the elapsed cycles with cta_turnover_ncu_h100.tsv:
    cta_turnover_trace.py OUT_DIR [THREADS_0 ...] && warpsim run --trace OUT_DIR/256_0/kernelslist.g
"""
import os
import sys

BASE = 0x7F0000000000
SMS = 132
LAUNCHES = [(32, 0), (256, 0), (1024, 0)]
PER_SM = {32: 32, 256: 8, 1024: 2}


def warp_lines(cta, warp):
    body = ["1 R0 CS2R 0 0", "1 R1 S2R 0 0", "0 BAR.SYNC 0 0", "1 R2 CS2R 0 0", "0 BAR.SYNC 0 0"]
    if warp == 0:
        for k, reg in enumerate(("R0", "R4", "R5")):
            addr = BASE + k * 0x1000000 + cta * 8
            body.append(f"0 STG.E.64 2 R6 {reg} 8 1 0x{addr:016x} 0 0")
    body.append("0 EXIT 0 0 0")
    return [f"{16 * i:04x} {'00000001' if warp == 0 and 'STG' in line else 'ffffffff'} {line}"
            for i, line in enumerate(body)]


def write(out, threads):
    os.makedirs(out, exist_ok=True)
    ctas = SMS * PER_SM[threads] * 8
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(f"-kernel name = probe_turnover\n-kernel id = 1\n-grid dim = ({ctas},1,1)\n"
                f"-block dim = ({threads},1,1)\n-shmem = 0\n-nregs = 16\n"
                "-binary version = 90\n-cuda stream id = 0\n"
                "-shmem base_addr = 0x0000000000000000\n"
                "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
                "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
                "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")
        for cta in range(ctas):
            f.write(f"#BEGIN_TB\n\nthread block = {cta},0,0\n\n")
            for w in range(threads // 32):
                lines = warp_lines(cta, w)
                f.write(f"warp = {w}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
            f.write("#END_TB\n\n")


def main():
    out = sys.argv[1]
    wanted = sys.argv[2:] or ["%d_%d" % l for l in LAUNCHES]
    for name in wanted:
        threads, spin = (int(x) for x in name.split("_"))
        if spin != 0:
            sys.exit(f"{name}: only launches without a spin have a trace")
        write(os.path.join(out, name), threads)


if __name__ == "__main__":
    main()
