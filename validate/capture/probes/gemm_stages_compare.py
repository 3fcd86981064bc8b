#!/usr/bin/env python3
"""How closely the GEMM twin's CTAs keep in step, on the H200 and in the model.

Reads the H200's stage stamps (gemm_stages.tsv, from gemm_stages.sh) and the model's timeline of
the same point (warpsim run --workload gemm_wgmma_bf16 --param m=N --param n=N --param k=N
--timeline FILE.json; raise --timeline-events so that none are dropped). A stage's start is, in
the model, the first LDG of the CTA's first warp in that stage (12 a stage); its tiles are in
shared memory at the first HGMMA after them (4 a stage), where the H200 stamps after the barrier.
Prints per source: the median stage period, the load phase (start to tiles in) as median and
10th-90th percentile over CTAs and stages, and how far apart the readers of one line start a
stage: the median over stages and grid columns (the 16 or 32 CTAs reading the same B lines) of
the range and standard deviation of their starts, and the same over grid rows (A lines).

  gemm_stages_compare.py validate/reference/h200/gemm_stages.tsv N TIMELINE.json
"""
import collections
import csv
import json
import re
import statistics
import sys


def h200(path, size):
    runs = collections.defaultdict(dict)  # run -> (bx, by, stage) -> (start, data)
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if int(r["size"]) != size:
                continue
            key = (int(r["bx"]), int(r["by"]), int(r["stage"]))
            runs[int(r["run"])][key] = (int(r["start_ns"]), int(r["data_ns"]))
    return list(runs.values())


CTA = re.compile(r'"name":"CTA \((\d+),(\d+),0\) launch".*"pid":(\d+).*"args":\{"slot":(\d+),"warps":(\d+)')
ISSUE = re.compile(r'"name":"(LDG|HGMMA)[^"]*","cat":"issue".*"pid":(\d+),"tid":(\d+),"ts":([0-9.]+)')


def model(path):
    # (SM, first warp's track) -> (bx, by). Every CTA of these grids is resident from the start,
    # so CTA slot k holds warp slots 4k to 4k + 3 (the lowest free ones) for the whole run.
    owner = {}
    ldg = collections.defaultdict(list)
    mma = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            m = ISSUE.search(line)
            if m:
                op, pid, tid, ts = m.group(1), int(m.group(2)), int(m.group(3)), float(m.group(4))
                (ldg if op == "LDG" else mma)[(pid, tid)].append(ts * 1000.0)
                continue
            m = CTA.search(line)
            if m:
                bx, by, pid, slot, warps = (int(g) for g in m.groups())
                key = (pid, 1 + slot * warps)
                if key in owner:
                    sys.exit(f"{path}: warp slot {slot} of SM {pid} runs two CTAs")
                owner[key] = (bx, by)
    stamps = {}
    for key, (bx, by) in owner.items():
        loads, mmas = sorted(ldg[key]), sorted(mma[key])
        for s in range(len(loads) // 12):
            stamps[(bx, by, s)] = (loads[12 * s], mmas[4 * s])
    return [stamps]


def summary(runs):
    periods, phases, col_range, col_sd, row_range, row_sd = [], [], [], [], [], []
    for stamps in runs:
        stages = max(k[2] for k in stamps) + 1
        starts = collections.defaultdict(list)
        for (bx, by, s), (start, data) in stamps.items():
            phases.append(data - start)
            starts[s].append(start)
        med = [statistics.median(starts[s]) for s in range(stages)]
        periods += [b - a for a, b in zip(med, med[1:])]
        for axis, rng, sd in ((0, col_range, col_sd), (1, row_range, row_sd)):
            groups = collections.defaultdict(list)
            for (bx, by, s), (start, _) in stamps.items():
                groups[((bx, by)[axis], s)].append(start)
            for v in groups.values():
                rng.append(max(v) - min(v))
                sd.append(statistics.pstdev(v))
    phases.sort()
    q = lambda p: phases[int(p * (len(phases) - 1))]
    return (statistics.median(periods), statistics.median(phases), q(0.1), q(0.9),
            statistics.median(col_range), statistics.median(col_sd),
            statistics.median(row_range), statistics.median(row_sd))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    size = int(sys.argv[2])
    print("source\tperiod_ns\tphase_median_ns\tphase_p10_ns\tphase_p90_ns\t"
          "column_range_ns\tcolumn_sd_ns\trow_range_ns\trow_sd_ns")
    for name, runs in (("H200", h200(sys.argv[1], size)), ("model", model(sys.argv[3]))):
        print(name + "\t" + "\t".join(f"{v:.0f}" for v in summary(runs)))


if __name__ == "__main__":
    main()
