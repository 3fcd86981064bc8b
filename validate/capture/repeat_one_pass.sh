#!/usr/bin/env bash
# Profiles every twin point N times (default 5) with one-pass metrics (DRAM bytes, L2 write
# sectors, cycles) and ncu's cold caches, as capture.sh's one-pass profile, and prints one row per
# point: index, name, then each metric of each run (columns "metric:runK"). The loader takes the
# median of the runs as the measured DRAM bytes and reports their range: what the GPU itself
# varies by from run to run.
#   validate/capture/repeat_one_pass.sh [N] > validate/reference/h200/one_pass.tsv
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d '.')
case "$cc" in 90|100|101|103|120|121) target="${cc}a" ;; *) target="$cc" ;; esac
nvcc -O3 -std=c++17 "-gencode=arch=compute_${target},code=sm_${target}" -lineinfo \
     -o "$work/twins" "$root"/workloads/cuda/*.cu
"$work/twins" list > "$work/points.tsv"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
tables=()
for k in $(seq 1 "$runs"); do
  ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:w_ -f \
      -o "$work/r$k" "$work/twins" run > "$work/log$k" 2>&1 || { cat "$work/log$k" >&2; exit 1; }
  ncu -i "$work/r$k.ncu-rep" --csv --page raw --print-units base > "$work/raw$k.csv"
  tables+=("run$k=$work/raw$k.csv")
  echo "[repeat_one_pass] run $k of $runs done after ${SECONDS}s" >&2
done
"$root/validate/capture/one_pass.py" "$work/points.tsv" "${tables[@]}"
