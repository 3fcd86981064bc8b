#!/usr/bin/env bash
# Runs the probe of how long the L2 keeps a partly written line (partial_age.cu) under Nsight
# Compute with one-pass DRAM metrics from an empty L2 (--cache-control all), and prints one row per
# launch: mode, MB, gap cycles, then the metrics.
#   validate/capture/probes/partial_age.sh > validate/reference/h200/partial_age_<gpu>.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_age all
