#!/usr/bin/env bash
# Runs the L1 store-allocation probe (l1_store_alloc.cu) under Nsight Compute with an empty cache
# before each launch and prints one row per launch: mode, a_kb, stream_kb, then the L1's global
# load and store sectors and their hits, and the L2's read sectors.
#   validate/capture/probes/l1_store_alloc.sh > validate/reference/h200/l1_store_alloc.tsv
set -euo pipefail
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum
PROBE_METRICS=$metrics exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" l1_store_alloc all
