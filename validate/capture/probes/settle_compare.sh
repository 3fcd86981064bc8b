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
"$root/validate/capture/one_pass.py" "$work/points.tsv" as_is="$work/raw0.csv" settled="$work/raw1.csv"
