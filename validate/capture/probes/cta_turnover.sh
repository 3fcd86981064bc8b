#!/usr/bin/env bash
# Runs the CTA-turnover probe (cta_turnover.cu) under Nsight Compute and prints one row per launch:
# threads, CTAs an SM, spin, CTAs, then the elapsed and active cycles, warps, instructions and the
# no-instruction stall ratio; the per-CTA clock stamps come from `cta_turnover stamps` without a
# profiler.
#   validate/capture/probes/cta_turnover.sh > validate/reference/h200/cta_turnover_ncu_GPU.tsv
set -euo pipefail
metrics=gpc__cycles_elapsed.max,sm__cycles_active.avg,smsp__inst_executed.sum,smsp__warps_launched.sum
metrics=$metrics,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio
metrics=$metrics,smsp__average_warp_latency_per_inst_issued.ratio
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active
PROBE_METRICS=$metrics exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" cta_turnover all
