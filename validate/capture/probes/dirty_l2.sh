#!/usr/bin/env bash
# Runs the L2 write-back probe (dirty_l2.cu) under Nsight Compute with one-pass DRAM metrics and
# no cache control, and prints one row per probe launch: sequence, kernel, MB, then the metrics.
#   validate/capture/probes/dirty_l2.sh > validate/reference/h200/dirty_l2.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/dirty_l2" "$here/dirty_l2.cu"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
ncu --clock-control none --cache-control none --metrics "$metrics" -k regex:probe_ -f \
    -o "$work/report" "$work/dirty_l2" run > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$work/raw.csv"
"$work/dirty_l2" list > "$work/list.tsv"
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
print("sequence\tkernel\tmb\t" + "\t".join(cols))
for lab, row in zip(labels, data):
    print("\t".join(lab + [row[i].replace(",", "") for i in idx]))
PY
