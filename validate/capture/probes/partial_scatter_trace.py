#!/usr/bin/env python3
"""Writes the one-sector partial-write probe of partial_scatter.cu as an Accel-Sim trace, for the
simulator side of the probe: a grid-stride loop over store slots, each warp instruction storing 4
bytes into one sector of each of 32 lines 128 bytes apart (WORDS 1: one store per sector; 8: all
8 words of every sector, from 8 instructions), 1056 CTAs of 256 threads, as the CUDA probe
launches them. Simulate from an empty L2, as the H200 ran it (ncu --cache-control all):
    partial_scatter_trace.py 8 16 OUT_DIR && warpsim run --trace OUT_DIR/kernelslist.g --arch h200
and compare cycles and DRAM bytes with validate/reference/h200/partial_scatter.tsv.
"""
import os
import sys

from probe_trace import BASE, CTAS, THREADS, write_kernel


def scatter_iterations(words, mb, base=BASE):
    """The probe's store slots over MB megabytes at `base` (write_kernel's iterations)."""
    slots, stride = mb * (1 << 20) // 32 * words, CTAS * THREADS
    per_group = 4 * words

    def iterations(first):
        for i in range(first, slots, stride):
            w = i // 32
            group, r = divmod(w, per_group)
            sector, word = divmod(r, words)
            addr = base + 4 * ((group * 32) * 32 + sector * 8 + word)
            yield [f"0020 ffffffff 0 STG.E 2 R2 R4 4 1 0x{addr:016x} 128 0"]
    return iterations


def main():
    words, mb, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if words not in (1, 8):
        sys.exit("words per sector: expected 1 or 8")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        write_kernel(f, "probe_scatter", 1, scatter_iterations(words, mb))


if __name__ == "__main__":
    main()
