"""The Accel-Sim trace of a probe's grid-stride kernel, shared by the probes' *_trace.py scripts:
CTAS CTAs of THREADS threads (as the CUDA probes launch them), each warp reading its thread index
(two S2R), then per loop iteration the probe's memory instructions and the loop's IADD3 / ISETP /
BRA, then EXIT. write_launch puts one such kernel in a directory of its own (write_warps one whose
warps the caller writes whole), and simulate runs a
launch's trace on the simulator, for the probes' *_compare.py scripts. cs2r_stamps runs a trace
with a timeline and returns each warp's clock stamps (lsu_slots_trace.py, l1_merge_trace.py,
sector_walk_trace.py); warpsim_args parses such a script's WARPSIM, --arch and --set.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile

CTAS, THREADS, BASE = 132 * 8, 256, 0x7F0000000000


def write_header(f, name, kernel_id, ctas, threads, shmem=0, shmem_base=0x00007F4E3A000000):
    """Writes the header of kernel `name` (ctas CTAs of threads threads, shmem bytes of shared
    memory whose window starts at shmem_base) to the open file f."""
    f.write(f"-kernel name = {name}\n-kernel id = {kernel_id}\n-grid dim = ({ctas},1,1)\n"
            f"-block dim = ({threads},1,1)\n-shmem = {shmem}\n-nregs = 16\n-binary version = 90\n"
            f"-cuda stream id = 0\n-shmem base_addr = 0x{shmem_base:016x}\n"
            "-local mem base_addr = 0x00007f4e38000000\n-nvbit version = 1.5.5\n"
            "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
            "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


def write_ctas(f, ctas, threads, warp_lines):
    """Writes every CTA to the open file f, warp w of CTA cta running warp_lines(cta, w)."""
    for cta in range(ctas):
        f.write(f"#BEGIN_TB\n\nthread block = {cta},0,0\n\n")
        for warp in range(threads // 32):
            lines = warp_lines(cta, warp)
            f.write(f"warp = {warp}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
        f.write("#END_TB\n\n")


def write_kernel(f, name, kernel_id, iterations):
    """Writes kernel `name` to the open file f; iterations(first) gives, for the warp whose first
    thread is `first`, one list of memory-instruction lines per loop iteration."""
    write_header(f, name, kernel_id, CTAS, THREADS)

    def warp_lines(cta, warp):
        lines = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R1 S2R 0 0 0"]
        for body in iterations(cta * THREADS + warp * 32):
            lines += body
            lines.append("0040 ffffffff 1 R2 IADD3 2 R2 R3 0")
            lines.append("0050 ffffffff 1 P0 ISETP.GE.U32.AND 2 R2 R9 0")
            lines.append("0060 ffffffff 0 BRA 1 P0 0")
        lines.append("0070 ffffffff 0 EXIT 0 0 0")
        return lines

    write_ctas(f, CTAS, THREADS, warp_lines)


def write_launch(out, name, ctas, threads, iterations):
    """Writes OUT/kernelslist.g and OUT/kernel-1.traceg: kernel `name` of `ctas` CTAs of `threads`
    threads, whose warps run `iterations` (as write_kernel)."""
    global CTAS, THREADS
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    CTAS, THREADS = ctas, threads
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        write_kernel(f, name, 1, iterations)


def write_warps(out, name, ctas, threads, warp_lines, shmem=0):
    """Writes OUT/kernelslist.g and OUT/kernel-1.traceg: kernel `name` of `ctas` CTAs of `threads`
    threads and `shmem` bytes of shared memory (window at 0), whose warp `w` of CTA `cta` runs
    warp_lines(cta, w), complete Accel-Sim instruction lines."""
    write_kernels(out, name, [(ctas, warp_lines)], threads, shmem)


def write_kernels(out, name, kernels, threads, shmem=0):
    """As write_warps, for kernels launched back to back: OUT/kernel-I.traceg for each
    (ctas, warp_lines) of `kernels`, in order, listed in OUT/kernelslist.g."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("".join(f"kernel-{i + 1}.traceg\n" for i in range(len(kernels))))
    for i, (ctas, warp_lines) in enumerate(kernels):
        with open(os.path.join(out, f"kernel-{i + 1}.traceg"), "w") as f:
            write_header(f, name, i + 1, ctas, threads, shmem, 0)
            write_ctas(f, ctas, threads, warp_lines)


