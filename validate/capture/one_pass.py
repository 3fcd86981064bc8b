#!/usr/bin/env python3
"""Joins ncu raw-page exports (--csv --page raw --print-units base) of one-pass profiles with the
point list: one row per point (index, name), one column per metric, or per metric and label when
several profiles are given.
    one_pass.py points.tsv raw.csv > one_pass.tsv
    one_pass.py points.tsv as_is=raw0.csv settled=raw1.csv > compare.tsv
    one_pass.py --metrics a.sum,b.sum points.tsv raw.csv > other.tsv   (other metrics)
"""
import csv
import sys

METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum",
           "lts__t_sectors_srcunit_tex_op_write.sum", "gpc__cycles_elapsed.max"]


def main():
    args = sys.argv[1:]
    metrics = METRICS
    if args[:1] == ["--metrics"]:
        metrics, args = args[1].split(","), args[2:]
    points = [l.rstrip("\n").split("\t") for l in open(args[0])][1:]
    labelled = [a.split("=", 1) if "=" in a else ["", a] for a in args[1:]]
    tables = []
    for _, path in labelled:
        rows = list(csv.reader(open(path)))
        idx = [rows[0].index(m) for m in metrics]
        tables.append([[r[i].replace(",", "") for i in idx] for r in rows[2:]])
        if len(tables[-1]) != len(points):
            sys.exit(f"{path}: {len(tables[-1])} launches for {len(points)} points")
    head = [m if len(labelled) == 1 else f"{m}:{label}" for m in metrics for label, _ in labelled]
    print("\t".join(["index", "name"] + head))
    for k, p in enumerate(points):
        values = [t[k][c] for c in range(len(metrics)) for t in tables]
        print("\t".join([p[0], p[1]] + values))


if __name__ == "__main__":
    main()
