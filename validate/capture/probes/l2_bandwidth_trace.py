#!/usr/bin/env python3
"""Writes the L2 bandwidth probe (l2_bandwidth.cu) as Accel-Sim traces and simulates it, for the
simulator side of validate/reference/h200/l2_bandwidth.tsv: per share size, the warm-up read
(2 passes), the read (16 passes of 16-byte loads) and the write (16 passes of 16-byte stores),
132 CTAs of 1024 threads, CTA c touching share (c + p) mod 132 in pass p, as the CUDA probe (its
unrolled loop: four loads, then their adds; four stores). The three kernels run in one
simulation with the caches carried from one to the next (launch.cache_start WARM), as the probe
ran under --cache-control none. Prints one row per launch as l2_bandwidth.sh does, with the
simulated SM cycles, L2 read sectors and all sectors looked up, and DRAM bytes:
    l2_bandwidth_trace.py WARPSIM [--arch h100] [--set path=value ...] > model.tsv
"""
import json
import os
import subprocess
import sys
import tempfile

import probe_trace
from probe_trace import BASE

CTAS, THREADS, PASSES, SHARES_KIB = 132, 1024, 16, (32, 64, 128)


def iterations(kind, share, passes):
    """write_kernel's iterations: per loop iteration of four accesses, their lines."""
    def body(first):
        cta, tid = divmod(first, THREADS)
        for p in range(passes):
            base = BASE + ((cta + p) % CTAS) * share * 16
            for i in range(tid, share, 4 * THREADS):
                addrs = [base + 16 * (i + k * THREADS) for k in range(4) if i + k * THREADS < share]
                if kind == "read":
                    lines = [f"0020 ffffffff 1 R{4 + 4 * k} LDG.E.128 1 R2 16 1 0x{a:016x} 16 0"
                             for k, a in enumerate(addrs)]
                    lines += [f"0030 ffffffff 1 R20 FADD 2 R20 R{4 + 4 * k} 0"
                              for k in range(len(addrs))]
                else:
                    lines = [f"0020 ffffffff 0 STG.E.128 2 R2 R4 16 1 0x{a:016x} 16 0" for a in addrs]
                yield lines
    return body


def main():
    warpsim, extra = sys.argv[1], sys.argv[2:]
    print("variant\tkernel\tshare_kib\tpasses\tgpc__cycles_elapsed.max\t"
          "lts__t_sectors_srcunit_tex_op_read.sum\tlts__t_sectors.sum\t"
          "dram__bytes_read.sum\tdram__bytes_write.sum")
    for kib in SHARES_KIB:
        share = kib * 1024 // 16
        launches = [("warm", "read", 2), ("read", "read", PASSES), ("write", "write", PASSES)]
        with tempfile.TemporaryDirectory() as t:
            probe_trace.CTAS, probe_trace.THREADS = CTAS, THREADS
            with open(os.path.join(t, "kernelslist.g"), "w") as f:
                f.write("".join(f"kernel-{k + 1}.traceg\n" for k in range(len(launches))))
            for k, (_, kind, passes) in enumerate(launches):
                with open(os.path.join(t, f"kernel-{k + 1}.traceg"), "w") as f:
                    probe_trace.write_kernel(f, f"probe_{kind}", k + 1,
                                             iterations(kind, share, passes))
            out = os.path.join(t, "out.json")
            arch = [] if "--arch" in extra else ["--arch", "h200"]
            subprocess.run([warpsim, "run", "--trace", os.path.join(t, "kernelslist.g"), "--set",
                            "launch.cache_start=WARM", "--json", out, "--quiet"] + arch + extra,
                           check=True, stdout=subprocess.DEVNULL)
            kernels = json.load(open(out))["kernels"]
        for (variant, kind, passes), kern in zip(launches, kernels):
            m = kern["metrics"]
            print("\t".join([f"{variant}/{kib}", f"probe_{kind}", str(kib), str(passes)] + [
                f"{m.get(c, 0):.0f}" for c in (
                    "gpc__cycles_elapsed.max", "lts__t_sectors_srcunit_tex_op_read.sum",
                    "lts__t_sectors.sum", "dram__bytes_read.sum",
                    "dram__bytes_write.sum")]))


if __name__ == "__main__":
    main()
