#!/usr/bin/env bash
# Runs the L1 geometry probe (l1_geometry.cu) and prints its TSV:
#   validate/capture/probes/l1_geometry.sh > validate/reference/h200/l1_geometry.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/l1_geometry" "$here/l1_geometry.cu"
"$work/l1_geometry"
