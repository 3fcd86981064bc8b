#!/usr/bin/env bash
# Runs the fence probe (fence.cu) and writes into OUT_DIR its stamps (fence.tsv) and its SASS
# (fence_sass.txt).
#   fence.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/fence" "$here/fence.cu"
cuobjdump -sass "$work/fence" > "$out/fence_sass.txt"
"$work/fence" > "$out/fence.tsv"
