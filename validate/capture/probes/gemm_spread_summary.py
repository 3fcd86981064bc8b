#!/usr/bin/env python3
"""Summarises how the CTAs of one-wave GEMM grids share an SM (gemm_spread.cu's per-warp rows, or
the model's `warpsim run ... --cta-log FILE` of the same grid): per configuration and launch, the
CTAs per SM, the mean CTA life, its spread within an SM (sd, and the lives by rank within the SM
averaged over the SMs: shortest, median, longest), the share of the lives' variance that lies
between SMs, and how far apart a CTA's warps end; for wave12_progress also each quarter of k's
duration and how a CTA's quarters correlate within its SM (a pace set at the start correlates,
a random walk does not). GPU times are ns from the launch's first start;
model times are SM cycles, shown in µs at --mhz.
    gemm_spread_summary.py gpu validate/reference/h200/gemm_spread_h100.tsv.gz
    gemm_spread_summary.py model MODEL.tsv [--mhz 1980] [--name wave12]
"""
import argparse
import collections
import csv
import gzip
import statistics


def gpu_launches(path):
    """{(config, launch): {cta: (sm, start_us, end_us, warp_end_spread_us)}}."""
    warps = collections.defaultdict(lambda: collections.defaultdict(list))
    with gzip.open(path, "rt") as f:
        for row in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"):
            key = (row["config"], int(row["launch"]))
            warps[key][int(row["cta"])].append(
                (int(row["sm"]), int(row["start_ns"]) / 1e3, int(row["end_ns"]) / 1e3))
    out = {}
    for key, ctas in warps.items():
        out[key] = {}
        for cta, ws in ctas.items():
            ends = [w[2] for w in ws]
            out[key][cta] = (ws[0][0], min(w[1] for w in ws), max(ends), max(ends) - min(ends))
    return out


def gpu_progress(path):
    """{launch: {cta: (sm, [start, p512, p1024, p1536, end])}} of wave12_progress, in us: the
    CTA's latest warp at each checkpoint."""
    out = collections.defaultdict(dict)
    with gzip.open(path, "rt") as f:
        for row in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"):
            if row["config"] != "wave12_progress":
                continue
            stamps = [int(row[k]) / 1e3 for k in ("start_ns", "p512", "p1024", "p1536", "end_ns")]
            cta = out[int(row["launch"])].setdefault(int(row["cta"]), [int(row["sm"]), stamps])
            cta[1] = [max(x, y) for x, y in zip(cta[1], stamps)]
    return out


def progress_summary(launch, ctas):
    """Quarter durations, centred on their SM's mean, and their correlations across CTAs."""
    per_sm = collections.defaultdict(list)
    for sm, stamps in ctas.values():
        per_sm[sm].append([b - a for a, b in zip(stamps, stamps[1:])])
    centred = []
    for quarters in per_sm.values():
        means = [statistics.mean(q[i] for q in quarters) for i in range(4)]
        centred += [[q[i] - means[i] for i in range(4)] for q in quarters]
    cols = list(zip(*centred))
    sd = [statistics.pstdev(c) for c in cols]
    means = [statistics.mean(q[i] for v in per_sm.values() for q in v) for i in range(4)]
    corr = statistics.correlation
    first_half = [a + b for a, b in zip(cols[0], cols[1])]
    second_half = [a + b for a, b in zip(cols[2], cols[3])]
    print(f"wave12_progress/{launch}: quarters of k, mean (sd within SM) us: " +
          ", ".join(f"{m:.1f} ({d:.1f})" for m, d in zip(means, sd)) +
          f"; r(q1, q2) {corr(cols[0], cols[1]):.2f}, r(q2, q3) {corr(cols[1], cols[2]):.2f}, "
          f"r(q1, q4) {corr(cols[0], cols[3]):.2f}, "
          f"r(first half, second half) {corr(first_half, second_half):.2f}")


def model_launch(path, mhz):
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {i: (int(r["sm"]), int(r["launch_cycle"]) / mhz, int(r["retire_cycle"]) / mhz, None)
            for i, r in enumerate(rows)}


def summary(name, ctas):
    per_sm = collections.defaultdict(list)
    for sm, start, end, _ in ctas.values():
        per_sm[sm].append(end - start)
    lives = [life for v in per_sm.values() for life in v]
    mean = statistics.mean(lives)
    between = sum(len(v) * (statistics.mean(v) - mean) ** 2 for v in per_sm.values())
    total = sum((x - mean) ** 2 for x in lives)
    counts = collections.Counter(len(v) for v in per_sm.values())
    full = max(counts)  # CTAs on most SMs
    by_rank = collections.defaultdict(list)
    within = []
    for v in per_sm.values():
        if len(v) != full:
            continue
        for rank, life in enumerate(sorted(v)):
            by_rank[rank].append(life)
        if len(v) > 1:
            within.append(statistics.pstdev(v))
    ranks = [statistics.mean(by_rank[r]) for r in sorted(by_rank)]
    spreads = [c[3] for c in ctas.values() if c[3] is not None]
    warp_spread = f"{statistics.mean(spreads):7.2f}" if spreads else "      -"
    print(f"{name:<20} {len(per_sm):4d} {dict(sorted(counts.items()))!s:<14} {mean:8.1f} "
          f"{statistics.mean(within) if within else 0:6.1f} {ranks[0]:8.1f} "
          f"{ranks[len(ranks) // 2]:8.1f} {ranks[-1]:8.1f} "
          f"{between / total if total else 0:8.3f} {warp_spread}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("side", choices=["gpu", "model"])
    parser.add_argument("path")
    parser.add_argument("--mhz", type=float, default=1980.0,
                        help="the model's SM clock (h100_sxm 1980, h200 1960)")
    parser.add_argument("--name", default="model", help="label of a model log")
    args = parser.parse_args()
    print(f"{'config/launch':<20} {'SMs':>4} {'CTAs a SM':<14} {'life us':>8} {'sd':>6} "
          f"{'shortest':>8} {'median':>8} {'longest':>8} {'between':>8} {'warps':>7}")
    if args.side == "gpu":
        for (config, launch), ctas in sorted(gpu_launches(args.path).items()):
            summary(f"{config}/{launch}", ctas)
        for launch, ctas in sorted(gpu_progress(args.path).items()):
            progress_summary(launch, ctas)
    else:
        summary(args.name, model_launch(args.path, args.mhz))


if __name__ == "__main__":
    main()
