#!/usr/bin/env bash
# Runs the HBM row-mate probe (dram_rowmates.cu) under Nsight Compute with one-pass DRAM metrics
# from an empty L2 (--cache-control all), and prints one row per launch: distance, then the
# metrics (with each launch's SM clock).
#   validate/capture/probes/dram_rowmates.sh > validate/reference/h200/dram_rowmates.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" dram_rowmates all
