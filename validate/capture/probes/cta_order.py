#!/usr/bin/env python3
"""Do an SM's first-wave CTAs end in the order they were launched?

For every SM, the Spearman rank correlation between its first-wave CTAs' linear block index
(blockIdx.x + gridDim.x * blockIdx.y) and their end times, averaged over the SMs: +1 when they end
in launch order (greedy-then-oldest by launch order), near 0 when their order is drawn.

usage:
  cta_order.py rows reference/h200/row_ctas.tsv        (row_ctas.cu: per point and run; also
                                                        row_ctas_h100.tsv.gz)
  cta_order.py gemm reference/h200/gemm_ctas_slots_h100.tsv.gz   (gemm_ctas.cu: per launch)
  cta_order.py timeline reference/h200/cta_timeline_warps_2048.tsv.gz
                                                       (cta_timeline.cu: per-SM clock64 stamps)
  cta_order.py model CTA_LOG.tsv                       (warpsim run --cta-log)

First wave: on the GPU the CTAs that start within 1 us (rows) or 5 us (gemm) of the launch, or
within 2,000 cycles of their SM's first (timeline: clock64 is the SM's own); in the model those
made resident within 2,000 cycles of the first.
"""
import collections
import gzip
import statistics
import sys


def spearman(xs, ys):
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: (v[i], i))
        r = [0] * len(v)
        for rank, i in enumerate(order):
            r[i] = rank
        return r

    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return sum((a - mx) * (b - my) for a, b in zip(rx, ry)) / den if den else None


def mean_over_sms(by_sm):
    values = [r for ctas in by_sm.values()
              for r in [spearman([c for c, _ in ctas], [e for _, e in ctas])] if r is not None]
    return len(values), statistics.mean(values)


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def rows(path):
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    with open_text(path) as f:
        header = next(f).rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            r = line.rstrip("\n").split("\t")
            if int(r[col["start_ns"]]) < 1000:
                key = "%s run %s" % (r[col["point"]], r[col["run"]])
                groups[key][r[col["sm"]]].append((int(r[col["cta"]]), int(r[col["end_ns"]])))
    return groups


def gemm(path):
    ctas = {}
    with gzip.open(path, "rt") as f:
        header = next(f).rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            r = line.rstrip("\n").split("\t")
            key = (r[col["launch"]], int(r[col["cta"]]))
            sm, start, end = ctas.get(key, (r[col["sm"]], 1 << 62, 0))
            ctas[key] = (sm, min(start, int(r[col["start_ns"]])), max(end, int(r[col["end_ns"]])))
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    for (launch, cta), (sm, start, end) in ctas.items():
        if start < 5000:
            groups["launch " + launch][sm].append((cta, end))
    return groups


def timeline(path):
    ctas = {}
    with open_text(path) as f:
        header = next(f).rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        for line in f:
            r = line.rstrip("\n").split("\t")
            key = (r[col["n"]], int(r[col["cta"]]))
            sm, start, end = ctas.get(key, (r[col["sm"]], 1 << 62, 0))
            ctas[key] = (sm, min(start, int(r[col["t0"]])), max(end, int(r[col["t3"]])))
    first = collections.defaultdict(lambda: 1 << 62)
    for (n, _), (sm, start, _) in ctas.items():
        first[(n, sm)] = min(first[(n, sm)], start)
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    for (n, cta), (sm, start, end) in ctas.items():
        if start < first[(n, sm)] + 2000:
            groups["n " + n][sm].append((cta, end))
    return groups


def model(path):
    with open(path) as f:
        header = next(f).rstrip("\n").split("\t")
        col = {name: i for i, name in enumerate(header)}
        log = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    for kernel in sorted(set(r[col["kernel"]] for r in log)):
        mine = [r for r in log if r[col["kernel"]] == kernel]
        grid_x = max(int(r[col["cta_x"]]) for r in mine) + 1
        first = min(int(r[col["launch_cycle"]]) for r in mine)
        for r in mine:
            if int(r[col["launch_cycle"]]) < first + 2000:
                index = int(r[col["cta_x"]]) + grid_x * int(r[col["cta_y"]])
                groups["kernel " + kernel][r[col["sm"]]].append((index, int(r[col["retire_cycle"]])))
    return groups


def main():
    modes = {"rows": rows, "gemm": gemm, "timeline": timeline, "model": model}
    if len(sys.argv) != 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    groups = modes[sys.argv[1]](sys.argv[2])
    for key in sorted(groups):
        sms, mean = mean_over_sms(groups[key])
        print("%s: %d SMs, mean rank correlation of block index and end %+.3f" % (key, sms, mean))


if __name__ == "__main__":
    main()
