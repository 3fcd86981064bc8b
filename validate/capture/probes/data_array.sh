#!/usr/bin/env bash
# Runs the data-array probe (data_array.cu) and prints its TSV; with an argument, also writes the
# kernels' SASS there:
#   validate/capture/probes/data_array.sh [SASS_FILE] > validate/reference/h200/data_array.tsv
exec "$(dirname "$0")/clock_probe.sh" data_array "$@"
