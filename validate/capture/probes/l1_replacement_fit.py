#!/usr/bin/env python3
"""Fits the L1's replacement policy to two probes of the same 32 KB carve-out (28 ways of 64 sets,
the XOR-folded index of l1_geometry_fit.py):

- l1_geometry.tsv: cyclic chases of n lines a power-of-two stride apart, miss fraction
  (cycles - 32) / (280 - 32) of the third pass; chases under a quarter of the capacity skipped;
- l1_store_alloc.tsv: one CTA reads A, streams S through the L1 (stores or loads), reads A again;
  the fraction of A's second read that hits.

For each policy (LRU, FIFO, uniform random, SRRIP, and random_lru: a uniform pick among the k least
recently used ways) it replays both on a model of the tags and prints the RMS distance to each
probe. Least-recently-used loses a cyclic footprint just over capacity all at once (a chase of
2048 lines misses everywhere; the H200 misses 69 % of it), and it keeps none of A once A and S
overflow the sets (the H200 keeps 55-60 % at 256 KB); uniform random keeps too much further out.
    l1_replacement_fit.py validate/reference/h200/l1_geometry.tsv validate/reference/h200/l1_store_alloc.tsv
"""
import random
import sys

SETS, BITS, WAYS = 64, 6, 28  # 1792 lines: the 256 KB array less the 32 KB carve-out
HIT, MISS = 32.0, 280.0


def fold(line):
    out = 0
    while line:
        out ^= line
        line >>= BITS
    return out & (SETS - 1)


class Tags:
    def __init__(self, policy, k, seed=1):
        self.policy, self.k = policy, k
        self.sets = [dict() for _ in range(SETS)]  # line -> LRU stamp, fill stamp or RRPV
        self.time = 0
        self.rng = random.Random(seed)

    def access(self, line):
        s = self.sets[fold(line)]
        self.time += 1
        if line in s:
            if self.policy == "srrip":
                s[line] = 0
            elif self.policy != "fifo":
                s[line] = self.time
            return True
        if len(s) >= WAYS:
            if self.policy in ("lru", "fifo"):
                victim = min(s, key=s.get)
            elif self.policy == "random":
                victim = self.rng.choice(list(s))
            elif self.policy == "random_lru":
                victim = self.rng.choice(sorted(s, key=s.get)[:self.k])
            else:  # srrip, 2-bit
                while not any(v >= 3 for v in s.values()):
                    for key in s:
                        s[key] += 1
                victim = next(key for key, v in s.items() if v >= 3)
            del s[victim]
        s[line] = 2 if self.policy == "srrip" else self.time
        return False


def geometry_rms(rows, policy, k):
    err = []
    for carveout, stride, n, cycles in rows:
        if int(carveout) != 0 or int(n) * 4 < SETS * WAYS:
            continue
        measured = min(1.0, max(0.0, (float(cycles) - HIT) / (MISS - HIT)))
        tags, step, n = Tags(policy, k), int(stride) // 128, int(n)
        misses = 0
        for sweep in range(3):
            for i in range(n):
                if not tags.access(i * step) and sweep == 2:
                    misses += 1
        err.append((misses / n - measured) ** 2)
    return (sum(err) / len(err)) ** 0.5


def store_alloc_rms(rows, policy, k):
    err = []
    for _mode, a_kb, s_kb, _ld, ld_hit, *_ in rows:
        a, s = int(a_kb) * 8, int(s_kb) * 8  # lines
        tags = Tags(policy, k)
        for i in range(a):
            tags.access(i)
        for i in range(s):
            tags.access(1 << 20 | i)
        kept = sum(tags.access(i) for i in range(a)) / a
        err.append((kept - int(ld_hit) / (4 * a)) ** 2)
    return (sum(err) / len(err)) ** 0.5


def main():
    geometry = [l.split("\t") for l in open(sys.argv[1]).read().strip().split("\n")[1:]]
    store = [l.split("\t") for l in open(sys.argv[2]).read().strip().split("\n")[1:]]
    candidates = [("lru", 0), ("fifo", 0), ("random", 0), ("srrip", 0)]
    candidates += [("random_lru", k) for k in (2, 4, 6, 7, 8, 9, 10, 14, 20)]
    for policy, k in candidates:
        g, s = geometry_rms(geometry, policy, k), store_alloc_rms(store, policy, k)
        name = policy + (f" {k} of {WAYS}" if k else "")
        print(f"{name:18s} geometry RMS {g:.3f}  store_alloc RMS {s:.3f}  both {(g*g + s*s) ** 0.5:.3f}")


if __name__ == "__main__":
    main()
