#!/usr/bin/env bash
# Runs the LRC hits probe (lrc_hits.cu) under Nsight Compute; writes DIR/lrc_hits.tsv,
# DIR/lrc_hits_ncu.csv and DIR/lrc_hits_sass.txt:
#   validate/capture/probes/lrc_hits.sh DIR
exec "$(dirname "$0")/lrc_probe.sh" lrc_hits "$@"
