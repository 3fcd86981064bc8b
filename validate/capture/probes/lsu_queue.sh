#!/usr/bin/env bash
# Runs the LSU / MIO queue probe (lsu_queue.cu) and prints its TSV; with an argument, also writes
# the kernels' SASS there:
#   validate/capture/probes/lsu_queue.sh [SASS_FILE] > validate/reference/h200/lsu_queue.tsv
exec "$(dirname "$0")/clock_probe.sh" lsu_queue "$@"
