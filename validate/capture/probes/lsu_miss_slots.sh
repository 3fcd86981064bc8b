#!/usr/bin/env bash
# Runs the LSU slot probe with L1-missing loads (lsu_miss_slots.cu) and writes into OUT_DIR its
# stamps (lsu_miss_slots.tsv, the format of lsu_slots.tsv), its SASS (lsu_miss_slots_sass.txt),
# and the stall reasons Nsight Compute gives each of its probe launches and each of lsu_slots.cu's
# (stalls.tsv: kernel, block size, lg_throttle and long_scoreboard warps per issue), which says
# whether a full queue of resident loads shows as lg_throttle on the H200.
#   lsu_miss_slots.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in lsu_miss_slots lsu_slots; do
  nvcc -O3 -arch=native -o "$work/$name" "$here/$name.cu"
done
cuobjdump -sass "$work/lsu_miss_slots" > "$out/lsu_miss_slots_sass.txt"
"$work/lsu_miss_slots" > "$out/lsu_miss_slots.tsv"
metrics=smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
metrics=$metrics,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
metrics=$metrics,gpc__cycles_elapsed.max
for name in lsu_miss_slots lsu_slots; do
  ncu --clock-control none --metrics "$metrics" -k regex:probe_ -f -o "$work/$name" \
      "$work/$name" > /dev/null 2> "$work/log" || { cat "$work/log" >&2; exit 1; }
  ncu -i "$work/$name.ncu-rep" --csv --page raw --print-units base > "$work/$name.csv"
done
python3 - "$work/lsu_miss_slots.csv" "$work/lsu_slots.csv" > "$out/stalls.tsv" <<'PY'
import csv, sys
print("kernel\tblock\tlg_throttle\tlong_scoreboard\tcycles")
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path)))
    head, data = rows[0], rows[2:]
    col = {h: i for i, h in enumerate(head)}
    for row in data:
        print("\t".join([row[col["Kernel Name"]].split("(")[0], row[col["Block Size"]].replace(",", " "),
                         row[col["smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio"]],
                         row[col["smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"]],
                         row[col["gpc__cycles_elapsed.max"]].replace(",", "")]))
PY
