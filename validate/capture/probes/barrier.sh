#!/usr/bin/env bash
# Runs the barrier probe (barrier.cu) and prints its TSV; with an argument, also writes the
# kernel's SASS there:
#   validate/capture/probes/barrier.sh [SASS_FILE] > validate/reference/h200/barrier.tsv
exec "$(dirname "$0")/clock_probe.sh" barrier "$@"
