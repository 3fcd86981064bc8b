#!/usr/bin/env bash
# Runs the instruction-fetch probe (icache.cu) and writes into OUT_DIR its stamps (icache.tsv) and
# the start of its 1 K kernel's SASS (icache_sass.txt; the whole listing is 8 MB). With `ncu` as
# the second argument, the probe runs under Nsight Compute with the reference's cache control
# (every launch starts with the caches emptied) and writes icache_ncu.tsv and ncu's log instead.
#   icache.sh OUT_DIR [ncu]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/icache" "$here/icache.cu"
if [ "${2:-}" = ncu ]; then
  ncu --cache-control all --clock-control none --metrics gpc__cycles_elapsed.max \
    --log-file "$1/icache_ncu.log" "$work/icache" > "$1/icache_ncu.tsv"
else
  cuobjdump -sass "$work/icache" > "$work/sass.txt"
  grep -A40 "Function : .*straightILi1024" "$work/sass.txt" | head -48 > "$1/icache_sass.txt" || true
  "$work/icache" > "$1/icache.tsv"
fi
