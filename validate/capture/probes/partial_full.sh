#!/usr/bin/env bash
# Runs the full-L2 partial-write probe (partial_full.cu) under Nsight Compute with one-pass DRAM
# metrics and no cache control, and prints one row per probe launch: sequence, kernel, MB, then
# the metrics.
#   validate/capture/probes/partial_full.sh > validate/reference/h200/partial_full.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_full none
