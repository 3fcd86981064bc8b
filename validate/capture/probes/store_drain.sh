#!/usr/bin/env bash
# Runs the store-drain probe (store_drain.cu) under Nsight Compute with an empty cache before each
# launch and prints one row per launch: kind, n, CTAs, threads, then the metrics below.
#   validate/capture/probes/store_drain.sh > validate/reference/h200/store_drain.tsv
set -euo pipefail
metrics=gpc__cycles_elapsed.max,sm__cycles_active.avg,smsp__inst_executed.sum,smsp__warps_launched.sum
metrics=$metrics,smsp__average_warps_issue_stalled_drain_per_issue_active.ratio
metrics=$metrics,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio
metrics=$metrics,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
metrics=$metrics,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
metrics=$metrics,smsp__average_warp_latency_per_inst_issued.ratio
PROBE_METRICS=$metrics exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" store_drain all
