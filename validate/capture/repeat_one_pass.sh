#!/usr/bin/env bash
# Profiles every twin point N times (default 5) with one-pass metrics (DRAM bytes, L2 write
# sectors, cycles) and ncu's cold caches, as capture.sh's one-pass profile, and prints one row per
# point: index, name, then each metric of each run (columns "metric:runK"). The loader takes the
# median of the runs as the measured DRAM bytes and reports their range: what the GPU itself
# varies by from run to run.
#   validate/capture/repeat_one_pass.sh [N] > validate/reference/h200/one_pass.tsv
set -euo pipefail
runs=${1:-5}
exec "$(dirname "$0")/one_pass_runs.sh" $(seq -f "run%g" 1 "$runs")
