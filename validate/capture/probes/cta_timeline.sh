#!/usr/bin/env bash
# Runs the CTA timeline probe (cta_timeline.cu) under Nsight Compute from an empty L2 (as the
# capture), and writes into OUT_DIR: the per-warp phase rows (warps_<n>_<pitch>.tsv), the
# launches' cycles (ncu.tsv: the plain twin kernel, then the timed one, per n and pitch), the
# summaries (summary_<n>_<pitch>.txt, cta_timeline_summary.py) and the timed kernel's SASS (sass.txt).
#   cta_timeline.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/cta_timeline" "$here/cta_timeline.cu"
cuobjdump -sass "$work/cta_timeline" | awk '/Function : .*probe_timed/,/EXIT/' |
    sed -e 's@/\* 0x[0-9a-f]* \*/@@' -e '/^[[:space:]]*$/d' > "$out/sass.txt"
metrics=gpc__cycles_elapsed.max,sm__cycles_active.avg,gpc__cycles_elapsed.avg.per_second
ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:probe_ -f \
    -o "$work/report" "$work/cta_timeline" "$out" > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$work/raw.csv"
python3 - "$work/raw.csv" > "$out/ncu.tsv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[0], rows[2:]
cols = ["Kernel Name", "Grid Size", "gpc__cycles_elapsed.max", "sm__cycles_active.avg",
        "gpc__cycles_elapsed.avg.per_second"]
idx = [head.index(c) for c in cols]
print("\t".join(cols))
for row in data:
    print("\t".join(row[i].replace(",", "") for i in idx))
PY
for rows in "$out"/warps_*.tsv; do
  base=$(basename "$rows" .tsv)
  python3 "$here/cta_timeline_summary.py" device "$rows" > "$out/summary_${base#warps_}.txt"
done
