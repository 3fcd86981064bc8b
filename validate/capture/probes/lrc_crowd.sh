#!/usr/bin/env bash
# Runs the LRC crowd probe (lrc_crowd.cu) under Nsight Compute; writes DIR/lrc_crowd.tsv,
# DIR/lrc_crowd_ncu.csv and DIR/lrc_crowd_sass.txt:
#   validate/capture/probes/lrc_crowd.sh DIR
exec "$(dirname "$0")/lrc_probe.sh" lrc_crowd "$@"
