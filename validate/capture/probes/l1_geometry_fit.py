#!/usr/bin/env python3
"""Fits the L1's set count and set index to the L1 geometry probe (l1_geometry.tsv).

Each probe row is a chase of n lines `stride` bytes apart, repeated; its cycles per load give the
fraction of loads that missed: (cycles - 32) / (280 - 32), 32 being an L1 hit and 280 an L2 hit.
For each candidate geometry (a number of sets, the ways being what the carve-out leaves, and a
modulo or XOR-folded set index, LRU within a set) the same chase is replayed on a model of the
tags and its steady-state miss fraction compared; the script prints the RMS distance of each
candidate, best first. The carve-outs are the driver's: 32 KB at the probe's 0 % preference (the
floor `launch__shared_mem_config_size` shows for every twin) and 228 KB at 100 %, leaving 1792
and 224 lines of the 256 KB array. Chases shorter than a quarter of the capacity are skipped (their
cycles carry the chase's own start-up).
    l1_geometry_fit.py validate/reference/h200/l1_geometry.tsv
"""
import collections
import sys

HIT, MISS = 32.0, 280.0
LINES = {0: 1792, 100: 224}  # carve-out preference (%) -> L1 lines left


def fold(line, bits):
    out = 0
    while line:
        out ^= line
        line >>= bits
    return out & ((1 << bits) - 1)


def miss_fraction(lines, sets, xor, n, stride_lines):
    ways = lines // sets
    if ways == 0:
        return 1.0
    bits = sets.bit_length() - 1
    cache = [collections.OrderedDict() for _ in range(sets)]
    misses = 0
    for sweep in range(3):  # two warm-up passes, then the measured one
        for i in range(n):
            line = i * stride_lines
            s = cache[fold(line, bits) if xor else line % sets]
            if line in s:
                s.move_to_end(line)
                continue
            misses += sweep == 2
            if len(s) >= ways:
                s.popitem(last=False)
            s[line] = True
    return misses / n


def main():
    rows = [line.split("\t") for line in open(sys.argv[1]).read().strip().split("\n")[1:]]
    measured = [(int(c), int(s), int(n), min(1.0, max(0.0, (float(v) - HIT) / (MISS - HIT))))
                for c, s, n, v in rows]
    measured = [m for m in measured if m[2] * 4 >= LINES[m[0]]]
    results = []
    for sets in (16, 32, 64):
        for xor in (True, False):
            total = 0.0
            for carveout, stride, n, m in measured:
                lines = LINES[carveout] // sets * sets
                total += (miss_fraction(lines, sets, xor, n, stride // 128) - m) ** 2
            results.append(((total / len(measured)) ** 0.5, sets, "xor" if xor else "modulo"))
    for rms, sets, index in sorted(results):
        print(f"{sets} sets, {index} index: RMS {rms:.3f} over {len(measured)} chases")


if __name__ == "__main__":
    main()
