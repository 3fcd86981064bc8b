#!/usr/bin/env python3
"""Writes the burst probe (burst.cu) as Accel-Sim traces, one directory per shape, and summarises a
warpsim --timeline of one the way burst_summary.py summarises the H200's rows:
    burst_trace.py write OUT_DIR
    warpsim run --trace OUT_DIR/all/kernelslist.g --timeline T.json    (sm0: --set sm.count=1)
    burst_trace.py summary T.json 1.96
With the L2 warm (the H200's "warm" rows): list the kernel twice in kernelslist.g and run with
--set launch.cache_start=WARM; the summary takes the last kernel's warps (the second half of the
timeline's issue events, which holds for the one-SM shapes one_cta and sm0 only).
Each warp: S2R (t0), 4 LDG of its rows of matrix a, 4 STS of them, CS2R (t1), 4 LDG of the same
rows of b, 4 STS, CS2R (t2), EXIT. Shapes: one_cta (CTA (0,0)), sm0 (the first 8 CTAs, for a
one-SM run), all (64 x 16 CTAs).
"""
import collections
import json
import os
import statistics
import sys

N, TILE, ROWS, TILE_ROWS = 2048, 32, 8, 16
A = 0x7F0000000000
B = A + N * TILE * TILE_ROWS * 4
SHARED = 0x00007F4E3A000000
SHAPES = {"one_cta": 1, "sm0": 8, "all": 64 * TILE_ROWS}

HEADER = ("-kernel name = probe_burst\n-kernel id = 1\n-grid dim = ({gx},{gy},1)\n"
          "-block dim = (32,8,1)\n-shmem = 8448\n-nregs = 24\n-binary version = 90\n"
          "-cuda stream id = 0\n-shmem base_addr = 0x00007f4e3a000000\n"
          "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
          "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
          "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
          "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


def warp_lines(bx, by, ty):
    lines = ["0000 ffffffff 1 R2 S2R 0 0 0"]
    pc = 0x10
    for phase, base in enumerate((A, B)):
        for j in range(4):
            row = by * TILE + ty + ROWS * j
            addr = base + (row * N + bx * TILE) * 4
            lines.append(f"{pc:04x} ffffffff 1 R{4 + j} LDG.E.CONSTANT 1 R{20 + j} 4 1 0x{addr:016x} 4 0")
            pc += 0x10
        for j in range(4):
            saddr = SHARED + phase * 4224 + ((ty + ROWS * j) * (TILE + 1)) * 4
            lines.append(f"{pc:04x} ffffffff 0 STS 2 R10 R{4 + j} 4 1 0x{saddr:016x} 4 0")
            pc += 0x10
        lines.append(f"{pc:04x} ffffffff 1 R{12 + phase} CS2R 0 0 0")
        pc += 0x10
    lines.append(f"{pc:04x} ffffffff 0 EXIT 0 0 0")
    return lines


def write(out):
    for shape, ctas in SHAPES.items():
        d = os.path.join(out, shape)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "kernelslist.g"), "w") as f:
            f.write("kernel-1.traceg\n")
        with open(os.path.join(d, "kernel-1.traceg"), "w") as f:
            f.write(HEADER.format(gx=min(ctas, 64), gy=max(1, ctas // 64)))
            for cta in range(ctas):
                bx, by = cta % 64, cta // 64
                f.write(f"#BEGIN_TB\n\nthread block = {bx},{by},0\n\n")
                for ty in range(ROWS):
                    lines = warp_lines(bx, by, ty)
                    f.write(f"warp = {ty}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
                f.write("#END_TB\n\n")


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(path, ghz):
    events = json.load(open(path))["traceEvents"]
    # Only the last kernel's warps: a warm run lists the probe twice, and the timeline lists each
    # kernel's events in turn, their times counted from the kernel's start.
    kernels = sum(1 for e in events if e.get("name", "").startswith("kernel "))
    issues = [e for e in events if e.get("cat") == "issue" and e.get("ph") == "X"]
    slots = collections.defaultdict(list)
    for e in issues[len(issues) * (kernels - 1) // kernels:]:
        slots[(e["pid"], e["tid"])].append((e["ts"], e["name"]))
    warps = []
    for (sm, _), issues in slots.items():
        issues.sort()
        t = [round(ts * 1000 * ghz) for ts, name in issues if name in ("S2R", "CS2R")]
        for k in range(0, len(t) - 2, 3):
            warps.append((sm, t[k], t[k + 1], t[k + 2]))
    by_sm = collections.defaultdict(list)
    for w in warps:
        by_sm[w[0]].append(w)
    print(f"{path}: {len(warps)} warps on {len(by_sm)} SMs")
    for name, lo, hi in (("phase1", 1, 2), ("phase2", 2, 3)):
        spans = [w[hi] - w[lo] for w in warps]
        first = [min(w[hi] for w in ws) - min(w[1] for w in ws) for ws in by_sm.values()]
        last = [max(w[hi] for w in ws) - min(w[1] for w in ws) for ws in by_sm.values()]
        print(f"  {name}: p10 {pct(spans, 0.1)} median {pct(spans, 0.5)} p90 {pct(spans, 0.9)}"
              f"; SM's first done at {statistics.median(first):.0f}, last at "
              f"{statistics.median(last):.0f}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "summary":
        summary(sys.argv[2], float(sys.argv[3]))
    else:
        sys.exit(__doc__)
