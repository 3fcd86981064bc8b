#!/usr/bin/env bash
# Runs the L2 retention probe (l2_reref.cu) under Nsight Compute with one-pass DRAM metrics and no
# cache control, and prints one row per probe launch: sequence, kernel, MB, then the metrics.
#   validate/capture/probes/l2_reref.sh > validate/reference/h200/l2_reref.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" l2_reref none
