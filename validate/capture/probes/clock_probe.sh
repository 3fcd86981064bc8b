#!/usr/bin/env bash
# Builds and runs one of the clock64 probes (NAME.cu beside this script) and prints its TSV; with
# a second argument, also writes the probe's SASS there:
#   validate/capture/probes/clock_probe.sh NAME [SASS_FILE]
# barrier.sh, branch.sh, branch_align.sh and fence.sh call it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -arch=native -o "$work/$name" "$here/$name.cu"
if [ $# -gt 1 ]; then cuobjdump -sass "$work/$name" > "$2"; fi
"$work/$name"
