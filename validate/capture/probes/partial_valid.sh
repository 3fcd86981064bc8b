#!/usr/bin/env bash
# Runs the complete-sector partial-write probe (partial_valid.cu) under Nsight Compute with
# one-pass DRAM metrics and no cache control, and prints one row per probe launch: sequence,
# kernel, MB, then the metrics.
#   validate/capture/probes/partial_valid.sh > validate/reference/h200/partial_valid.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_valid none
