#!/usr/bin/env bash
# Runs the MUFU rate probe (mufu_rate.cu) and prints its TSV; with an argument, also writes
# the kernels' SASS there:
#   validate/capture/probes/mufu_rate.sh [SASS_FILE] > validate/reference/h200/mufu_rate.tsv
exec "$(dirname "$0")/clock_probe.sh" mufu_rate "$@"
