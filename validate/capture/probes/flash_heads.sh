#!/usr/bin/env bash
# Builds flash_heads.cu with the twins' runner and profiles its five FlashAttention points (the
# twin's three and seq 2048 at 4 and 12 heads) with lrc_points.sh's counters and the cycles, cold
# caches. Prints one row per point: index, name, then each metric.
#   validate/capture/probes/flash_heads.sh > validate/reference/h200/flash_heads.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -lineinfo -I"$root/workloads/cuda" \
     -o "$work/flash_heads" "$here/flash_heads.cu" "$root/workloads/cuda/twins.cu"
"$work/flash_heads" list > "$work/points.tsv"
metrics=lrc__request_sectors_op_read_coalescable.sum
metrics+=,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics+=,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric_op_read.sum,gpc__cycles_elapsed.max
metrics+=,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
metrics+=,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
metrics+=,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:w_ -f \
    -o "$work/r" "$work/flash_heads" run > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/r.ncu-rep" --csv --page raw --print-units base > "$work/r.csv"
"$root/validate/capture/one_pass.py" --metrics "$metrics" "$work/points.tsv" "$work/r.csv"
