#!/usr/bin/env bash
# Runs the L2 write-back probe (dirty_l2.cu) under Nsight Compute with one-pass DRAM metrics and
# no cache control, and prints one row per probe launch: sequence, kernel, MB, then the metrics.
#   validate/capture/probes/dirty_l2.sh > validate/reference/h200/dirty_l2.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" dirty_l2 none
