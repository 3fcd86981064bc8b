#!/usr/bin/env bash
# Every lts__ counter of the L2's sources, operations, eviction classes and fills that the GPU's ncu
# lists (ncu --query-metrics, names with ltcfabric, lookup_miss, fill, srcnode, evict, or ending in
# _op_read / _op_write), profiled from an empty L2 (--cache-control all, several passes) on the
# partial-write probe (partial_writes.cu) and on twin points whose DRAM bytes the model misses.
# Prints a TSV: launch, then each counter (.sum) that is non-zero in some launch.
#   validate/capture/probes/l2_counters.sh > validate/reference/h200/l2_counters.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ncu --query-metrics > "$work/query.txt"
awk '{print $1}' "$work/query.txt" | grep -E '^lts__(t|d)_' |
  grep -E 'ltcfabric|lookup_miss|fill|srcnode|_op_read$|_op_write$|evict' | sort -u |
  sed 's/$/.sum/' > "$work/names.txt"
metrics=$( (cat "$work/names.txt"; echo dram__bytes_read.sum; echo dram__bytes_write.sum) | paste -sd, -)
profile() {  # profile OUT_CSV KERNEL_REGEX BINARY ARGS...
  local out=$1 regex=$2; shift 2
  ncu --clock-control none --cache-control all --metrics "$metrics" -k "regex:$regex" -f \
      -o "$work/r" "$@" > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
  ncu -i "$work/r.ncu-rep" --csv --page raw --print-units base > "$out"
}
nvcc -O3 -std=c++17 -arch=native -o "$work/partial_writes" "$here/partial_writes.cu"
profile "$work/pw.csv" probe_ "$work/partial_writes" run
"$work/partial_writes" list | tail -n +2 | sed 's/^/partial_writes bytes=/; s/\t/ mb=/' > "$work/labels.txt"
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o "$work/twins" "$root"/workloads/cuda/*.cu
csvs=("$work/pw.csv")
i=0
for point in transpose_naive/n=2048 transpose_naive/n=4096 gemm_mma_bf16/m=n=k=2048 \
             pointer_chase/footprint=33554432 pointer_chase/footprint=20971520 \
             strided_copy/n=2097152,stride=32 layernorm/rows=1024,cols=8192; do
  i=$((i + 1))
  profile "$work/t$i.csv" w_ "$work/twins" run "$point"
  csvs+=("$work/t$i.csv")
  echo "$point" >> "$work/labels.txt"
done
python3 - "$work/labels.txt" "${csvs[@]}" <<'PY'
import csv, sys
labels = [l.rstrip("\n") for l in open(sys.argv[1])]
rows = []
for path in sys.argv[2:]:
    table = list(csv.reader(open(path)))
    head = table[0]
    rows += [dict(zip(head, r)) for r in table[2:]]
if len(rows) != len(labels):
    sys.exit(f"{len(labels)} launches listed, {len(rows)} profiled")
num = lambda v: float(v.replace(",", "")) if v not in ("", "n/a") else 0.0
names = sorted({k for r in rows for k in r if k.endswith(".sum")})
names = [n for n in names if any(num(r.get(n, "0")) for r in rows)
         and not n.startswith(("profiler__", "gpu__time"))]
print("launch\t" + "\t".join(names))
for lab, r in zip(labels, rows):
    print(lab + "\t" + "\t".join(str(int(num(r.get(n, "0")))) for n in names))
PY