def simulate(warpsim, trace_script, launch, extra):
    """Writes `launch` with `trace_script` (a *_trace.py taking OUT_DIR and launch names), runs it
    on the H200 preset (or the --arch among the `extra` arguments) with the `extra` arguments, and
    returns its first kernel's metrics."""
    arch = [] if "--arch" in extra else ["--arch", "h200"]
    with tempfile.TemporaryDirectory() as t:
        subprocess.run([sys.executable, trace_script, t, launch], check=True)
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            subprocess.run([warpsim, "run", "--trace", os.path.join(t, launch, "kernelslist.g"),
                            "--json", out.name, "--quiet"] + arch + extra,
                           check=True, stdout=subprocess.DEVNULL)
            return json.load(open(out.name))["kernels"][0]["metrics"]


def dram_read_row(values, m):
    """One launch of a DRAM read probe: `values` the GPU's runs as (gpc__cycles_elapsed.max,
    gpc__cycles_elapsed.avg.per_second, dram__bytes_read.sum), `m` the simulated metrics. Returns
    the median cycles, the simulated cycles, the relative error and both read bandwidths in GB/s,
    tab-separated as the *_compare.py scripts print them, with the error."""
    cycles = statistics.median(v[0] for v in values)
    hz = statistics.median(v[1] for v in values)
    measured_gbs = statistics.median(v[2] for v in values) / (cycles / hz) / 1e9
    sim = m["gpc__cycles_elapsed.max"]
    sim_gbs = m["dram__bytes_read.sum"] / m["gpu__time_duration.sum"]  # bytes per ns
    error = sim / cycles - 1
    return (f"{cycles:.0f}\t{sim:.0f}\t{100 * error:+.1f}%\t{measured_gbs:.0f}\t{sim_gbs:.0f}",
            error)


def cs2r_stamps(warpsim, trace_dir, run_args):
    """Runs OUT_DIR/kernelslist.g of `trace_dir` on the simulator with a timeline (`run_args`: the
    --arch and --set arguments) and returns each warp's CS2R issue cycles at the preset's SM
    clock, one sorted list per warp in (SM, warp slot) order: the clock stamps of the probes that
    time themselves with clock64."""
    with tempfile.NamedTemporaryFile(suffix=".json") as tl, \
         tempfile.NamedTemporaryFile(suffix=".json") as js:
        subprocess.run([warpsim, "run", "--trace", os.path.join(trace_dir, "kernelslist.g"),
                        "--timeline", tl.name, "--json", js.name, "--quiet"] + run_args,
                       check=True, stdout=subprocess.DEVNULL)
        ghz = json.load(open(js.name))["arch"]["config"]["clocks"]["sm_mhz"] / 1000.0
        events = json.load(open(tl.name))["traceEvents"]
    by_warp = collections.defaultdict(list)
    for e in events:
        if e.get("cat") == "issue" and e.get("ph") == "X" and e["name"] == "CS2R":
            by_warp[(e["pid"], e["tid"])].append(round(e["ts"] * 1000 * ghz))
    return [sorted(t) for _, t in sorted(by_warp.items())]


def warpsim_args(description, default_arch):
    """Parses a trace script's command line (WARPSIM [--arch A] [--set path=value ...]) and returns
    the warpsim binary and the --arch / --set arguments for its runs."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("warpsim")
    parser.add_argument("--arch", default=default_arch)
    parser.add_argument("--set", action="append", default=[])
    args = parser.parse_args()
    return args.warpsim, ["--arch", args.arch] + [x for s in args.set for x in ("--set", s)]

