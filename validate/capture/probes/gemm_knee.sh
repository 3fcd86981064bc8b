#!/usr/bin/env bash
# Runs the gemm knee probe (gemm_knee.cu) under Nsight Compute with one-pass DRAM metrics, each
# launch from an empty L2, once per placement (TWINS_PAD_MB = 0, 8, 30), and prints one row per
# launch: pad, variant, kernel, parameter, then the metrics. GEMM_KNEE_N and GEMM_KNEE_KS pass
# through to the probe (m = n and the k values; gemm_knee.cu).
#   [GEMM_KNEE_N=1024 GEMM_KNEE_KS=4096,8192] validate/capture/probes/gemm_knee.sh > knee.tsv
# reference/h200/gemm_knee_h100.tsv joins three such outputs with a leading column, the call.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
first=1
for pad in 0 8 30; do
  TWINS_PAD_MB=$pad "$here/one_pass_probe.sh" gemm_knee all > "${TMPDIR:-/tmp}/gemm_knee_$pad.tsv"
  if [ $first = 1 ]; then
    head -1 "${TMPDIR:-/tmp}/gemm_knee_$pad.tsv" | sed 's/^/pad_mb\t/'
    first=0
  fi
  tail -n +2 "${TMPDIR:-/tmp}/gemm_knee_$pad.tsv" | sed "s/^/$pad\t/"
done
