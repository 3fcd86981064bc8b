#!/usr/bin/env bash
# Runs the HBM read-depth probe (dram_depth.cu) under Nsight Compute with one-pass DRAM metrics
# from an empty L2 (--cache-control all), and prints one row per launch: sectors, loads, ctas,
# then the metrics (with each launch's SM clock). With a directory as argument, also writes the
# start of the probe's SASS there (dram_depth_sass.txt).
#   validate/capture/probes/dram_depth.sh [SASS_DIR] > validate/reference/h200/dram_depth.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${1:-}" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  nvcc -O3 -std=c++17 -arch=native -o "$work/dram_depth" "$here/dram_depth.cu"
  cuobjdump -sass "$work/dram_depth" | grep -A60 "Function : .*probe_depthILi4E" > "$1/dram_depth_sass.txt" || true
fi
"$here/one_pass_probe.sh" dram_depth all
