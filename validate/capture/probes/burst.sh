#!/usr/bin/env bash
# Runs the burst probe (burst.cu): from an empty L2 under Nsight Compute (--cache-control all, as
# the capture), then with both matrices brought into the L2 first (no profiler), and writes into
# OUT_DIR the per-warp rows (burst_<cold|warm>_<shape>.tsv), the cold launches' cycles (ncu.tsv),
# the summary (summary.txt, burst_summary.py) and the probe kernel's SASS (sass.txt).
#   burst.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/burst" "$here/burst.cu"
cuobjdump -sass "$work/burst" | awk '/Function : .*probe_burst/,/EXIT/' |
    sed -e 's@/\* 0x[0-9a-f]* \*/@@' -e '/^[[:space:]]*$/d' > "$out/sass.txt"
ncu --clock-control none --cache-control all --metrics gpc__cycles_elapsed.max,sm__cycles_active.avg \
    -k regex:probe_burst -f -o "$work/report" "$work/burst" "$out" cold > "$work/log" 2>&1 ||
    { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base |
    python3 -c 'import csv,sys; r=list(csv.reader(sys.stdin)); h=r[0]; c=["Kernel Name","gpc__cycles_elapsed.max","sm__cycles_active.avg"]; print("\t".join(c)); [print("\t".join(x[h.index(k)].replace(",","") for k in c)) for x in r[2:]]' \
    > "$out/ncu.tsv"
"$work/burst" "$out" warm
python3 "$here/burst_summary.py" "$out"/burst_cold_*.tsv "$out"/burst_warm_*.tsv > "$out/summary.txt"
