#!/usr/bin/env python3
"""Fits the L2's partial-line record (l2.partial_lines, l2.partial_line_ways) to the H200's
partial-write probes: simulates every launch up to 32 MB of the 4-byte probe
(partial_writes_trace.py: four partial sectors a request) and of the one-sector probe
(partial_scatter_trace.py: words 1, never completed; words 8, completed by 8 stores) for each
candidate, and prints the DRAM bytes read and written in MiB against
validate/reference/h200/partial_writes.tsv and partial_scatter.tsv, with the root-mean-square
distance over reads, over writes and over both (the fit: the reads are the record's fills, the
writes also carry what the L2 cannot hold).
    partial_writes_fit.py [--extended] [--set FIELD=VALUE ...] WARPSIM [ENTRIES,WAYS ...]
(--set: other fields of the description, passed on to every simulation.)
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "..", "reference", "h200")
MIB = 2**20
# (name, trace writer, its first argument, MB)
SIZES = (1, 2, 4, 8, 12, 16, 24, 32)
LAUNCHES = ([(f"4-byte {mb}", "partial_writes_trace.py", 4, mb) for mb in SIZES] +
            [(f"words 1 {mb}", "partial_scatter_trace.py", 1, mb) for mb in (1, 4, 8, 16, 32)] +
            [(f"words 8 {mb}", "partial_scatter_trace.py", 8, mb) for mb in (1, 2, 4, 8, 16, 24, 32)])
# With --extended: the same probe's 16-byte stores (never completed, as the 4-byte ones), its
# control, whole sectors written as two 16-byte halves back to back, which the H200 never gives up
# below 24 MB, and the completing one-sector stream beyond the L2 (48 and 64 MB), as the naive
# 4096 transpose stores (validate/HISTORY.md, thirty-fifth round).
EXTENDED = ([(f"{b}-byte {mb}", "partial_writes_trace.py", b, mb)
             for b in (16, 32) for mb in SIZES] +
            [(f"words 8 {mb}", "partial_scatter_trace.py", 8, mb) for mb in (48, 64)])


def measured():
    """(read, written) MiB per launch name."""
    out = {}
    for r in csv.DictReader(open(os.path.join(REF, "partial_writes.tsv")), delimiter="\t"):
        out[f"{r['bytes']}-byte {r['mb']}"] = r
    for r in csv.DictReader(open(os.path.join(REF, "partial_scatter.tsv")), delimiter="\t"):
        out[f"words {r['words']} {r['mb']}"] = r
    return {k: (float(r["dram__bytes_read.sum"]) / MIB, float(r["dram__bytes_write.sum"]) / MIB)
            for k, r in out.items()}


def simulate(warpsim, trace_dir, entries, ways, sets=()):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([warpsim, "run", "--trace", os.path.join(trace_dir, "kernelslist.g"),
                        "--arch", "h200", "--set", f"l2.partial_lines={entries}",
                        "--set", f"l2.partial_line_ways={ways}", "--json", out.name, "--quiet"] +
                       [a for kv in sets for a in ("--set", kv)],
                       check=True, stdout=subprocess.DEVNULL)
        m = json.load(open(out.name))["kernels"][0]["metrics"]
        return m["dram__bytes_read.sum"] / MIB, m["dram__bytes_write.sum"] / MIB


def rms(values):
    return math.sqrt(sum(v * v for v in values) / len(values))


def main():
    args = sys.argv[1:]
    launches = LAUNCHES
    if args[:1] == ["--extended"]:
        launches, args = LAUNCHES + EXTENDED, args[1:]
    sets = []
    while args[:1] == ["--set"]:
        sets.append(args[1])
        args = args[2:]
    warpsim = args[0]
    candidates = [tuple(int(x) for x in c.split(",")) for c in args[1:]] or [
        (e, w) for w in (1, 2, 4) for e in (57600, 67200, 76800, 86400, 96000, 115200)]
    ref = measured()
    names = [n for n, _, _, _ in launches]
    with tempfile.TemporaryDirectory() as traces:
        for name, writer, arg, mb in launches:
            subprocess.run([sys.executable, os.path.join(HERE, writer), str(arg), str(mb),
                            os.path.join(traces, name.replace(" ", "_"))], check=True)
        print("entries\tways\t" + "\t".join(names) + "\trms read\trms written\trms both")
        print("H200\t\t" + "\t".join(f"{ref[n][0]:.2f}/{ref[n][1]:.2f}" for n in names))
        for entries, ways in candidates:
            got = [simulate(warpsim, os.path.join(traces, n.replace(" ", "_")), entries, ways,
                            sets) for n in names]
            dr = [g[0] - ref[n][0] for g, n in zip(got, names)]
            dw = [g[1] - ref[n][1] for g, n in zip(got, names)]
            print(f"{entries}\t{ways}\t" + "\t".join(f"{g[0]:.2f}/{g[1]:.2f}" for g in got) +
                  f"\t{rms(dr):.2f}\t{rms(dw):.2f}\t{rms(dr + dw):.2f}", flush=True)


if __name__ == "__main__":
    main()
