#!/usr/bin/env bash
# Runs the gemm store probe (gemm_stores.cu) under Nsight Compute with one-pass DRAM metrics, each
# launch from an empty L2, and prints one row per launch: variant, kernel, parameter, then the
# metrics.
#   validate/capture/probes/gemm_stores.sh > validate/reference/h200/gemm_stores.tsv
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" gemm_stores all
