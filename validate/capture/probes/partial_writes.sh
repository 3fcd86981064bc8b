#!/usr/bin/env bash
# Runs the partial-write probe (partial_writes.cu) under Nsight Compute with one-pass DRAM metrics
# from an empty L2 (--cache-control all), and prints one row per launch: bytes, MB, then the metrics.
#   validate/capture/probes/partial_writes.sh > validate/reference/h200/partial_writes.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/partial_writes" "$here/partial_writes.cu"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:probe_ -f \
    -o "$work/report" "$work/partial_writes" run > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$work/raw.csv"
"$work/partial_writes" list > "$work/list.tsv"
python3 - "$work/list.tsv" "$work/raw.csv" <<'PY'
import csv, sys
labels = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
rows = list(csv.reader(open(sys.argv[2])))
head, data = rows[0], rows[2:]
cols = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
        "gpc__cycles_elapsed.max"]
idx = [head.index(c) for c in cols]
if len(labels) != len(data):
    sys.exit(f"{len(labels)} launches listed, {len(data)} profiled")
print("bytes\tmb\t" + "\t".join(cols))
for lab, row in zip(labels, data):
    print("\t".join(lab + [row[i].replace(",", "") for i in idx]))
PY
