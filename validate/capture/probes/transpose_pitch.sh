#!/usr/bin/env bash
# Runs the transpose pitch probe (transpose_pitch.cu) under Nsight Compute with one-pass DRAM
# metrics from an empty L2 (--cache-control all), and prints one row per launch: n, pitch, then the
# metrics.
#   validate/capture/probes/transpose_pitch.sh > validate/reference/h200/transpose_rows.tsv
# (transpose_pitch.tsv is the first capture, of the first eight launches, before the rows column.)
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" transpose_pitch all
