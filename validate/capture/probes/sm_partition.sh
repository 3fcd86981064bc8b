#!/usr/bin/env bash
# Runs the SM-partition and CTA-placement probe (sm_partition.cu) and prints its TSV; with an
# argument, also writes the probe's SASS there:
#   validate/capture/probes/sm_partition.sh [SASS_FILE] > validate/reference/h200/sm_partition.tsv
exec "$(dirname "$0")/clock_probe.sh" sm_partition "$@"
