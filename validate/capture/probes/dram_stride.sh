#!/usr/bin/env bash
# Runs the strided HBM read probe (dram_stride.cu) under Nsight Compute with one-pass DRAM metrics
# from an empty L2 (--cache-control all), and prints one row per launch: stride, ctas, then the
# metrics (with each launch's SM clock).
#   validate/capture/probes/dram_stride.sh > validate/reference/h200/dram_stride.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" dram_stride all
