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

from probe_trace import BASE, CTAS, THREADS, write_kernel

STORES = {4: [("STG.E", 4, 0)], 16: [("STG.E.128", 16, 0)],
          32: [("STG.E.128", 16, 0), ("STG.E.128", 16, 16)]}


def partial_iterations(nbytes, mb, base=BASE):
    """The probe's sectors over MB megabytes at `base` (write_kernel's iterations)."""
    sectors, stride = mb * (1 << 20) // 32, CTAS * THREADS

    def iterations(first):
        for s in range(first, sectors, stride):
            mask = (1 << min(32, sectors - s)) - 1
            yield [f"{0x20 + 0x10 * k:04x} {mask:08x} 0 {op} 2 R2 R4 {width} 1 "
                   f"0x{base + 32 * s + offset:016x} 32 0"
                   for k, (op, width, offset) in enumerate(STORES[nbytes])]
    return iterations


def main():
    nbytes, mb, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if nbytes not in STORES:
        sys.exit("bytes per sector: expected 4, 16 or 32")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        write_kernel(f, "probe_partial", 1, partial_iterations(nbytes, mb))


if __name__ == "__main__":
    main()
