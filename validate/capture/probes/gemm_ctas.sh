#!/usr/bin/env bash
# Runs the gemm CTA probe (gemm_ctas.cu) and writes into OUT_DIR: the per-warp rows of three
# launches without a profiler (gemm_ctas.tsv.gz), the same under Nsight Compute as the capture
# profiles (--clock-control none --cache-control all; gemm_ctas_ncu_rows.tsv.gz), and ncu's
# per-SM spread of each launch (gemm_ctas_ncu.tsv: elapsed cycles, SM active cycles and load
# requests, min / avg / max over the SMs).
#   gemm_ctas.sh OUT_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc -O3 -std=c++17 -arch=native -o "$work/gemm_ctas" "$here/gemm_ctas.cu"
"$work/gemm_ctas" | gzip > "$out/gemm_ctas.tsv.gz"
metrics=gpc__cycles_elapsed.max,sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_ld.min
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_ld.avg
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_ld.max
ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:probe_ -f \
    -o "$work/report" "$work/gemm_ctas" 2> "$work/log" | gzip > "$out/gemm_ctas_ncu_rows.tsv.gz" ||
    { cat "$work/log" >&2; exit 1; }
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$work/raw.csv"
python3 - "$work/raw.csv" > "$out/gemm_ctas_ncu.tsv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[0], rows[2:]
cols = ["Kernel Name"] + [h for h in head if "__" in h and not h.startswith("device__")]
idx = [head.index(c) for c in cols]
print("\t".join(c.split("(")[0] for c in cols))
for row in data:
    print("\t".join(row[i].replace(",", "").split("(")[0] for i in idx))
PY
