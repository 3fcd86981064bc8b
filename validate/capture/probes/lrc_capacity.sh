#!/usr/bin/env bash
# Runs the coalescer-capacity probe (lrc_capacity.cu) under Nsight Compute, an empty L2 before
# each launch, and prints one row per launch: pairs, warps, lines, then the coalescer's joined read
# sectors, the L2's read lookups and DRAM bytes read.
#   validate/capture/probes/lrc_capacity.sh > validate/reference/h200/lrc_capacity.tsv
set -euo pipefail
metrics=lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics=$metrics,lrc__request_sectors_op_read_coalescable.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics=$metrics,dram__bytes_read.sum,gpc__cycles_elapsed.max
PROBE_METRICS=$metrics exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" lrc_capacity all
