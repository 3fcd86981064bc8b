#!/usr/bin/env python3
"""Writes page_sets.cu's chase as Accel-Sim traces, for the simulator side of the probe: one
thread chasing one random cycle through every 128-byte line of whole 2 MB chunks of one
allocation, four passes, each LDG reading the line its predecessor's load returned. A launch is
SELECTION_PARAM_CHUNKS: `contiguous_OFFSET_N` (chunks OFFSET .. OFFSET + N - 1), `stride_K_N`
(chunks 0, K, .., (N - 1) K) or `random_SEED_N` (N of the pool's 1024 chunks drawn with Python's
generator: not page_sets.cu's draws, which the simulator could not tell apart anyway, as it sets
lines to slices and sets by virtual address alone). Simulate from an empty L2:
    page_sets_trace.py OUT_DIR contiguous_0_8 random_2_8 && \\
        warpsim run --trace OUT_DIR/random_2_8/kernelslist.g --arch h100_sxm
The chase's DRAM reads beyond one 64-byte fetch per line are its misses after the first pass;
page_sets_compare.py runs the launches and sets them beside the GPU's.
"""
import os
import random
import sys

import probe_trace

CHUNK_BYTES = 2 << 20
LINE_BYTES = 128
POOL_CHUNKS = 1024
PASSES = 4


def chunks_of(selection, param, n):
    if selection == "contiguous":
        return [param + i for i in range(n)]
    if selection == "stride":
        return [i * param for i in range(n)]
    if selection == "random":
        return sorted(random.Random(1000 + param).sample(range(POOL_CHUNKS), n))
    raise SystemExit(f"page_sets_trace.py: unknown selection '{selection}' (expected "
                     "contiguous, stride or random)")


def write(out, selection, param, n):
    per_chunk = CHUNK_BYTES // LINE_BYTES
    lines = [c * per_chunk + l for c in chunks_of(selection, param, n) for l in range(per_chunk)]
    rng = random.Random(42)
    for k in range(len(lines) - 1, 0, -1):  # Sattolo: one cycle through every line
        j = rng.randrange(k)
        lines[k], lines[j] = lines[j], lines[k]

    def iterations(first):
        for _ in range(PASSES):
            for line in lines:
                address = probe_trace.BASE + line * LINE_BYTES
                yield [f"0020 00000001 1 R4 LDG.E 1 R4 4 1 0x{address:016x} 4 0"]

    probe_trace.write_launch(out, f"probe_page_sets_{selection}_{param}_{n}", 1, 32, iterations)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    out = sys.argv[1]
    for launch in sys.argv[2:]:
        parts = launch.split("_")
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
            raise SystemExit(f"page_sets_trace.py: launch '{launch}': expected "
                             "SELECTION_PARAM_CHUNKS, e.g. stride_12_8")
        write(os.path.join(out, launch), parts[0], int(parts[1]), int(parts[2]))


if __name__ == "__main__":
    main()
