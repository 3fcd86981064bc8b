#!/usr/bin/env bash
# Runs the shared-load rate probe (lds_rate.cu) and prints its TSV; with an argument, also writes
# the kernels' SASS there:
#   validate/capture/probes/lds_rate.sh [SASS_FILE] > validate/reference/h200/lds_rate.tsv
exec "$(dirname "$0")/clock_probe.sh" lds_rate "$@"
