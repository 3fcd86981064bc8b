#!/usr/bin/env bash
# Runs the idle-traffic probe (idle_traffic.cu) under Nsight Compute with one-pass DRAM metrics
# and an empty L2 before each launch, and prints one row per launch: cycles, repeat, then the
# metrics.
#   validate/capture/probes/idle_traffic.sh > validate/reference/h200/idle_traffic.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" idle_traffic all
