#!/usr/bin/env bash
# Runs the L1 waiter probe (l1_merge.cu) and writes into OUT_DIR its stamps (l1_merge.tsv) and its
# SASS (l1_merge_sass.txt).
#   l1_merge.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/l1_merge" "$here/l1_merge.cu"
cuobjdump -sass "$work/l1_merge" > "$out/l1_merge_sass.txt"
"$work/l1_merge" > "$out/l1_merge.tsv"
