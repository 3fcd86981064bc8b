#!/usr/bin/env bash
# Runs the LRC-across-GPCs probe (lrc_gpc.cu): the cluster placement without a profiler, then the
# reader sets under Nsight Compute (caches flushed before every launch); writes
# DIR/lrc_gpc_placement.tsv, DIR/lrc_gpc.tsv, DIR/lrc_gpc_ncu.csv and DIR/lrc_gpc_sass.txt:
#   validate/capture/probes/lrc_gpc.sh DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/lrc_gpc" "$here/lrc_gpc.cu"
"$work/lrc_gpc" placement > "$dir/lrc_gpc_placement.tsv"
exec "$here/lrc_probe.sh" lrc_gpc "$dir"
