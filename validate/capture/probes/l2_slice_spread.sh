#!/usr/bin/env bash
# Profiles l2_slice_spread.cu (N lines S apart taking equal reductions) from an empty L2 and prints
# a TSV: lines, stride, reduction sectors per line, then the kernel's red sectors over all slices
# (.sum), on the busiest and quietest slice (.max, .min), and the L2's slice count (.sum / .avg):
#   validate/capture/probes/l2_slice_spread.sh > validate/reference/h200/l2_slice_spread.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/probe" "$here/l2_slice_spread.cu"
m=lts__t_sectors_srcunit_tex_op_red
ncu --clock-control none --cache-control all --metrics "$m.sum,$m.max,$m.min,$m.avg" -k regex:red_ \
    -f -o "$work/r" "$work/probe" > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/r.ncu-rep" --csv --page raw --print-units base > "$work/r.csv"
"$work/probe" list > "$work/labels.tsv"
python3 - "$work/labels.tsv" "$work/r.csv" "$m" <<'PY'
import csv, sys
labels = list(csv.reader(open(sys.argv[1]), delimiter="\t"))
rows = list(csv.reader(open(sys.argv[2])))
head, m = rows[0], sys.argv[3]
num = lambda r, n: float(r[head.index(n)].replace(",", ""))
print("\t".join(labels[0] + ["red_sectors", "busiest_slice", "quietest_slice", "slices"]))
for label, r in zip(labels[1:], rows[2:]):
    total, avg = num(r, m + ".sum"), num(r, m + ".avg")
    print("\t".join(label + [f"{total:.0f}", f"{num(r, m + '.max'):.0f}",
                             f"{num(r, m + '.min'):.0f}", f"{total / avg:.0f}" if avg else "0"]))
PY
