#!/usr/bin/env python3
"""The simulator's side of l1_merge.cu: writes each launch of the probe as an Accel-Sim trace (a
warm-up kernel, then the probe, the L2 carried between them), runs it on warpsim with a timeline
and prints the warps' stamps in l1_merge.tsv's format, so that l1_merge_summary.py reads both:
    l1_merge_trace.py WARPSIM [--arch h200] [--set path=value ...] > model.tsv
    l1_merge_summary.py model.tsv

Warm-up: 132 CTAs of one warp, each reading one word of every sector of the buffer (so both L2
partitions hold every line). Probe: one CTA of W warps; each round a barrier, a stamp (CS2R), P
loads of the round's shared line (lane l reading word l) with the load of the warp's own line
second among them, as ptxas placed it, an FADD that reads the own line (the probe's shared store
of it), a stamp, an FADD of the shared loads, a stamp. The stamps are the CS2R's issue cycles at
the preset's SM clock."""
import os
import tempfile

from probe_trace import cs2r_stamps, warpsim_args

BASE = 0x7F0000000000
ROUNDS, MAX_WARPS = 8, 32
LINES_PER_ROUND = 1 + MAX_WARPS
BUFFER_LINES = ROUNDS * LINES_PER_ROUND
SHARED_LOADS = (1, 2, 4)
WARPS = (1, 2, 4, 6, 8, 12, 16, 24, 32)
HEADER = ("-kernel name = {name}\n-kernel id = {kid}\n-grid dim = ({ctas},1,1)\n"
          "-block dim = ({threads},1,1)\n-shmem = 0\n-nregs = 64\n-binary version = 90\n"
          "-cuda stream id = 0\n-shmem base_addr = 0x00007f4e3a000000\n"
          "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
          "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
          "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
          "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


def line_load(dest, line):
    """An LDG whose 32 lanes read the 32 words of `line`."""
    return f"ffffffff 1 R{dest} LDG.E 1 R2 4 1 0x{BASE + 128 * line:016x} 4 0"


def numbered(body):
    return [f"{0x10 * i:04x} {text}" for i, text in enumerate(body)]


def warm_warp():
    body = ["ffffffff 1 R0 S2R 0 0 0"]
    for first in range(0, BUFFER_LINES * 4, 32):
        body.append(f"ffffffff 1 R{4 + first // 32 % 8} LDG.E 1 R2 4 1 "
                    f"0x{BASE + 32 * first:016x} 32 0")
    body.append("ffffffff 1 R20 FADD 2 R4 R5 0")
    body.append("ffffffff 0 EXIT 0 0 0")
    return numbered(body)


def probe_warp(warp, shared_loads):
    body = ["ffffffff 1 R0 S2R 0 0 0"]
    for r in range(ROUNDS):
        shared = r * LINES_PER_ROUND
        body.append("ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0")
        body.append("ffffffff 1 R100 CS2R 0 0 0")
        # ptxas issues the warp's own load second (l1_merge_sass.txt, the first round).
        body.append(line_load(10, shared))
        body.append(line_load(20, shared + 1 + warp))
        for p in range(1, shared_loads):
            body.append(line_load(10 + p, shared))
        body.append("ffffffff 1 R21 FADD 2 R20 R20 0")
        body.append("ffffffff 1 R101 CS2R 0 0 0")
        srcs = " ".join(f"R{10 + p}" for p in range(min(shared_loads, 2)))
        body.append(f"ffffffff 1 R22 FADD {min(shared_loads, 2)} {srcs} 0")
        for p in range(2, shared_loads):
            body.append(f"ffffffff 1 R22 FADD 2 R22 R{10 + p} 0")
        body.append("ffffffff 1 R102 CS2R 0 0 0")
    body.append("ffffffff 0 EXIT 0 0 0")
    return numbered(body)


def write(out, warps, shared_loads):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\nkernel-2.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(HEADER.format(name="warm_l2", kid=1, ctas=132, threads=32))
        lines = warm_warp()
        for cta in range(132):
            f.write(f"#BEGIN_TB\n\nthread block = {cta},0,0\n\n")
            f.write(f"warp = 0\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n#END_TB\n\n")
    with open(os.path.join(out, "kernel-2.traceg"), "w") as f:
        f.write(HEADER.format(name=f"probe_merge_{shared_loads}", kid=2, ctas=1, threads=32 * warps))
        f.write("#BEGIN_TB\n\nthread block = 0,0,0\n\n")
        for warp in range(warps):
            lines = probe_warp(warp, shared_loads)
            f.write(f"warp = {warp}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
        f.write("#END_TB\n\n")


def main():
    warpsim, extra = warpsim_args(__doc__.splitlines()[0], "h200")
    print("shared_loads\twarps\tround\twarp\town\tshared")
    with tempfile.TemporaryDirectory() as t:
        for p in SHARED_LOADS:
            for warps in WARPS:
                d = os.path.join(t, f"{p}_{warps}")
                write(d, warps, p)
                warm = ["--set", "launch.cache_start=WARM"]
                for w, s in enumerate(cs2r_stamps(warpsim, d, warm + extra)):
                    for r in range(ROUNDS):
                        t0, t1, t2 = s[3 * r: 3 * r + 3]
                        print(f"{p}\t{warps}\t{r}\t{w}\t{t1 - t0}\t{t2 - t0}")


if __name__ == "__main__":
    main()
