#!/usr/bin/env bash
# Runs the loaded-latency probe (loaded_latency.cu) and prints its TSV:
#   validate/capture/probes/loaded_latency.sh > validate/reference/h200/loaded_latency.tsv
exec "$(dirname "$0")/clock_probe.sh" loaded_latency "$@"
