#!/usr/bin/env bash
# Builds every CUDA twin for the GPU's architecture and profiles all points once per LABEL with
# one-pass metrics (DRAM bytes, L2 write sectors, cycles) and ncu's cold caches, as capture.sh's
# one-pass profile; a LABEL:VAR=VALUE runs that profile with the environment variable set. Prints
# one row per point: index, name, then each metric of each run (columns "metric:LABEL"). Used by
# repeat_one_pass.sh and probes/settle_compare.sh.
#   one_pass_runs.sh run1 run2 ...   |   one_pass_runs.sh as_is:TWINS_SETTLE=0 settled:TWINS_SETTLE=1
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/validate/capture/build_twins.sh" "$work/twins" "$work/points.tsv"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
tables=()
for spec in "$@"; do
  label=${spec%%:*}
  env_set=()
  [ "$spec" != "$label" ] && env_set=("${spec#*:}")
  env "${env_set[@]}" ncu --clock-control none --cache-control all --metrics "$metrics" \
      -k regex:w_ -f -o "$work/$label" "$work/twins" run > "$work/$label.log" 2>&1 \
      || { cat "$work/$label.log" >&2; exit 1; }
  ncu -i "$work/$label.ncu-rep" --csv --page raw --print-units base > "$work/$label.csv"
  tables+=("$label=$work/$label.csv")
  echo "[one_pass_runs] $label done after ${SECONDS}s" >&2
done
"$root/validate/capture/one_pass.py" "$work/points.tsv" "${tables[@]}"
