#!/usr/bin/env bash
# Runs the translation probe (page_walk.cu) under Nsight Compute with one-pass DRAM metrics from an
# empty L2 (--cache-control all), and prints one row per launch: threads, regions, iters, then the
# metrics.
#   validate/capture/probes/page_walk.sh > validate/reference/h200/page_walk.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" page_walk all
