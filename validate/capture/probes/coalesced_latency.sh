#!/usr/bin/env bash
# Runs the load-width probe (coalesced_latency.cu) under Nsight Compute with one-pass DRAM metrics
# from an empty L2 (--cache-control all), and prints one row per launch: threads, lanes, iters,
# then the metrics.
#   validate/capture/probes/coalesced_latency.sh > validate/reference/h200/coalesced_latency.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" coalesced_latency all
