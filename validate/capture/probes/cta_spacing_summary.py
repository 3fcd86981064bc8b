#!/usr/bin/env python3
"""Summarises cta_spacing.cu's stamps: per CTA size, when each round of the first wave (CTA index
// SMs) starts on its SM, the median over SMs and runs of the cycles after the SM's first CTA, and
the spacing of the first rounds.
    cta_spacing_summary.py validate/reference/h200/cta_spacing_h100.tsv.gz
"""
import collections
import csv
import gzip
import statistics
import sys


def main():
    path = sys.argv[1]
    opener = gzip.open if path.endswith(".gz") else open
    sms = collections.defaultdict(list)
    rows = list(csv.DictReader(opener(path, "rt"), delimiter="\t"))
    count = collections.Counter((r.get("run", "0"), r["threads"], r["repeat"]) for r in rows)
    for r in rows:
        key = (int(r["threads"]), r.get("run", "0"), r["repeat"], r["sm"])
        sms[key].append((int(r["clock"]), int(r["cta"])))
    print("threads\tCTAs an SM\tround: median start (cycles after the SM's first CTA)")
    for threads in sorted({k[0] for k in sms}):
        by_round = collections.defaultdict(list)
        per_sm = 0
        for key, stamps in sms.items():
            if key[0] != threads:
                continue
            stamps.sort()
            per_sm = len(stamps)
            ctas = count[(key[1], str(threads), key[2])]
            n_sms = ctas // per_sm
            for clock, cta in stamps:
                by_round[cta // n_sms].append(clock - stamps[0][0])
        cells = ", ".join("%d: %g" % (k, statistics.median(v)) for k, v in sorted(by_round.items()))
        print("%d\t%d\t%s" % (threads, per_sm, cells))


if __name__ == "__main__":
    main()
