#!/usr/bin/env bash
# Profiles every point once per placement of its buffers, with one-pass DRAM metrics: the twins
# allocate each point's buffers after 0, 2, 4, 8, 14, 30, 62 and 126 MB of padding
# (TWINS_PAD_MB), so that they land at other physical addresses, which the L2 maps to its slices
# and sets. The loader takes the least and greatest over the placements (validate/README.md,
# "Placement"). About 2 minutes on the H200.
#   validate/capture/placement_runs.sh > validate/reference/<gpu>/one_pass_placement.tsv
set -euo pipefail
specs=()
for mb in 0 2 4 8 14 30 62 126; do specs+=("pad$mb:TWINS_PAD_MB=$mb"); done
exec "$(dirname "$0")/one_pass_runs.sh" "${specs[@]}"
