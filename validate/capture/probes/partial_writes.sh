#!/usr/bin/env bash
# Runs the partial-write probe (partial_writes.cu) under Nsight Compute with one-pass DRAM metrics
# from an empty L2 (--cache-control all), and prints one row per launch: bytes, MB, then the metrics.
#   validate/capture/probes/partial_writes.sh > validate/reference/h200/partial_writes.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_writes all
