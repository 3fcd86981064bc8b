#!/usr/bin/env bash
# Builds every CUDA twin for the architecture of the GPU in this machine (arch-specific targets,
# sm_90a and friends, where the GPU has them, for wgmma) into BINARY, and writes its point list to
# POINTS when given. Used by the one-pass and L2-counter profiles.
#   validate/capture/build_twins.sh BINARY [POINTS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d '.')
case "$cc" in 90|100|101|103|120|121) target="${cc}a" ;; *) target="$cc" ;; esac
nvcc -O3 -std=c++17 "-gencode=arch=compute_${target},code=sm_${target}" -lineinfo \
     -o "$1" "$root"/workloads/cuda/*.cu
if [ $# -ge 2 ]; then "$1" list > "$2"; fi
