#!/usr/bin/env bash
# Runs the MIO/SFU latency probe (mio_latency.cu) and prints its TSV; with an argument, also
# writes the kernels' SASS there:
#   validate/capture/probes/mio_latency.sh [SASS_FILE] > validate/reference/h200/mio_latency.tsv
exec "$(dirname "$0")/clock_probe.sh" mio_latency "$@"
