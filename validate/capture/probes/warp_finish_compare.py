#!/usr/bin/env python3
"""Summarises warp_finish.cu's stamps and, with --warpsim, sets the model's CTA retirements beside
them. Per kernel, CTA size and CTAs: when an SM's k-th CTA to finish ends (its last warp's end stamp
after the SM's first start), as the median over SMs and launches, in cycles and as a share of the
SM's last; the model's from `warpsim run --workload KERNEL --cta-log` (retire - launch cycle of the
SM's first CTA) for the same twin.
    warp_finish_compare.py validate/reference/h200/warp_finish_h100.tsv.gz \
        [--warpsim build/release/warpsim --arch h200 --set sm.scheduler_policy=gto ...]
        [--only KERNEL] [--cta-threads 128 --cta-threads 512]
"""
import argparse
import collections
import csv
import gzip
import os
import statistics
import subprocess
import tempfile


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def finishes(per_sm_ctas):
    """per_sm_ctas: {sm: [(start, end) of each CTA]} -> list over SMs of sorted CTA ends - first."""
    out = []
    for ctas in per_sm_ctas.values():
        first = min(s for s, _ in ctas)
        out.append(sorted(e - first for _, e in ctas))
    return out


def summary(runs):
    """runs: list over SMs (and launches) of sorted ends -> (median k-th end, median share)."""
    n = min(len(r) for r in runs)
    ends = [statistics.median(r[k] for r in runs) for k in range(n)]
    shares = [statistics.median(r[k] / r[-1] for r in runs) for k in range(n)]
    return ends, shares


def measured(path):
    """{(kernel, ctas): list of sorted CTA ends per SM and launch}, and the within-CTA spread."""
    ctas = collections.defaultdict(lambda: collections.defaultdict(list))
    with open_text(path) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            key = (row["kernel"], int(row.get("threads", 256)), int(row["ctas"]),
                   int(row["repeat"]), int(row["sm"]), int(row["cta"]))
            ctas[key[:5]][key[5]].append((int(row["start"]), int(row["end"])))
    out = collections.defaultdict(list)
    spread = collections.defaultdict(list)
    for (kernel, threads, n, _, sm), by_cta in ctas.items():
        per_sm = {sm: [(min(s for s, _ in w), max(e for _, e in w)) for w in by_cta.values()]}
        out[(kernel, threads, n)] += finishes(per_sm)
        for w in by_cta.values():
            ends = [e for _, e in w]
            spread[(kernel, threads, n)].append(max(ends) - min(ends))
    return out, spread


def simulated(warpsim, kernel, threads, ctas, arch, sets):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ctas.tsv")
        cmd = [warpsim, "run", "--workload", kernel, "--param", f"ctas={ctas}", "--param",
               f"threads={threads}", "--arch", arch, "--threads", "2", "--quiet", "--cta-log", log]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        per_sm = collections.defaultdict(list)
        with open(log) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                per_sm[int(row["sm"])].append((int(row["launch_cycle"]), int(row["retire_cycle"])))
    return finishes(per_sm)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stamps")
    ap.add_argument("--warpsim")
    ap.add_argument("--arch", default="h200")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--only", default="", help="kernels whose name contains this")
    ap.add_argument("--cta-threads", type=int, action="append", default=[],
                    help="only CTAs of this many threads (repeatable)")
    args = ap.parse_args()
    runs, spread = measured(args.stamps)
    for (kernel, threads, n) in sorted(runs):
        if args.only not in kernel or (args.cta_threads and threads not in args.cta_threads):
            continue
        case = f"{kernel} {n} x {threads}:"
        ends, shares = summary(runs[(kernel, threads, n)])
        print(f"{case} GPU   k-th CTA end " + " ".join(f"{e:8.0f}" for e in ends) +
              "   share " + " ".join(f"{s:.3f}" for s in shares) +
              f"   warps of a CTA end within {statistics.median(spread[(kernel, threads, n)]):.0f}")
        if args.warpsim:
            ends, shares = summary(simulated(args.warpsim, kernel, threads, n, args.arch, args.set))
            print(f"{case} model k-th CTA end " + " ".join(f"{e:8.0f}" for e in ends) +
                  "   share " + " ".join(f"{s:.3f}" for s in shares))


if __name__ == "__main__":
    main()
