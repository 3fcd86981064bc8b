#!/usr/bin/env python3
"""The gemm knee probe (gemm_knee.tsv, from gemm_knee.sh) beside the model: for each k at one m = n,
the GPU's DRAM bytes read and written (least to greatest over its placements, repeats and calls)
and the model's (warpsim run --workload gemm_mma_bf16 --param m=N --param n=N --param k=K), with
the model's L2 evictions and dirty evictions.

  gemm_knee_compare.py WARPSIM GEMM_KNEE.tsv --arch h100_sxm [--n 2048] [--ks 1024,2048]
                       [--set path=value ...]
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warpsim")
    ap.add_argument("tsv")
    ap.add_argument("--arch", required=True)
    ap.add_argument("--n", type=int, default=2048, help="m = n of the launches compared")
    ap.add_argument("--ks", default="", help="comma-separated k values (default: all in the file)")
    ap.add_argument("--set", action="append", default=[], help="passed to warpsim run --set")
    ap.add_argument("--threads", default="2")
    args = ap.parse_args()
    gpu = collections.defaultdict(list)
    with open(args.tsv) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if int(r["variant"].split("/")[0]) != args.n:
                continue
            gpu[int(r["param"])].append((float(r["dram__bytes_read.sum"]) / 1e6,
                                         float(r["dram__bytes_write.sum"]) / 1e6))
    ks = [int(k) for k in args.ks.split(",")] if args.ks else sorted(gpu)
    print("k\tGPU read MB\tGPU written MB\tmodel read MB\tmodel written MB\tevictions\tdirty")
    for k in ks:
        if k not in gpu:
            sys.exit(f"{args.tsv}: no launch at n={args.n}, k={k}")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "run.json")
            cmd = [args.warpsim, "run", "--workload", "gemm_mma_bf16", "--param", f"m={args.n}",
                   "--param", f"n={args.n}", "--param", f"k={k}", "--arch", args.arch, "--quiet",
                   "--threads", args.threads, "--json", out]
            for s in args.set:
                cmd += ["--set", s]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            kernel = json.load(open(out))["kernels"][0]
        m, l2 = kernel["metrics"], kernel["stats"]["gpu"]["l2"]
        reads = [r for r, _ in gpu[k]]
        writes = [w for _, w in gpu[k]]
        print(f"{k}\t{min(reads):.2f}-{max(reads):.2f}\t{min(writes):.2f}-{max(writes):.2f}\t"
              f"{m['dram__bytes_read.sum'] / 1e6:.2f}\t{m['dram__bytes_write.sum'] / 1e6:.2f}\t"
              f"{l2['evictions']}\t{l2['dirty_evictions']}", flush=True)


if __name__ == "__main__":
    main()
