#!/usr/bin/env bash
# Builds one of the L2 request coalescer probes (NAME.cu beside this script) and runs it under
# Nsight Compute, caches flushed before every launch; writes DIR/NAME.tsv (its output),
# DIR/NAME_ncu.csv (the LRC's and the slices' read counters per launch) and DIR/NAME_sass.txt:
#   validate/capture/probes/lrc_probe.sh NAME DIR
# lrc_window.sh and lrc_pair.sh call it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=$1
dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/$name" "$here/$name.cu"
cuobjdump -sass "$work/$name" > "$dir/${name}_sass.txt"
metrics=lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics+=,lrc__request_sectors_op_read_coalescable.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,dram__bytes_read.sum
ncu --clock-control none --cache-control all --csv --log-file "$dir/${name}_ncu.csv" \
  --metrics "$metrics" "$work/$name" > "$dir/$name.tsv"
