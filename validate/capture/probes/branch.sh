#!/usr/bin/env bash
# Runs the branch probe (branch.cu) and prints its TSV; with an argument, also writes the
# kernel's SASS there:
#   validate/capture/probes/branch.sh [SASS_FILE] > validate/reference/h200/branch.tsv
exec "$(dirname "$0")/clock_probe.sh" branch "$@"
