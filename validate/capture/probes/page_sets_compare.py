#!/usr/bin/env python3
"""Runs page_sets.cu's chases on the simulator (page_sets_trace.py) and sets each footprint's
misses beside the GPU's (page_sets.tsv): per footprint and kind of selection, the share of the
hops after the first pass that went to DRAM, least to greatest over the selections. On the GPU
that is the share of timed hops beyond --dram cycles; in the model, the L2's sector misses beyond
one per line over the three later passes (every hop reads one sector).
    page_sets_compare.py build/release/warpsim validate/reference/h200/page_sets_h100.tsv \\
        [--arch h100_sxm] [--jobs 2] [--kinds contiguous,stride,random] [--set FIELD=VALUE ...]
"""
import argparse
import collections
import concurrent.futures
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

from page_sets_summary import shares

HERE = os.path.dirname(os.path.abspath(__file__))
# The selections of page_sets.cu (its random draws differ).
KINDS = {"contiguous": [0, 101, 517],
         "stride": [2, 3, 4, 5, 6, 8, 12, 15, 16, 24, 30, 32, 48, 60, 64],
         "random": [1, 2, 3, 4, 5, 6]}


def simulate(warpsim, arch, extra, launch):
    """The share of the chase's later hops that missed the L2 in the model, in percent."""
    with tempfile.TemporaryDirectory() as t:
        subprocess.run([sys.executable, os.path.join(HERE, "page_sets_trace.py"), t, launch],
                       check=True)
        out = os.path.join(t, "run.json")
        subprocess.run([warpsim, "run", "--trace", os.path.join(t, launch, "kernelslist.g"),
                        "--arch", arch, "--json", out, "--quiet"] + extra,
                       check=True, stdout=subprocess.DEVNULL)
        metrics = json.load(open(out))["kernels"][0]["metrics"]
    lines = int(launch.split("_")[2]) * (2 << 20) // 128
    misses = metrics["lts__t_sectors.sum"] - metrics["lts__t_sectors_lookup_hit.sum"]
    return 100.0 * (misses - lines) / (3 * lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warpsim")
    ap.add_argument("gpu_tsv")
    ap.add_argument("--arch", default="h100_sxm")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dram", type=int, default=550)
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--kinds", default=",".join(KINDS), help="selections to simulate")
    args = ap.parse_args()
    kinds = {k: KINDS[k] for k in args.kinds.split(",")}
    extra = [a for s in args.set for a in ("--set", s)]
    gpu = collections.defaultdict(list)
    footprints = {}
    for row in csv.DictReader(open(args.gpu_tsv), delimiter="\t"):
        gpu[(int(row["mb"]), row["selection"])].append(shares(row["histogram"], 0, args.dram)[1])
        footprints[int(row["mb"])] = int(row["chunks"])
    launches = [(mb, kind, f"{kind}_{p}_{n}") for mb, n in sorted(footprints.items())
                for kind, params in kinds.items() for p in params]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        model = list(pool.map(lambda l: simulate(args.warpsim, args.arch, extra, l[2]), launches))
    sim = collections.defaultdict(list)
    for (mb, kind, _), share in zip(launches, model):
        sim[(mb, kind)].append(share)
    print(f"% of hops after the first pass that went to DRAM, least-greatest (median), {args.arch}")
    print("MB\tselection\tGPU\tmodel")
    for mb in sorted(footprints):
        for kind in kinds:
            g, m = gpu[(mb, kind)], sim[(mb, kind)]
            print(f"{mb}\t{kind}\t{min(g):.3f}-{max(g):.3f} ({statistics.median(g):.3f})\t"
                  f"{min(m):.3f}-{max(m):.3f} ({statistics.median(m):.3f})")


if __name__ == "__main__":
    main()
