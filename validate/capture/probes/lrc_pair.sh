#!/usr/bin/env bash
# Runs the LRC pair probe (lrc_pair.cu) under Nsight Compute; writes DIR/lrc_pair.tsv,
# DIR/lrc_pair_ncu.csv and DIR/lrc_pair_sass.txt:
#   validate/capture/probes/lrc_pair.sh DIR
exec "$(dirname "$0")/lrc_probe.sh" lrc_pair "$@"
