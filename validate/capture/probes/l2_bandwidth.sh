#!/usr/bin/env bash
# Runs the L2 bandwidth probe (l2_bandwidth.cu) under Nsight Compute with no cache control (each
# launch finds the lines the one before left) and prints one row per launch: variant, kernel,
# share KiB, passes, then the SM and L2 cycles, the L2's read and write sectors from the SMs, the
# sectors crossing between the L2's partitions and the DRAM bytes.
#   validate/capture/probes/l2_bandwidth.sh > validate/reference/h200/l2_bandwidth.tsv
set -euo pipefail
m=gpc__cycles_elapsed.max,lts__cycles_elapsed.avg,lts__cycles_elapsed.avg.per_second
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
m=$m,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors.max
m=$m,lts__t_sectors.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpc__cycles_elapsed.avg.per_second
PROBE_METRICS=$m exec "$(cd "$(dirname "$0")" && pwd)/one_pass_probe.sh" l2_bandwidth none
