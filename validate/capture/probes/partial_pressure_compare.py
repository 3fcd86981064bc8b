#!/usr/bin/env python3
"""The simulator's side of partial_pressure.cu: writes the naive transpose of each clean-L2 shape
the probe launched (the output's rows and columns, its pitch, the CTA order, the first column,
whether a barrier separates each CTA's loads from its stores, the column below which CTAs write
whole lines) as an Accel-Sim trace, runs it from an empty L2 and prints, beside the GPU's median
over its repeats, the partly written lines given up (the GPU's
lts__t_requests_op_write_evict_first.sum; the model's gpu.l2.partial_lines_given_up), DRAM bytes
and cycles, with the root-mean-square of the log ratio of the given-up counts:
    partial_pressure_compare.py WARPSIM [--arch h200] [--set path=value ...]
        [--tsv validate/reference/h200/partial_pressure.tsv] [--skip-twins] [--sequences]
--skip-twins leaves out the shapes of the reference's own twins (2048 and 4096 square, pitch
as wide, row-major), so that what is fitted to the rest can be checked on them. --sequences
compares instead the launches the probe ran back to back with the L2 kept (state `keep`: the
4096 transpose's quarters, the 2048 one's halves), each run of them simulated as one trace of
several kernels with the L2 handed from one to the next (launch.cache_start WARM).
Each warp of the trace is the twin's: its thread index, four loads of a row of the input and four
stores, each into one sector of 32 lines `pitch` floats apart (or, below copy_below, each one
row's whole line).
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

from probe_trace import write_kernels

HERE = os.path.dirname(os.path.abspath(__file__))
TSV = os.path.join(HERE, "..", "..", "reference", "h200", "partial_pressure.tsv")
IN_BASE, OUT_BASE = 0x7F0000000000, 0x7F0010000000
TILE, ROWS = 32, 8


METRICS = ("lts__t_requests_op_write_evict_first.sum", "dram__bytes_read.sum",
           "dram__bytes_write.sum", "gpc__cycles_elapsed.max")


def warp_lines(rows, cols, pitch, order, col0=0, sync=0, copy_below=0):
    n, blocks, col_blocks = rows, rows // TILE, cols // TILE

    def lines(cta, warp):
        bx, by = ((cta % blocks, cta // blocks) if order == 0
                  else (cta // col_blocks, cta % col_blocks))
        y = col0 + by * TILE + warp
        out = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R1 S2R 0 0 0"]
        for j in range(0, TILE, ROWS):
            addr = IN_BASE + 4 * ((y + j) * n + bx * TILE)
            out.append(f"{0x20 + j:04x} ffffffff 1 R{4 + j // ROWS} LDG.E 1 R2 4 1 "
                       f"0x{addr:016x} 4 0")
        if sync:
            out.append("0058 ffffffff 0 BAR.SYNC 0 0")
        for j in range(0, TILE, ROWS):
            if col0 + by * TILE < copy_below:  # one row's whole line
                addr, stride = OUT_BASE + 4 * ((bx * TILE + warp + j) * pitch + y - warp), 4
            else:
                addr, stride = OUT_BASE + 4 * (bx * TILE * pitch + y + j), 4 * pitch
            out.append(f"{0x60 + j:04x} ffffffff 0 STG.E 2 R3 R{4 + j // ROWS} 4 1 "
                       f"0x{addr:016x} {stride} 0")
        out.append("0100 ffffffff 0 EXIT 0 0 0")
        return out
    return lines


def launch_key(r):
    """(rows, cols, pitch, order, first column, sync, whole lines below) of one row of the probe's
    TSV (files written before the probe took the last three have none: 0)."""
    return (int(r["rows"]), int(r["cols"]), int(r["pitch"]), int(r["order"]),
            int(r.get("col0", 0)), int(r.get("sync", 0)), int(r.get("copy_below", 0)))


def medians(runs):
    return tuple(statistics.median(v[i] for v in runs) for i in range(len(METRICS)))


def measured(path):
    """{launch_key: (given up, DRAM read, DRAM written, cycles)}, medians
    over the repeats of the launches after an L2 of clean lines."""
    runs = {}
    for r in csv.DictReader(open(path), delimiter="\t"):
        if r["state"] == "clean":
            runs.setdefault(launch_key(r), []).append([float(r[m]) for m in METRICS])
    return {k: medians(vs) for k, vs in runs.items()}


def measured_sequences(path):
    """[(launches, medians)]: each run of launches the probe made back to back (a launch after a
    flush and the `keep` ones after it), with its launches' keys and, per launch, the medians
    over the repeats."""
    runs, current = {}, []
    for r in csv.DictReader(open(path), delimiter="\t"):
        if r["state"] != "keep":
            current = [(r["repeat"], launch_key(r), [float(r[m]) for m in METRICS])]
            continue
        current.append((r["repeat"], launch_key(r), [float(r[m]) for m in METRICS]))
        keys = tuple(k for _, k, _ in current)
        runs.setdefault(keys, {}).setdefault(r["repeat"], [v for _, _, v in current])
    return [(keys, [medians([rep[i] for rep in by_repeat.values()]) for i in range(len(keys))])
            for keys, by_repeat in runs.items()
            if not any(len(k) > len(keys) and k[:len(keys)] == keys for k in runs)]


def simulate_run(warpsim, args, keys):
    """Simulates the launches `keys` as one trace of kernels back to back, the L2 handed from one
    to the next, and returns per kernel (given up, DRAM read, DRAM written, cycles)."""
    with tempfile.TemporaryDirectory() as t:
        write_kernels(t, "probe_transpose",
                      [((key[0] // TILE) * (key[1] // TILE), warp_lines(*key)) for key in keys],
                      TILE * ROWS)
        # The first kernel starts from an empty L2 either way.
        args = args + ["--set", "launch.cache_start=WARM"]
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            subprocess.run([warpsim, "run", "--trace", os.path.join(t, "kernelslist.g"),
                            "--json", out.name, "--quiet"] + args,
                           check=True, stdout=subprocess.DEVNULL)
            kernels = json.load(open(out.name))["kernels"]
    return [(k["stats"]["gpu"]["l2"].get("partial_lines_given_up", 0),
             k["metrics"]["dram__bytes_read.sum"], k["metrics"]["dram__bytes_write.sum"],
             k["metrics"]["gpc__cycles_elapsed.max"]) for k in kernels]


def row(key, g, s):
    return ("".join(f"{k}\t" for k in key) +
            f"{g[0] / 1e3:.1f} / {s[0] / 1e3:.1f}\t{g[1] / 1e6:.2f} / {s[1] / 1e6:.2f}\t"
            f"{g[2] / 1e6:.2f} / {s[2] / 1e6:.2f}\t{g[3]:.0f} / {s[3]:.0f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("warpsim")
    p.add_argument("--arch", default="h200")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--tsv", default=TSV)
    p.add_argument("--skip-twins", action="store_true")
    p.add_argument("--sequences", action="store_true")
    a = p.parse_args()
    args = ["--arch", a.arch] + [x for s in a.set for x in ("--set", s)]
    print("rows\tcols\tpitch\torder\tcol0\tsync\tcopy_below\tgiven up GPU / model (k)\t"
          "read MB\twritten MB\tcycles")
    logs = []
    if a.sequences:
        for keys, gpu in measured_sequences(a.tsv):
            for key, g, s in zip(keys, gpu, simulate_run(a.warpsim, args, keys)):
                logs.append(math.log(max(s[0], 1) / max(g[0], 1)))
                print(row(key, g, s), flush=True)
            print()
    else:
        ref = measured(a.tsv)
        for key in sorted(k for k in ref
                          if not (a.skip_twins and k[3:] == (0, 0, 0, 0) and k[0] == k[1] == k[2])):
            g, s = ref[key], simulate_run(a.warpsim, args, [key])[0]
            logs.append(math.log(max(s[0], 1) / max(g[0], 1)))
            print(row(key, g, s), flush=True)
    print(f"rms log ratio of the given-up lines: "
          f"{math.sqrt(sum(x * x for x in logs) / len(logs)):.3f}")


if __name__ == "__main__":
    main()
