#!/usr/bin/env bash
# Profiles every twin point once with one-pass metrics (DRAM bytes, cycles, L2 write sectors) and
# ncu's cold caches, with and without twins::settle() before each measured launch, and prints one
# row per point: index, name, then each metric without and with the settle.
#   validate/capture/probes/settle_compare.sh > validate/reference/h200/settle_compare.tsv
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d '.')
case "$cc" in 90|100|101|103|120|121) target="${cc}a" ;; *) target="$cc" ;; esac
nvcc -O3 -std=c++17 "-gencode=arch=compute_${target},code=sm_${target}" -lineinfo \
     -o "$work/twins" "$root"/workloads/cuda/*.cu
"$work/twins" list > "$work/points.tsv"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
for settle in 0 1; do
  TWINS_SETTLE=$settle ncu --clock-control none --cache-control all --metrics "$metrics" \
      -k regex:w_ -f -o "$work/r$settle" "$work/twins" run > "$work/log$settle" 2>&1 \
      || { cat "$work/log$settle" >&2; exit 1; }
  ncu -i "$work/r$settle.ncu-rep" --csv --page raw --print-units base > "$work/raw$settle.csv"
done
python3 - "$work/points.tsv" "$work/raw0.csv" "$work/raw1.csv" <<'PY'
import csv, sys
points = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
cols = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
        "gpc__cycles_elapsed.max"]
tables = []
for path in sys.argv[2:]:
    rows = list(csv.reader(open(path)))
    idx = [rows[0].index(c) for c in cols]
    tables.append([[r[i].replace(",", "") for i in idx] for r in rows[2:]])
if any(len(t) != len(points) for t in tables):
    sys.exit("launch count differs from the point list")
print("index\tname\t" + "\t".join(f"{c}:{m}" for c in cols for m in ("as_is", "settled")))
for k, p in enumerate(points):
    vals = [tables[m][k][c] for c in range(len(cols)) for m in range(2)]
    print("\t".join([p[0], p[1]] + vals))
PY
