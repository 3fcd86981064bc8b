#!/usr/bin/env python3
"""The simulator's side of partial_pressure.cu: writes the naive transpose of each clean-L2 shape
the probe launched (the output's rows and columns, its pitch, the CTA order) as an Accel-Sim trace, runs it from an empty L2
and prints, beside the GPU's median over its repeats, the partly written lines given up (the GPU's
lts__t_requests_op_write_evict_first.sum; the model's gpu.l2.partial_lines_given_up), DRAM bytes
and cycles, with the root-mean-square of the log ratio of the given-up counts:
    partial_pressure_compare.py WARPSIM [--arch h200] [--set path=value ...]
        [--tsv validate/reference/h200/partial_pressure.tsv] [--skip-twins]
--skip-twins leaves out the shapes of the reference's own twins (2048 and 4096 square, pitch
as wide, row-major), so that what is fitted to the rest can be checked on them.
Each warp of the trace is the twin's: its thread index, four loads of a row of the input and four
stores, each into one sector of 32 lines `pitch` floats apart.
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

from probe_trace import write_warps

HERE = os.path.dirname(os.path.abspath(__file__))
TSV = os.path.join(HERE, "..", "..", "reference", "h200", "partial_pressure.tsv")
IN_BASE, OUT_BASE = 0x7F0000000000, 0x7F0010000000
TILE, ROWS = 32, 8


def warp_lines(rows, cols, pitch, order):
    n, blocks, col_blocks = rows, rows // TILE, cols // TILE

    def lines(cta, warp):
        bx, by = ((cta % blocks, cta // blocks) if order == 0
                  else (cta // col_blocks, cta % col_blocks))
        y = by * TILE + warp
        out = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R1 S2R 0 0 0"]
        for j in range(0, TILE, ROWS):
            addr = IN_BASE + 4 * ((y + j) * n + bx * TILE)
            out.append(f"{0x20 + j:04x} ffffffff 1 R{4 + j // ROWS} LDG.E 1 R2 4 1 "
                       f"0x{addr:016x} 4 0")
        for j in range(0, TILE, ROWS):
            addr = OUT_BASE + 4 * (bx * TILE * pitch + y + j)
            out.append(f"{0x60 + j:04x} ffffffff 0 STG.E 2 R3 R{4 + j // ROWS} 4 1 "
                       f"0x{addr:016x} {4 * pitch} 0")
        out.append("0100 ffffffff 0 EXIT 0 0 0")
        return out
    return lines


def measured(path):
    """{(rows, cols, pitch, order): (given up, DRAM read, DRAM written, cycles)}, medians over the
    repeats of the launches after an L2 of clean lines."""
    runs = {}
    for r in csv.DictReader(open(path), delimiter="\t"):
        if r["state"] != "clean":
            continue
        key = (int(r["rows"]), int(r["cols"]), int(r["pitch"]), int(r["order"]))
        runs.setdefault(key, []).append(
            [float(r[m]) for m in ("lts__t_requests_op_write_evict_first.sum",
                                   "dram__bytes_read.sum", "dram__bytes_write.sum",
                                   "gpc__cycles_elapsed.max")])
    return {k: tuple(statistics.median(v[i] for v in vs) for i in range(4))
            for k, vs in runs.items()}


def simulate(warpsim, args, key):
    rows, cols, pitch, order = key
    with tempfile.TemporaryDirectory() as t:
        write_warps(t, "probe_transpose", (rows // TILE) * (cols // TILE), TILE * ROWS,
                    warp_lines(rows, cols, pitch, order))
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            subprocess.run([warpsim, "run", "--trace", os.path.join(t, "kernelslist.g"),
                            "--json", out.name, "--quiet"] + args,
                           check=True, stdout=subprocess.DEVNULL)
            k = json.load(open(out.name))["kernels"][0]
    m, l2 = k["metrics"], k["stats"]["gpu"]["l2"]
    return (l2.get("partial_lines_given_up", 0), m["dram__bytes_read.sum"],
            m["dram__bytes_write.sum"], m["gpc__cycles_elapsed.max"])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("warpsim")
    p.add_argument("--arch", default="h200")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--tsv", default=TSV)
    p.add_argument("--skip-twins", action="store_true")
    a = p.parse_args()
    args = ["--arch", a.arch] + [x for s in a.set for x in ("--set", s)]
    ref = measured(a.tsv)
    keys = sorted(k for k in ref
                  if not (a.skip_twins and k[3] == 0 and k[0] == k[1] == k[2]))
    print("rows\tcols\tpitch\torder\tgiven up GPU / model (k)\tread MB\twritten MB\tcycles")
    logs = []
    for key in keys:
        g, s = ref[key], simulate(a.warpsim, args, key)
        logs.append(math.log(max(s[0], 1) / max(g[0], 1)))
        print(f"{key[0]}\t{key[1]}\t{key[2]}\t{key[3]}\t{g[0] / 1e3:.1f} / {s[0] / 1e3:.1f}\t"
              f"{g[1] / 1e6:.2f} / {s[1] / 1e6:.2f}\t{g[2] / 1e6:.2f} / {s[2] / 1e6:.2f}\t"
              f"{g[3]:.0f} / {s[3]:.0f}", flush=True)
    print(f"rms log ratio of the given-up lines: "
          f"{math.sqrt(sum(x * x for x in logs) / len(logs)):.3f}")


if __name__ == "__main__":
    main()
