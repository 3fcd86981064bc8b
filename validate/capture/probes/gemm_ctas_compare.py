#!/usr/bin/env python3
"""Compares where the gemm_mma_bf16 2048 CTAs ran on a GPU (gemm_ctas.cu's per-warp rows, one
launch) with the model's CTA log (`warpsim run ... --cta-log FILE`): per side, how many CTAs each
SM ran (and how many of the last, partial wave: CTAs beyond 2 x the resident 12), the spread of
the CTAs' lives within an SM's first wave, the SMs' last retirements, and how the last-wave count
sets an SM's end. GPU times are ns from the launch's first start; model times are SM cycles,
shown in µs at --mhz.
    gemm_ctas_compare.py validate/reference/h200/gemm_ctas_h100.tsv.gz MODEL.tsv [--launch 0]
"""
import argparse
import collections
import csv
import gzip
import statistics


def gpu_ctas(path, launch):
    """(sm, start_us, end_us) per CTA of one launch: its warps' first start and last end."""
    ctas = {}
    with gzip.open(path, "rt") as f:
        for row in csv.reader((l for l in f if not l.startswith("#")), delimiter="\t"):
            if row[0] != str(launch):
                continue
            key = int(row[1])
            sm, start, end = int(row[3]), int(row[4]) / 1e3, int(row[5]) / 1e3
            old = ctas.get(key, (sm, start, end))
            ctas[key] = (sm, min(old[1], start), max(old[2], end))
    return list(ctas.values())


def model_ctas(path, mhz):
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(int(r["sm"]), int(r["launch_cycle"]) / mhz, int(r["retire_cycle"]) / mhz)
            for r in rows]


def summary(name, ctas, resident):
    per = collections.defaultdict(list)
    for sm, start, end in ctas:
        per[sm].append((start, end))
    counts = sorted(len(v) for v in per.values())
    last = {sm: max(e for _, e in v) for sm, v in per.items()}
    tail = collections.Counter(len(v) - 2 * resident for v in per.values())
    first_wave = [sorted(v)[:resident] for v in per.values()]
    spread = [max(e for _, e in w) - min(e for _, e in w) for w in first_wave]
    lives = [e - s for w in first_wave for s, e in w]
    print(f"{name}: {len(ctas)} CTAs on {len(per)} SMs; CTAs an SM {counts[0]}-{counts[-1]} "
          f"(median {statistics.median(counts)})")
    print(f"  first wave: CTA life {statistics.median(lives):.1f} µs median, "
          f"{min(lives):.1f}-{max(lives):.1f}; ends within an SM spread over "
          f"{statistics.median(spread):.1f} µs (median)")
    ends = sorted(last.values())
    print(f"  SMs' last retirement {ends[0]:.1f} / {statistics.median(ends):.1f} / {ends[-1]:.1f} "
          f"µs (first / median / last)")
    for k in sorted(tail):
        e = [last[sm] for sm, v in per.items() if len(v) - 2 * resident == k]
        print(f"  {k:3d} CTAs in the last wave: {tail[k]:3d} SMs, last retirement "
              f"{statistics.mean(e):.1f} µs")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gpu")
    ap.add_argument("model")
    ap.add_argument("--launch", type=int, default=0)
    ap.add_argument("--mhz", type=float, default=1960.0, help="model SM clock (MHz): the preset's")
    ap.add_argument("--resident", type=int, default=12, help="CTAs resident per SM")
    a = ap.parse_args()
    summary("GPU", gpu_ctas(a.gpu, a.launch), a.resident)
    summary("model", model_ctas(a.model, a.mhz), a.resident)


if __name__ == "__main__":
    main()
