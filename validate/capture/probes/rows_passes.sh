#!/usr/bin/env bash
# Runs the row-wise passes probe (rows_passes.cu) under Nsight Compute with one-pass DRAM metrics
# and no cache control, and prints one row per variant: sequence, kernel, MB, then the metrics.
#   validate/capture/probes/rows_passes.sh > validate/reference/h200/rows_passes.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" rows_passes none
