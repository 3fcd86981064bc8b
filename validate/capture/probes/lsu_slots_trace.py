#!/usr/bin/env python3
"""The simulator's side of lsu_slots.cu: writes each launch of the probe as an Accel-Sim trace, runs
it on warpsim with a timeline, and prints the warps' clock stamps in lsu_slots.tsv's format, so
that lsu_slots_summary.py reads both:
    lsu_slots_trace.py WARPSIM [--set path=value ...] > model.tsv
    lsu_slots_summary.py model.tsv

One CTA of W warps on one SM, following the probe's SASS (validate/reference/h200/lsu_slots_sass.txt).
probe_loads<L>: each warp warms the 32 lines (32 loads of 32 lines, lane l reading line l), waits
at the barrier, stamps (CS2R), then 32 times a load of L lines (lane l reading line l * L / 32) and
a stamp, then 32 stamps alone (ptxas merged loads i and i + 32, which read the same words).
probe_store_address: warp 0 stamps, then 64 times a store (ptxas folded the adds into the stores'
offsets) and a stamp; the other warps load 32 lines 64 times. The stamps are the CS2R's issue
cycles, counted from the first (the SM clock of the preset)."""
import argparse
import os
import sys
import tempfile

from probe_trace import cs2r_stamps

BASE, DST = 0x7F0000000000, 0x7F0000100000
ACCESSES = 64
LOAD_WIDTHS = (1, 2, 4, 8, 16, 32)
WARPS = (1, 4, 8, 12)
HEADER = ("-kernel name = {name}\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = ({threads},1,1)\n"
          "-shmem = 0\n-nregs = 136\n-binary version = 90\n-cuda stream id = 0\n"
          "-shmem base_addr = 0x00007f4e3a000000\n-local mem base_addr = 0x00007f4e38000000\n"
          "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
          "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
          "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


class Warp:
    def __init__(self):
        self.lines, self.pc = [], 0

    def add(self, text):
        self.lines.append(f"{self.pc:04x} {text}")
        self.pc += 0x10


def warm(w):
    w.add("ffffffff 1 R0 S2R 0 0 0")
    for i in range(32):
        w.add(f"ffffffff 1 R{8 + i % 8} LDG.E.STRONG.SM 1 R2 4 1 0x{BASE + 4 * i:016x} 128 0")
        w.add(f"ffffffff 1 R7 FADD 2 R7 R{8 + i % 8} 0 0")
    w.add("ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0")


def load_warp(lines_per_load):
    w = Warp()
    warm(w)
    w.add("ffffffff 1 R100 CS2R 0 0 0")
    for i in range(ACCESSES):
        if i < 32:
            addrs = " ".join(f"0x{BASE + (lane * lines_per_load // 32) * 128 + 4 * i:016x}"
                             for lane in range(32))
            w.add(f"ffffffff 1 R{20 + i} LDG.E.STRONG.SM 1 R2 4 0 {addrs} 0")
        w.add(f"ffffffff 1 R{101 + i % 32} CS2R 0 0 0")
    w.add("ffffffff 0 EXIT 0 0 0")
    return w.lines


def store_warp(first):
    w = Warp()
    warm(w)
    if first:
        w.add("ffffffff 1 R100 CS2R 0 0 0")
        for i in range(ACCESSES):
            w.add(f"ffffffff 0 STG.E 2 R2 R7 4 1 0x{DST + 128 * i:016x} 4 0")
            w.add(f"ffffffff 1 R{101 + i % 32} CS2R 0 0 0")
    else:
        for i in range(ACCESSES):
            w.add(f"ffffffff 1 R{20 + i % 8} LDG.E.STRONG.SM 1 R2 4 1 0x{BASE + 4 * (i % 32):016x} 128 0")
            if i % 8 == 7:
                for j in range(8):
                    w.add(f"ffffffff 1 R7 FADD 2 R7 R{20 + j} 0 0")
    w.add("ffffffff 0 EXIT 0 0 0")
    return w.lines


def write(out, name, warps, lines_of):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(HEADER.format(name=name, threads=32 * warps))
        f.write("#BEGIN_TB\n\nthread block = 0,0,0\n\n")
        for warp in range(warps):
            lines = lines_of(warp)
            f.write(f"warp = {warp}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
        f.write("#END_TB\n\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warpsim")
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    extra = [x for s in args.set for x in ("--set", s)]
    print("kernel\tlines\twarps\twarp\taccess\tcycles")
    with tempfile.TemporaryDirectory() as t:
        runs = [("loads", n, w) for n in LOAD_WIDTHS for w in WARPS]
        runs += [("store_address", 1, w) for w in WARPS]
        for kernel, n, warps in runs:
            d = os.path.join(t, f"{kernel}_{n}_{warps}")
            if kernel == "loads":
                write(d, f"probe_loads_{n}", warps, lambda _w, n=n: load_warp(n))
            else:
                write(d, "probe_store_address", warps, lambda w: store_warp(w == 0))
            for w, t_w in enumerate(cs2r_stamps(args.warpsim, d, ["--arch", "h200"] + extra)):
                if kernel == "store_address" and w > 0:
                    break
                for i in range(ACCESSES):
                    print(f"{kernel}\t{n}\t{warps}\t{w}\t{i}\t{t_w[i + 1] - t_w[0]}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
