#!/usr/bin/env bash
# Runs the MIO order probe (mio_order.cu) and prints its TSV; with an argument, also writes the
# probe's SASS there:
#   validate/capture/probes/mio_order.sh [SASS_FILE] > validate/reference/h200/mio_order.tsv
exec "$(dirname "$0")/clock_probe.sh" mio_order "$@"
