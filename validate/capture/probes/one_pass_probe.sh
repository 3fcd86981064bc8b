#!/usr/bin/env bash
# Builds the probe NAME.cu, profiles its launches of kernels named probe_* under Nsight Compute
# with the given cache control (all: an empty cache before each launch; none: each launch sees
# what the previous one left), and prints one row per launch: the columns of `NAME list`, then the
# metrics. The metrics are the one-pass DRAM set unless PROBE_METRICS (comma-separated) names
# others. PROBE_REPLAY=application replays the whole program for each pass (metrics that need
# several passes, each from the same cache state). Used by dirty_l2.sh, partial_writes.sh,
# l1_store_alloc.sh, lrc_capacity.sh, partial_pressure.sh and others.
#   [PROBE_METRICS=m1,m2] [PROBE_REPLAY=kernel|application] one_pass_probe.sh NAME all|none
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
name=$1
cache=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/$name" "$here/$name.cu"
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
# The SM clock of each launch (ncu leaves the clocks as found): cycles of DRAM latency scale with it.
metrics=$metrics,gpc__cycles_elapsed.avg.per_second
metrics=${PROBE_METRICS:-$metrics}
ncu --clock-control none --cache-control "$cache" --replay-mode "${PROBE_REPLAY:-kernel}" \
    --metrics "$metrics" -k regex:probe_ -f \
    -o "$work/report" "$work/$name" run > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$work/raw.csv"
"$work/$name" list > "$work/list.tsv"
python3 - "$work/list.tsv" "$work/raw.csv" "$metrics" <<'PY'
import csv, sys
listed = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
labels_head, labels = listed[0], listed[1:]
rows = list(csv.reader(open(sys.argv[2])))
head, data = rows[0], rows[2:]
cols = sys.argv[3].split(",")
idx = [head.index(c) for c in cols]
if len(labels) != len(data):
    sys.exit(f"{len(labels)} launches listed, {len(data)} profiled")
print("\t".join(labels_head + cols))
for lab, row in zip(labels, data):
    print("\t".join(lab + [row[i].replace(",", "") for i in idx]))
PY
