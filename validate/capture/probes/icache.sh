#!/usr/bin/env bash
# Runs the instruction-fetch probe (icache.cu) and writes into OUT_DIR its stamps (icache.tsv) and a
# piece of its SASS (icache_sass.txt).
#   icache.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/icache" "$here/icache.cu"
cuobjdump -sass "$work/icache" > "$work/sass.txt"
# The 1 K kernel's first lines and the instruction sizes they show (the whole listing is 8 MB).
grep -A40 "Function : .*straightILi1024" "$work/sass.txt" | head -48 > "$out/icache_sass.txt" || true
"$work/icache" > "$out/icache.tsv"
