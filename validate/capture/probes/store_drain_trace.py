#!/usr/bin/env python3
"""Writes the launches of store_drain.cu as Accel-Sim traces, one directory per launch
(KIND_N_CTAS_THREADS), for the simulator side of the store-drain probe: every warp writes N lines
of its own with STG.E (one line an instruction) or STG.E.128 (four), then exits; conflict_store
warps first write the shared tile, meet at the barrier and run N dependent 32-way conflicted LDS,
then write one line. Simulate from an empty L2, as the GPU ran it:
    store_drain_trace.py OUT_DIR [KIND_N_CTAS_THREADS ...] && warpsim run --trace OUT_DIR/store32_4_1056_256/kernelslist.g
and compare each warp's drain with validate/reference/h200/store_drain_h100.tsv (store_drain_compare.py).
"""
import os
import sys

import probe_trace

BASE = 0x7F0000000000
LAUNCHES = [(k, n, c, t) for c, t in ((132, 32), (132, 256), (1056, 256), (8448, 256))
            for k, n in (("store32", 1), ("store32", 2), ("store32", 4), ("store32", 8),
                         ("store128", 1), ("store128", 2))]
LAUNCHES += [("conflict_store", 4, 1056, 256), ("conflict_store", 16, 1056, 256)]


def warp_lines(kind, n, warp, warp_in_cta):
    body = ["1 R0 S2R 0 0 0", "1 R1 S2R 0 0 0", "1 R2 IMAD.WIDE 2 R0 R1 0"]
    if kind == "store32":
        for k in range(n):
            addr = BASE + (warp * n + k) * 128
            body.append(f"0 STG.E 2 R2 R4 4 1 0x{addr:016x} 4 0")
    elif kind == "store128":
        for k in range(n):
            addr = BASE + (warp * n + k) * 512
            body.append(f"0 STG.E.128 2 R2 R4 16 1 0x{addr:016x} 16 0")
    else:
        # Each thread writes about 33 * 32 / 256 words of the tile (4 STS a warp, conflict-free).
        for k in range(4):
            body.append(f"0 STS 2 R3 R5 4 1 0x{(k * 8 + warp_in_cta) * 128:016x} 4 0")
        body.append("0 BAR.SYNC 0 0")
        for k in range(n):
            # Lane l reads word 32 l: every lane in bank 0, 32 ways.
            body.append("1 R6 LDS 1 R6 4 1 0x0000000000000000 128 0")
            body.append("1 R7 FADD 2 R6 R7 0")
        body.append(f"0 STG.E 2 R2 R7 4 1 0x{BASE + warp * 128:016x} 4 0")
    body.append("0 EXIT 0 0 0")
    # Consecutive PCs, as the compiler lays them out: an EXIT alone on a later line would wait for
    # its fetch and hide the drain.
    return [f"{16 * i:04x} ffffffff {line}" for i, line in enumerate(body)]


def write(out, kind, n, ctas, threads):
    warps = threads // 32
    probe_trace.write_warps(out, f"probe_{kind}_{n}", ctas, threads,
                            lambda cta, w: warp_lines(kind, n, cta * warps + w, w),
                            4224 if kind == "conflict_store" else 0)


def main():
    out = sys.argv[1]
    wanted = sys.argv[2:] or ["%s_%d_%d_%d" % l for l in LAUNCHES]
    for name in wanted:
        kind, n, ctas, threads = name.rsplit("_", 3)
        write(os.path.join(out, name), kind, int(n), int(ctas), int(threads))


if __name__ == "__main__":
    main()
