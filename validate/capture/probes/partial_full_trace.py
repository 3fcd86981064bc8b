#!/usr/bin/env python3
"""Writes a sequence of partial_full.cu as an Accel-Sim trace, for the simulator side of the
full-L2 partial-write probe: a settle that reads 128 MB of other lines (twice the L2, as the probe
settles it full of clean lines), optionally 32 MB of fresh lines written (dirty_*), then the
partial kernel over MB megabytes (one 4-byte store per sector, partial_writes_trace.py) or the
completing one-sector stream (words 8, partial_scatter_trace.py). Simulate it with the L2 carried
from one kernel to the next, as the probe ran, and read the last kernel:
    partial_full_trace.py dirty_partial 8 OUT_DIR &&
    warpsim run --trace OUT_DIR/kernelslist.g --arch h200 --set launch.cache_start=WARM
SEQUENCE is partial, dirty_partial, scatter8 or dirty_scatter8, or one of partial_valid.cu's:
read_scatter8 or write_scatter8 (the MB read, or written whole, before the completing stream
stores into the same lines).
"""
import os
import sys

from dirty_l2_trace import phase_iterations
from partial_scatter_trace import scatter_iterations
from partial_writes_trace import partial_iterations
from probe_trace import BASE, CTAS, THREADS, write_kernel


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("partial", "dirty_partial", "scatter8",
                                                  "dirty_scatter8", "read_scatter8",
                                                  "write_scatter8"):
        sys.exit(__doc__)
    sequence, mb, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    stride = CTAS * THREADS
    kernels = [("settle_l2", phase_iterations(0, "read", 128 * (1 << 20) // 16, stride))]
    if sequence.startswith("dirty_"):
        kernels.append(("probe_write", phase_iterations(1, "write", 32 * (1 << 20) // 16, stride)))
    target = BASE + 2 * (1 << 30)  # other lines than the settle's and the write's
    for first in ("read", "write"):
        if sequence.startswith(first + "_"):  # the target's lines made complete first
            kernels.append((f"probe_{first}",
                            phase_iterations(2, first, mb * (1 << 20) // 16, stride)))
    if sequence.endswith("partial"):
        kernels.append(("probe_partial", partial_iterations(4, mb, target)))
    else:
        kernels.append(("probe_scatter", scatter_iterations(8, mb, target)))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("".join(f"kernel-{k + 1}.traceg\n" for k in range(len(kernels))))
    for k, (name, iterations) in enumerate(kernels):
        with open(os.path.join(out, f"kernel-{k + 1}.traceg"), "w") as f:
            write_kernel(f, name, k + 1, iterations)


if __name__ == "__main__":
    main()
