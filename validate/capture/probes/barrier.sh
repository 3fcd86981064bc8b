#!/usr/bin/env bash
# Runs the barrier probe (barrier.cu) and prints its TSV; with an argument, also writes the
# kernel's SASS there:
#   validate/capture/probes/barrier.sh [SASS_FILE] > validate/reference/h200/barrier.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/barrier" "$here/barrier.cu"
if [ $# -gt 0 ]; then cuobjdump -sass "$work/barrier" > "$1"; fi
"$work/barrier"
