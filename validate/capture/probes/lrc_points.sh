#!/usr/bin/env bash
# Builds every CUDA twin for the GPU's architecture and profiles all points with the L2 request
# coalescer's read counters and the L2's sector counters split by source (tex: the SMs' requests
# at the partition they reach first; ltcfabric: what the other partition forwards), ncu's cold
# caches, one profile. Prints one row per point: index, name, then each metric.
#   validate/capture/probes/lrc_points.sh > validate/reference/h200/lrc_points.tsv
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/validate/capture/build_twins.sh" "$work/twins" "$work/points.tsv"
metrics=lrc__request_sectors_op_read_coalescable.sum
metrics+=,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics+=,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric_op_read.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum
metrics+=,lts__t_sectors_srcunit_ltcfabric_op_write.sum,dram__bytes_read.sum
ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:w_ -f \
    -o "$work/r" "$work/twins" run > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/r.ncu-rep" --csv --page raw --print-units base > "$work/r.csv"
echo "[lrc_points] profiled after ${SECONDS}s" >&2
"$root/validate/capture/one_pass.py" --metrics "$metrics" "$work/points.tsv" "$work/r.csv"
