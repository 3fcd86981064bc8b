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


def table(path):
    """The rows of a TSV file (gzip when it ends in .gz) as dicts keyed by the header's names;
    blank lines and comment lines (#) skipped."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        header = next(f).rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f
                if line.strip() and not line.startswith("#")]


def cta_spans(rows, group, start, end):
    """Per (group, cta) of per-warp rows: the CTA's SM, its first start and its last end."""
    spans = {}
    for r in rows:
        key = (r[group], int(r["cta"]))
        sm, first, last = spans.get(key, (r["sm"], 1 << 62, 0))
        spans[key] = (sm, min(first, int(r[start])), max(last, int(r[end])))
    return spans


def new_groups():
    return collections.defaultdict(lambda: collections.defaultdict(list))


def rows(path):
    groups = new_groups()
    for r in table(path):
        if int(r["start_ns"]) < 1000:
            key = "%s run %s" % (r["point"], r["run"])
            groups[key][r["sm"]].append((int(r["cta"]), int(r["end_ns"])))
    return groups


def gemm(path):
    groups = new_groups()
    for (launch, cta), (sm, start, end) in cta_spans(table(path), "launch", "start_ns",
                                                     "end_ns").items():
        if start < 5000:
            groups["launch " + launch][sm].append((cta, end))
    return groups


def timeline(path):
    ctas = cta_spans(table(path), "n", "t0", "t3")
    first = collections.defaultdict(lambda: 1 << 62)
    for (n, _), (sm, start, _) in ctas.items():
        first[(n, sm)] = min(first[(n, sm)], start)
    groups = new_groups()
    for (n, cta), (sm, start, end) in ctas.items():
        if start < first[(n, sm)] + 2000:
            groups["n " + n][sm].append((cta, end))
    return groups


def model(path):
    log = table(path)
    groups = new_groups()
    for kernel in sorted(set(r["kernel"] for r in log)):
        mine = [r for r in log if r["kernel"] == kernel]
        grid_x = max(int(r["cta_x"]) for r in mine) + 1
        first = min(int(r["launch_cycle"]) for r in mine)
        for r in mine:
            if int(r["launch_cycle"]) < first + 2000:
                index = int(r["cta_x"]) + grid_x * int(r["cta_y"])
                groups["kernel " + kernel][r["sm"]].append((index, int(r["retire_cycle"])))
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
