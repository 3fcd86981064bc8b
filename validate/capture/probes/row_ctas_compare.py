#!/usr/bin/env python3
"""Sets the model's CTA phases beside the H200's for one row-wise point (row_ctas.cu).

usage: row_ctas_compare.py reference/h200/row_ctas.tsv POINT TIMELINE.json
  POINT: e.g. layernorm/rows=4096,cols=1024
  TIMELINE.json: warpsim run --workload layernorm --param rows=4096 --param cols=1024
                 --timeline TIMELINE.json --timeline-events 2000000000

Phases, in microseconds (10th percentile / median / 90th): the first read of the row and its
reduction (start to the end of the first block_reduce), the second read and reduction, the third
read with the stores, and the whole life. On the H200 per CTA (thread 0's stamps, the last warp's
end); in the model per warp (its first issue, the first issue after its 2nd and 4th BAR, and its
final EXIT), which the barriers keep within a few cycles of its CTA's.
"""
import collections
import re
import statistics
import sys


def quantiles(values):
    v = sorted(values)
    return "%.2f / %.2f / %.2f" % (v[len(v) // 10], statistics.median(v), v[9 * len(v) // 10])


def h200_phases(path, point):
    lives = []
    with open(path) as f:
        next(f)
        for line in f:
            p, _run, _cta, _sm, s, a, b, e = line.rstrip("\n").split("\t")
            if p == point:
                lives.append(tuple(int(x) / 1e3 for x in (s, a, b, e)))
    return lives


def model_phases(path):
    issue = re.compile(r'^\{"name":"([^"]*)","cat":"issue","ph":"X","pid":(\d+),"tid":(\d+),'
                       r'"ts":([\d.]+)')
    state, lives = {}, []
    with open(path) as f:
        for line in f:
            m = issue.match(line)
            if not m:
                continue
            name, key, ts = m.group(1), (m.group(2), m.group(3)), float(m.group(4))
            s = state.get(key)
            if s is None or s["done"]:
                s = state[key] = {"start": ts, "bars": 0, "t2": None, "t4": None, "done": False}
            bar = name.startswith("BAR")
            if s["bars"] == 2 and s["t2"] is None and not bar:
                s["t2"] = ts
            if s["bars"] == 4 and s["t4"] is None and not bar:
                s["t4"] = ts
            s["bars"] += bar
            # The final EXIT: all lanes (a predicated-off EXIT has mask 0x0).
            if name == "EXIT" and s["bars"] == 4 and '"mask":"0x0"' not in line:
                s["done"] = True
                lives.append((s["start"], s["t2"], s["t4"], ts))
    return lives


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    rows = collections.OrderedDict(
        [("H200 (per CTA)", h200_phases(sys.argv[1], sys.argv[2])),
         ("model (per warp)", model_phases(sys.argv[3]))])
    print("| | first read | second read | third read, stores | life | last end |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, lives in rows.items():
        if not lives:
            sys.exit("no lives for " + label)
        print("| %s | %s | %s | %s | %s | %.2f |" % (
            label, quantiles([a - s for s, a, b, e in lives]),
            quantiles([b - a for s, a, b, e in lives]), quantiles([e - b for s, a, b, e in lives]),
            quantiles([e - s for s, a, b, e in lives]), max(e for s, a, b, e in lives)))


if __name__ == "__main__":
    main()
