#!/usr/bin/env bash
# Runs the L1 store-allocation probe (l1_store_alloc.cu) under Nsight Compute with an empty cache
# before each launch and prints one row per launch: mode, a_kb, stream_kb, then the L1's global
# load and store sectors and their hits.
#   validate/capture/probes/l1_store_alloc.sh > validate/reference/h200/l1_store_alloc.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$work/probe" "$here/l1_store_alloc.cu"
cols=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
cols=$cols,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
cols=$cols,lts__t_sectors_srcunit_tex_op_read.sum
ncu --clock-control none --cache-control all --metrics "$cols" -k regex:probe_ -f \
    -o "$work/report" "$work/probe" run > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$work/raw.csv"
"$work/probe" list > "$work/list.tsv"
python3 - "$work/list.tsv" "$work/raw.csv" "$cols" <<'PY'
import csv, sys
listed = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
rows = list(csv.reader(open(sys.argv[2])))
head, data = rows[0], rows[2:]
cols = sys.argv[3].split(",")
idx = [head.index(c) for c in cols]
if len(listed) - 1 != len(data):
    sys.exit(f"{len(listed) - 1} launches listed, {len(data)} profiled")
print("\t".join(listed[0] + cols))
for lab, row in zip(listed[1:], data):
    print("\t".join(lab + [row[i].replace(",", "") for i in idx]))
PY
