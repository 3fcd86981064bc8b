#!/usr/bin/env bash
# Runs the fence probe (fence.cu) and writes into OUT_DIR its stamps (fence.tsv) and its SASS
# (fence_sass.txt).
#   fence.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
"$here/clock_probe.sh" fence "$1/fence_sass.txt" > "$1/fence.tsv"
