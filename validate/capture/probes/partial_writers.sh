#!/usr/bin/env bash
# Runs the probe of whether lines completed by partial stores are written back more because they
# are written in part or because their writers sit on several SMs (partial_writers.cu) under Nsight
# Compute with one-pass DRAM metrics from an empty L2 (--cache-control all), and prints one row
# per launch: mode, MB, then the metrics.
#   validate/capture/probes/partial_writers.sh > validate/reference/h200/partial_writers_<gpu>.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_writers all
