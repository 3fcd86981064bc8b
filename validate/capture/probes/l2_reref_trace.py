#!/usr/bin/env python3
"""Writes one sequence of the L2 retention probe (l2_reref.cu) as an Accel-Sim trace, for the
simulator side: a settle read (its own lines), then the sequence's kernels over the probe's three
buffers (X, the stream, the copy's destination), each a grid-stride loop of 16-byte accesses,
1056 CTAs of 256 threads, as the CUDA probe launches them.
    l2_reref_trace.py dirty/16/32 OUT_DIR      (any sequence of l2_reref list, fused ones too)
    warpsim run --trace OUT_DIR/kernelslist.g --arch h200 --set launch.cache_start=WARM
Kernel k + 2 of the trace is step k of the sequence (kernel 1 is the settle); compare each with
the matching row of validate/reference/h200/l2_reref.tsv.
"""
import os
import sys

from probe_trace import BASE, CTAS, THREADS, write_kernel

KINDS = {
    "once": ["read_x"],
    "twice": ["read_x", "read_x"],
    "dirty": ["write_x"],
    "dirty_reread": ["write_x", "read_x"],
    "once_copy": ["read_x"],
    "dirty_copy": ["write_x"],
    "once_write": ["read_x"],
    "fused": [],  # one kernel writes X, then reads the stream (write_x_read_stream)
}
GIB = 1 << 30
BUFFER = {"settle": BASE, "x": BASE + GIB, "stream": BASE + 2 * GIB, "out": BASE + 3 * GIB}
SETTLE_MB = 128


def steps(sequence):
    kind, x_mb, r_mb = sequence.split("/")
    if kind not in KINDS:
        sys.exit(f"l2_reref_trace.py: unknown sequence kind '{kind}'; expected one of "
                 + ", ".join(KINDS))
    if kind == "fused":
        return [("write_x_read_stream", (int(x_mb), int(r_mb))), ("read_x", int(x_mb))]
    stream = {"_copy": "copy_stream", "_write": "write_stream"}.get(
        kind[kind.rfind("_"):], "read_stream")
    return [(s, int(x_mb)) for s in KINDS[kind]] + [(stream, int(r_mb)), ("read_x", int(x_mb))]


def iterations(kind, mb):
    if kind == "write_x_read_stream":  # mb: (X's MB, the stream's MB); each thread writes first
        writes, reads = iterations("write_x", mb[0]), iterations("read_stream", mb[1])
        return lambda first: (body for part in (writes, reads) for body in part(first))
    n = mb * (1 << 20) // 16
    stride = CTAS * THREADS

    def body(first):
        for i in range(first, n, stride):
            off = 16 * i
            if kind in ("write_x", "write_stream"):
                dst = BUFFER["x" if kind == "write_x" else "out"] + off
                yield [f"0020 ffffffff 0 STG.E.128 2 R2 R4 16 1 0x{dst:016x} 16 0"]
                continue
            src = {"read_x": "x", "read_stream": "stream", "copy_stream": "stream",
                   "settle": "settle"}[kind]
            lines = [f"0020 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x{BUFFER[src] + off:016x} 16 0"]
            if kind == "copy_stream":
                lines.append(f"0030 ffffffff 0 STG.E.128 2 R2 R4 16 1 "
                             f"0x{BUFFER['out'] + off:016x} 16 0")
            else:
                lines.append("0030 ffffffff 1 R8 FADD 2 R8 R4 0")
            yield lines
    return body


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: l2_reref_trace.py KIND/X/R OUT_DIR")
    sequence, out = sys.argv[1], sys.argv[2]
    kernels = [("settle_l2", "settle", SETTLE_MB)] + [
        (f"probe_{kind}", kind, mb) for kind, mb in steps(sequence)]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("".join(f"kernel-{k + 1}.traceg\n" for k in range(len(kernels))))
    for k, (name, kind, mb) in enumerate(kernels):
        with open(os.path.join(out, f"kernel-{k + 1}.traceg"), "w") as f:
            write_kernel(f, name, k + 1, iterations(kind, mb))


if __name__ == "__main__":
    main()
