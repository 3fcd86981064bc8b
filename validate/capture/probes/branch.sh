#!/usr/bin/env bash
# Runs the branch probe (branch.cu) and prints its TSV; with an argument, also writes the
# kernel's SASS there:
#   validate/capture/probes/branch.sh [SASS_FILE] > validate/reference/h200/branch.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/branch" "$here/branch.cu"
if [ $# -gt 0 ]; then cuobjdump -sass "$work/branch" > "$1"; fi
"$work/branch"
