#!/usr/bin/env bash
# Captures a validation reference on any machine with an NVIDIA GPU, nvcc and ncu:
#   validate/capture/capture.sh [OUT_DIR]        (default: validate/reference/<gpu>)
# It builds every CUDA twin in workloads/cuda/ for the GPU's architecture, keeps the SASS listing
# (cuobjdump), lists the points, and profiles each point once under Nsight Compute with cold caches
# and the clocks as found (never locked or changed), with the metrics of metrics.txt plus the
# SourceCounters section (per-PC SASS counts). It writes into OUT_DIR:
#   meta.json           GPU, driver, clocks, CUDA, ncu version, command lines, date
#   points.tsv          the points in launch order (index, name, kernel, category, role, params)
#   sass.txt            cuobjdump -sass of the twins binary
#   raw.csv             ncu raw page, base units, one row per point
#   raw_instances.csv   the same with metric instances (sass__inst_executed_per_opcode by opcode)
#   one_pass.tsv        DRAM bytes, L2 write sectors and cycles per point from a second, one-pass
#                       profile (the loader takes DRAM bytes from it)
#   source_sass.csv     ncu source page (per-PC SASS and counters) of every point
#   capture.log         the run's output
#   report.ncu-rep      the ncu report (when under 16 MB)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
start=$(date +%s)

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1)
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d '.')
slug=$(echo "$gpu_name" | sed -e 's/^NVIDIA //' -e 's/[^A-Za-z0-9]\+/_/g' | tr 'A-Z' 'a-z')
out=${1:-$root/validate/reference/$slug}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

log() { echo "[capture $(( $(date +%s) - start ))s] $*" | tee -a "$out/capture.log" >&2; }
: > "$out/capture.log"
log "GPU $gpu_name (sm_$cc) -> $out"

# Arch-specific targets (sm_90a, sm_100a, ...) where the GPU has them, for wgmma and friends.
case "$cc" in 90|100|101|103|120|121) target="${cc}a" ;; *) target="$cc" ;; esac
nvcc_cmd=(nvcc -O3 -std=c++17 "-gencode=arch=compute_${target},code=sm_${target}" -lineinfo
          -o "$work/twins" "$root"/workloads/cuda/*.cu)
"${nvcc_cmd[@]}"
cuobjdump -sass "$work/twins" > "$out/sass.txt"
"$work/twins" list > "$out/points.tsv"
log "built $(($(wc -l < "$out/points.tsv") - 1)) points"

metrics=$(grep -v '^#' "$root/validate/capture/metrics.txt" | sed '/^$/d' | paste -sd, -)
ncu_cmd=(ncu --clock-control none --cache-control all --section SourceCounters
         --metrics "$metrics" -k regex:w_ -f -o "$work/report" "$work/twins" run)
"${ncu_cmd[@]}" >> "$out/capture.log" 2>&1
log "profiled"
# DRAM bytes again in one pass: the many replay passes of the full profile add write-backs.
one_pass_metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
ncu --clock-control none --cache-control all --metrics "$one_pass_metrics" -k regex:w_ -f \
    -o "$work/one_pass" "$work/twins" run >> "$out/capture.log" 2>&1
ncu -i "$work/one_pass.ncu-rep" --csv --page raw --print-units base > "$work/one_pass.csv"
"$root/validate/capture/one_pass.py" "$out/points.tsv" "$work/one_pass.csv" > "$out/one_pass.tsv"
log "profiled DRAM bytes in one pass"

ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base > "$out/raw.csv"
ncu -i "$work/report.ncu-rep" --csv --page raw --print-units base \
    --print-metric-instances details > "$out/raw_instances.csv"
ncu -i "$work/report.ncu-rep" --csv --page source --print-source sass > "$out/source_sass.csv"
size=$(stat -c %s "$work/report.ncu-rep")
if [ "$size" -lt $((16 * 1024 * 1024)) ]; then cp "$work/report.ncu-rep" "$out/report.ncu-rep"; fi
log "exported (report $size bytes)"

q() { nvidia-smi --query-gpu="$1" --format=csv,noheader,nounits | head -n1; }
cat > "$out/meta.json" <<JSON
{
  "gpu": "$gpu_name",
  "compute_capability": "$cc",
  "driver": "$(q driver_version)",
  "sm_clock_max_mhz": "$(q clocks.max.sm)",
  "memory_clock_max_mhz": "$(q clocks.max.mem)",
  "memory_total_mib": "$(q memory.total)",
  "cuda": "$(nvcc --version | tail -n1)",
  "ncu": "$(ncu --version | tail -n1)",
  "nvcc_command": "${nvcc_cmd[*]//$root\//}",
  "ncu_command": "ncu --clock-control none --cache-control all --section SourceCounters --metrics <validate/capture/metrics.txt> -k regex:w_ -f -o report twins run",
  "clocks_note": "clocks as found, never locked; ncu reads the SM clock per point (gpc__cycles_elapsed.avg.per_second)",
  "captured": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "seconds": $(( $(date +%s) - start ))
}
JSON
log "done"
