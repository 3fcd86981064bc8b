#!/usr/bin/env bash
# Runs the branch-alignment probe (branch_align.cu) and prints its TSV; with an argument, also
# writes the kernels' SASS there:
#   validate/capture/probes/branch_align.sh [SASS_FILE] > validate/reference/h200/branch_align.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/branch_align" "$here/branch_align.cu"
if [ $# -gt 0 ]; then cuobjdump -sass "$work/branch_align" > "$1"; fi
"$work/branch_align"
