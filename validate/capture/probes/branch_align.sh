#!/usr/bin/env bash
# Runs the branch-alignment probe (branch_align.cu) and prints its TSV; with an argument, also
# writes the kernels' SASS there:
#   validate/capture/probes/branch_align.sh [SASS_FILE] > validate/reference/h200/branch_align.tsv
exec "$(dirname "$0")/clock_probe.sh" branch_align "$@"
