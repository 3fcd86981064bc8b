#!/usr/bin/env bash
# Runs the LRC window probe (lrc_window.cu) under Nsight Compute; writes DIR/lrc_window.tsv,
# DIR/lrc_window_ncu.csv and DIR/lrc_window_sass.txt:
#   validate/capture/probes/lrc_window.sh DIR
exec "$(dirname "$0")/lrc_probe.sh" lrc_window "$@"
