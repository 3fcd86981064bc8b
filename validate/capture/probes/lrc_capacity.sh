#!/usr/bin/env bash
# Runs the coalescer-capacity probe (lrc_capacity.cu) under Nsight Compute, an empty L2 before
# each launch, and prints one row per launch: pairs, warps, lines, then the coalescer's joined read
# sectors, the L2's read lookups and DRAM bytes read.
#   validate/capture/probes/lrc_capacity.sh > validate/reference/h200/lrc_capacity.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/lrc_capacity" "$here/lrc_capacity.cu"
metrics=lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics=$metrics,lrc__request_sectors_op_read_coalescable.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics=$metrics,dram__bytes_read.sum,gpc__cycles_elapsed.max
ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:probe_ -f \
    -o "$work/report" "$work/lrc_capacity" run > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$work/raw.csv"
"$work/lrc_capacity" list > "$work/list.tsv"
python3 - "$work/list.tsv" "$work/raw.csv" "$metrics" <<'PY'
import csv, sys
listed = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
rows = list(csv.reader(open(sys.argv[2])))
head, data = rows[0], rows[2:]
cols = sys.argv[3].split(",")
idx = [head.index(c) for c in cols]
print("\t".join(listed[0] + cols))
for lab, row in zip(listed[1:], data):
    print("\t".join(lab + [row[i].replace(",", "") for i in idx]))
PY
