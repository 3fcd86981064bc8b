#!/usr/bin/env bash
# Runs the L1 tag-stage probe (l1_lines.cu) under Nsight Compute and prints one row per launch:
# lines, iters, then the metrics (one-pass set), and the loop's SASS to l1_lines_sass.txt beside
# the output when OUT_SASS is set.
#   validate/capture/probes/l1_lines.sh > validate/reference/h200/l1_lines.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" l1_lines all
