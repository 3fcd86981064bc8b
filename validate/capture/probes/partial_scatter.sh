#!/usr/bin/env bash
# Runs the one-sector partial-write probe (partial_scatter.cu) under Nsight Compute with one-pass
# DRAM metrics from an empty L2 (--cache-control all), and prints one row per launch: words, MB,
# then the metrics.
#   validate/capture/probes/partial_scatter.sh > validate/reference/h200/partial_scatter.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_scatter all
