#!/usr/bin/env bash
# Builds gemm_stages.cu with the twins' runner and runs its two points (1024, five launches;
# 2048, three), each launch after the runner's L2 settle (TWINS_SETTLE=1, so A and B come from
# DRAM as under ncu's cache control), without a profiler: one row per CTA and K stage.
#   validate/capture/probes/gemm_stages.sh > validate/reference/h200/gemm_stages.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$root/workloads/cuda" \
     -o "$work/gemm_stages" "$here/gemm_stages.cu" "$root/workloads/cuda/twins.cu"
printf 'size\trun\tcta\tbx\tby\tsm\tstage\tstart_ns\tdata_ns\n'
TWINS_SETTLE=1 "$work/gemm_stages" run gemm_stages | grep -v '^POINT'
