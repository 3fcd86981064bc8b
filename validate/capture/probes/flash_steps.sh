#!/usr/bin/env bash
# Builds flash_steps.cu with the twins' runner and runs its two points (seq 2048 at 4 and 12 heads,
# three launches each), without a profiler: one row per CTA and block of keys with the block's
# start on the GPU's global clock.
#   validate/capture/probes/flash_steps.sh > validate/reference/h200/flash_steps.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
[ "$arch" = 90 ] && arch=90a
nvcc -O3 -std=c++17 -gencode=arch=compute_${arch},code=sm_${arch} -I"$root/workloads/cuda" \
     -o "$work/flash_steps" "$here/flash_steps.cu" "$root/workloads/cuda/twins.cu"
printf 'heads\trun\tcta\thead\tsm\tblock\tns\n'
"$work/flash_steps" run flash_steps | grep -v '^POINT'
