#!/usr/bin/env bash
# Runs the partial-write probe with a tail (partial_tail.cu) under Nsight Compute with one-pass
# DRAM metrics from an empty L2 (--cache-control all), and prints one row per launch: bytes, MB,
# tail cycles, then the metrics.
#   validate/capture/probes/partial_tail.sh > validate/reference/h200/partial_tail_<gpu>.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_tail all
