#!/usr/bin/env bash
# Runs the naive transpose after L2 states of clean or dirty lines (partial_pressure.cu) under
# Nsight Compute, each pass of the program replayed whole (--replay-mode application, the caches
# left as the program leaves them), and prints one row per profiled launch: state, MB, n, repeat,
# then DRAM bytes, the L2's evict_first writes (the lines it gives up from its record of partly
# written lines, as the H200's l2_counters.tsv shows) and its fills.
#   validate/capture/probes/partial_pressure.sh > validate/reference/h200/partial_pressure_<gpu>.tsv
set -euo pipefail
m=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests_op_write_evict_first.sum
m=$m,lts__t_sectors_op_write_evict_first.sum,lts__d_sectors_fill_device.sum
m=$m,lts__t_sectors_srcunit_tex_op_write.sum,gpc__cycles_elapsed.max
m=$m,gpc__cycles_elapsed.avg.per_second
PROBE_METRICS=$m PROBE_REPLAY=application \
  exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" partial_pressure none
