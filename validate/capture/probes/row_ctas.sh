#!/usr/bin/env bash
# Builds row_ctas.cu with the twins' runner and runs its four points three times each, every
# launch after the runner's L2 settle (TWINS_SETTLE=1, as under ncu's cache control), without a
# profiler: one row per CTA.
#   validate/capture/probes/row_ctas.sh > validate/reference/h200/row_ctas.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$root/workloads/cuda" \
     -o "$work/row_ctas" "$here/row_ctas.cu" "$root/workloads/cuda/twins.cu"
printf 'point\trun\tcta\tsm\tstart_ns\tfirst_ns\tsecond_ns\tend_ns\n'
TWINS_SETTLE=1 "$work/row_ctas" run row_ctas | grep -v '^POINT'
