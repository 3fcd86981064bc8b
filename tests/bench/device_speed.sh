#!/usr/bin/env bash
# Simulation speed and peak memory on a many-core host (the H200 device's 16 cores): the
# Google Benchmark programs' GPU benchmarks on 1 to 16 threads, and whole `warpsim run`s of the
# largest workload models at 1 and 16 threads, checking that their results are identical.
# Usage: tests/bench/device_speed.sh BIN_DIR OUT_DIR   (BIN_DIR holds warpsim and gpu_bench)
set -u
bin=${1:?BIN_DIR}
out=${2:?OUT_DIR}
mkdir -p "$out"
{
  echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "date: $(date -u +%FT%TZ)"
} > "$out/host.txt"
"$bin/gpu_bench" --benchmark_filter='BM_Gpu' --benchmark_out="$out/gpu_bench.json" \
  --benchmark_out_format=json > "$out/gpu_bench.txt" 2>&1
# With BASE_BIN set (an earlier build), runs named base_* use it, for before / after figures.
run() {  # name threads args...
  local name=$1 threads=$2 exe="$bin/warpsim"
  shift 2
  [[ $name == base_* ]] && exe=${BASE_BIN:?BASE_BIN}
  /usr/bin/time -v -o "$out/$name.t$threads.time" timeout 280 "$exe" run --arch h200 \
    --threads "$threads" --json "$out/$name.t$threads.json" "$@" > "$out/$name.t$threads.txt" 2>&1
  echo "$name threads=$threads rc=$? $(grep -E 'Elapsed|Maximum resident' "$out/$name.t$threads.time" | xargs)" \
    >> "$out/runs.txt"
}
run sfu528 16 --workload sfu --param ctas=528 --param threads=256
run sfu528 1 --workload sfu --param ctas=528 --param threads=256
run gemm_mma_2048 16 --workload gemm_mma_bf16 --param m=2048 --param n=2048 --param k=2048
if [ -n "${BASE_BIN:-}" ]; then
  run base_sfu528 16 --workload sfu --param ctas=528 --param threads=256
  run base_gemm_mma_2048 16 --workload gemm_mma_bf16 --param m=2048 --param n=2048 --param k=2048
fi
run gemm_mma_2048 1 --workload gemm_mma_bf16 --param m=2048 --param n=2048 --param k=2048
# Identical results for any thread count, and (with BASE_BIN) before and after: the JSON reports
# without their "simulation" block (wall time and rate).
same() {  # label a.json b.json
  python3 - "$@" >> "$out/runs.txt" <<'PY'
import json, os, sys
label, a, b = sys.argv[1:]
if os.path.exists(a) and os.path.exists(b):
    da, db = json.load(open(a)), json.load(open(b))
    da.pop("simulation", None), db.pop("simulation", None)
    da.pop("warpsim_version", None), db.pop("warpsim_version", None)
    print(label + ": " + ("identical" if da == db else "DIFFER"))
PY
}
for name in sfu528 gemm_mma_2048; do
  same "$name 1 and 16 threads" "$out/$name.t1.json" "$out/$name.t16.json"
  same "$name base and this build, 16 threads" "$out/base_$name.t16.json" "$out/$name.t16.json"
done
