#!/usr/bin/env python3
"""Fits the L2's partial-line record (l2.partial_lines, l2.partial_line_ways) to the H200's
partial-write probe: simulates the 4-byte probe kernels (partial_writes_trace.py) for each
candidate and prints the DRAM bytes written back against validate/reference/h200/partial_writes.tsv,
with the root-mean-square distance in MB and the mean relative error over the sizes where the
H200 writes back something (8 MB and up).
    partial_writes_fit.py WARPSIM [ENTRIES,WAYS ...]
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "..", "reference", "h200", "partial_writes.tsv")
SIZES = [4, 8, 12, 16, 24, 32]


def simulate(warpsim, traces, mb, entries, ways):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([warpsim, "run", "--trace", os.path.join(traces, f"{mb}", "kernelslist.g"),
                        "--arch", "h200", "--set", f"l2.partial_lines={entries}",
                        "--set", f"l2.partial_line_ways={ways}", "--json", out.name, "--quiet"],
                       check=True, stdout=subprocess.DEVNULL)
        m = json.load(open(out.name))["kernels"][0]["metrics"]
        return m["dram__bytes_write.sum"] / 2**20, m["dram__bytes_read.sum"] / 2**20


def main():
    warpsim = sys.argv[1]
    candidates = [tuple(int(x) for x in c.split(",")) for c in sys.argv[2:]] or [
        (e, w) for w in (1, 2, 4) for e in (96000, 128160, 153600, 192000)]
    ref = {int(r["mb"]): float(r["dram__bytes_write.sum"]) / 2**20
           for r in csv.DictReader(open(REF), delimiter="\t") if r["bytes"] == "4"}
    with tempfile.TemporaryDirectory() as traces:
        for mb in SIZES:
            subprocess.run([sys.executable, os.path.join(HERE, "partial_writes_trace.py"), "4",
                            str(mb), os.path.join(traces, str(mb))], check=True)
        print("entries\tways\t" + "\t".join(f"{mb} MB" for mb in SIZES) + "\trms MB\tmean rel.")
        print("H200\t\t" + "\t".join(f"{ref[mb]:.2f}" for mb in SIZES))
        for entries, ways in candidates:
            got = [simulate(warpsim, traces, mb, entries, ways)[0] for mb in SIZES]
            rms = math.sqrt(sum((g - ref[mb]) ** 2 for g, mb in zip(got, SIZES)) / len(SIZES))
            rel = [abs(g - ref[mb]) / ref[mb] for g, mb in zip(got, SIZES) if ref[mb] > 0.1]
            print(f"{entries}\t{ways}\t" + "\t".join(f"{g:.2f}" for g in got) +
                  f"\t{rms:.2f}\t{100 * sum(rel) / len(rel):.1f} %", flush=True)


if __name__ == "__main__":
    main()
