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

from probe_trace import BASE, CTAS, THREADS, write_kernel


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
            write_kernel(f, name, k + 1, phase_iterations(k, what, mb * (1 << 20) // 16, stride))


def phase_iterations(phase, kind, n, stride):
    base = BASE + phase * (1 << 30)

    def iterations(first):
        for i in range(first, n, stride):
            addr = base + 16 * i
            if kind == "write":
                yield [f"0020 ffffffff 0 STG.E.128 2 R2 R4 16 1 0x{addr:016x} 16 0"]
            else:
                yield [f"0020 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x{addr:016x} 16 0",
                       "0030 ffffffff 1 R8 FADD 2 R8 R4 0"]
    return iterations


if __name__ == "__main__":
    main()
