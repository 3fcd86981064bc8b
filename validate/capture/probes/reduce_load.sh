#!/usr/bin/env bash
# Runs the coalesced-load concurrency probe (reduce_load.cu) under Nsight Compute with one-pass
# DRAM metrics from an empty L2 (--cache-control all), and prints one row per launch: ctas, n,
# then the metrics.
#   validate/capture/probes/reduce_load.sh > validate/reference/h200/reduce_load.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" reduce_load all
