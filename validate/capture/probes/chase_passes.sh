#!/usr/bin/env bash
# Runs the chase-passes probe (chase_passes.cu) under Nsight Compute with one-pass DRAM metrics
# and an empty L2 before each launch, and prints one row per launch: MB, passes, hops, then the
# metrics.
#   validate/capture/probes/chase_passes.sh > validate/reference/h200/chase_passes.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" chase_passes all
