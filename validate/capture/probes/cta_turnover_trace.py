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

import probe_trace

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
    probe_trace.write_warps(out, "probe_turnover", SMS * PER_SM[threads] * 8, threads, warp_lines)


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
