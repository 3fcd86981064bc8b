#!/usr/bin/env bash
# Runs the LRC pair probe (lrc_pair.cu) under Nsight Compute, caches flushed before every
# launch, and writes its TSV, ncu's counters per launch and the SASS to DIR:
#   validate/capture/probes/lrc_pair.sh DIR
# (DIR/lrc_pair.tsv, DIR/lrc_pair_ncu.csv, DIR/lrc_pair_sass.txt)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/lrc_pair" "$here/lrc_pair.cu"
cuobjdump -sass "$work/lrc_pair" > "$dir/lrc_pair_sass.txt"
metrics=lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics+=,lrc__request_sectors_op_read_coalescable.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
metrics+=,dram__bytes_read.sum
ncu --clock-control none --cache-control all --csv --log-file "$dir/lrc_pair_ncu.csv" \
  --metrics "$metrics" "$work/lrc_pair" > "$dir/lrc_pair.tsv"
