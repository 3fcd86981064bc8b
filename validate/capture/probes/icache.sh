#!/usr/bin/env bash
# Runs the instruction-fetch probe (icache.cu) and writes into OUT_DIR its stamps (icache.tsv) and
# the start of its 1 K kernel's SASS (icache_sass.txt; the whole listing is 8 MB).
#   icache.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
sass=$(mktemp)
trap 'rm -f "$sass"' EXIT
"$here/clock_probe.sh" icache "$sass" > "$1/icache.tsv"
grep -A40 "Function : .*straightILi1024" "$sass" | head -48 > "$1/icache_sass.txt" || true
