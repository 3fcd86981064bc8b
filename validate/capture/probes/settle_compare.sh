#!/usr/bin/env bash
# Profiles every twin point once with one-pass metrics (DRAM bytes, cycles, L2 write sectors) and
# ncu's cold caches, with and without twins::settle() before each measured launch, and prints one
# row per point: index, name, then each metric without and with the settle.
#   validate/capture/probes/settle_compare.sh > validate/reference/h200/settle_compare.tsv
set -euo pipefail
exec "$(dirname "$0")/../one_pass_runs.sh" as_is:TWINS_SETTLE=0 settled:TWINS_SETTLE=1
