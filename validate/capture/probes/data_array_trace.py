#!/usr/bin/env python3
"""Writes the data-array probe of data_array.cu as Accel-Sim traces, one directory per launch
(KIND_B: KIND ldg_hit, lds or none, B bank warps), for the simulator side of the probe, and with
--compare WARPSIM sets the model's probe-warp times beside validate/reference/h200/data_array.tsv:
    data_array_trace.py OUT_DIR [KIND_B ...]
    data_array_trace.py --compare WARPSIM [KIND_B ...]
One CTA of (B + 1) warps. The bank warps issue 32 shared loads each, then their sums, every one
32-way conflicted (32 wavefronts): the source's two batches of 32 read the same addresses and
ptxas keeps one (reference/h200/data_array_sass.txt: 32 LDS on the bank warps' path). Warp 0 warms the 32-line ring into the L1
(ldg_hit), all warps meet at a barrier, warp 0 spends about 300 cycles on a dependent FFMA chain
(the probe's spin) and then chases 48 dependent loads: one whole L1-resident line per global load
(ldg_hit) or one wavefront per shared load (lds). The compared figure is the cycles from the
chase's first load to the instruction after its 48th (the probe's clock stamps).
"""
import os
import re
import subprocess
import sys
import tempfile

import probe_trace

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "..", "reference", "h200", "data_array.tsv")
STEPS, BANK_LOADS, LINES = 48, 32, 32
SHARED_ROWS = 0x0  # rows[32 * 32], then sring[32 * 32]
SHARED_RING = 32 * 32 * 4
SPIN_FFMAS = 75  # 4 cycles each: about the probe's 300
LAUNCHES = [f"{k}_{b}" for k in ("ldg_hit", "lds") for b in (0, 3, 7, 15)]


def next_line(line):
    return (line * 13 + 7) % LINES


def addresses(base, stride):
    return " ".join(f"0x{base + stride * lane:016x}" for lane in range(32))


def bank_warp():
    lines = []
    for i in range(BANK_LOADS):
        # Lane l reads rows[((l + i) % 32) * 32 + i]: 32 rows of one bank.
        addrs = " ".join(f"0x{SHARED_ROWS + 4 * (((lane + i) % 32) * 32 + i):016x}"
                         for lane in range(32))
        lines.append(f"0100 ffffffff 1 R{10 + i} LDS 1 R2 4 0 {addrs} 0")
    for i in range(BANK_LOADS):
        lines.append(f"0110 ffffffff 1 R3 IADD3 2 R3 R{10 + i} 0")
    return lines


def probe_warp(kind):
    lines = []
    if kind == "ldg_hit":
        for line in range(LINES):  # the warm-up, its sum waited for before the barrier
            lines.append(f"0200 ffffffff 1 R{10 + line % 16} LDG.E 1 R4 4 0 "
                         f"{addresses(probe_trace.BASE + 128 * line, 4)} 0")
        lines.append("0210 ffffffff 1 R3 IADD3 2 R10 R25 0")
    lines.append("0220 ffffffff 0 BAR.SYNC 0 0")
    for _ in range(SPIN_FFMAS):
        lines.append("0230 ffffffff 1 R6 FFMA 2 R6 R7 0")
    line = 0
    for _ in range(STEPS):
        if kind == "ldg_hit":
            lines.append(f"0240 ffffffff 1 R4 LDG.E 1 R4 4 0 "
                         f"{addresses(probe_trace.BASE + 128 * line, 4)} 0")
        elif kind == "lds":
            ring = addresses(SHARED_RING + 128 * line, 4)
            lines.append(f"0240 ffffffff 1 R4 LDS 1 R4 4 0 {ring} 0")
        else:
            lines.append("0240 ffffffff 1 R4 IADD3 1 R4 0")
        line = next_line(line)
    lines.append("0250 ffffffff 1 R5 IADD3 1 R4 0")  # the stamp after the last hop
    lines.append("0260 ffffffff 0 EXIT 0 0 0")
    return lines


def write(out, kind, banks):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    threads = 32 * (banks + 1)
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(f"-kernel name = data_array_{kind}_{banks}\n-kernel id = 1\n-grid dim = (1,1,1)\n"
                f"-block dim = ({threads},1,1)\n-shmem = 8192\n-nregs = 64\n"
                "-binary version = 90\n-cuda stream id = 0\n"
                "-shmem base_addr = 0x0000000000000000\n"
                "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
                "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
                "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n"
                "#BEGIN_TB\n\nthread block = 0,0,0\n\n")
        for warp in range(banks + 1):
            body = probe_warp(kind) if warp == 0 else (
                ["0220 ffffffff 0 BAR.SYNC 0 0"] + bank_warp() + ["0260 ffffffff 0 EXIT 0 0 0"])
            f.write(f"warp = {warp}\ninsts = {len(body)}\n" + "\n".join(body) + "\n\n")
        f.write("#END_TB\n\n")


def chase_cycles(timeline):
    """Cycles from warp 0's first chase load to the instruction after its last (the timeline's
    times are in microseconds; an issue event lasts one SM cycle)."""
    issue = re.compile(r'^\{"name":"([^"]*)","cat":"issue","ph":"X","pid":(\d+),"tid":(\d+),'
                       r'"ts":([\d.]+),"dur":([\d.]+)')
    first = last = None
    spun = False
    with open(timeline) as f:
        for text in f:
            m = issue.match(text)
            if not m or m.group(3) != "1":  # warp slot 0
                continue
            name, ts, cycle = m.group(1), float(m.group(4)), float(m.group(5))
            if name in ("LDG.E", "LDS", "IADD3") and first is None and spun:
                first = ts
            spun = spun or name == "FFMA"
            if name == "IADD3":
                last = ts
    return (last - first) / cycle if first is not None else float("nan")



def measured():
    out = {}
    with open(REF) as f:
        next(f)
        for text in f:
            kind, banks, role, _warp, step, cycles = text.rstrip("\n").split("\t")
            if role == "probe" and int(step) == STEPS:
                out[f"{kind}_{banks}"] = int(cycles)
    return out


def compare(warpsim, launches):
    ref = measured()
    print("launch\tH200\tmodel")
    for launch in launches:
        kind, banks = launch.rsplit("_", 1)
        with tempfile.TemporaryDirectory() as t:
            write(t, kind, int(banks))
            timeline = os.path.join(t, "timeline.json")
            subprocess.run([warpsim, "run", "--trace", os.path.join(t, "kernelslist.g"),
                            "--arch", "h200", "--quiet", "--timeline", timeline],
                           check=True, stdout=subprocess.DEVNULL)
            print(f"{launch}\t{ref.get(launch, '')}\t{chase_cycles(timeline):.0f}")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3:] or LAUNCHES)
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for launch in sys.argv[2:] or LAUNCHES:
        kind, banks = launch.rsplit("_", 1)
        write(os.path.join(sys.argv[1], launch), kind, int(banks))


if __name__ == "__main__":
    main()
