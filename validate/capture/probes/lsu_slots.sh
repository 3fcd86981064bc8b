#!/usr/bin/env bash
# Runs the LSU slot probe (lsu_slots.cu: loads of 1-32 lines queued back to back, and the wait on
# a store's address register) and prints its TSV; with an argument, also writes the SASS there:
#   validate/capture/probes/lsu_slots.sh [SASS_FILE] > validate/reference/h200/lsu_slots.tsv
exec "$(dirname "$0")/clock_probe.sh" lsu_slots "$@"
