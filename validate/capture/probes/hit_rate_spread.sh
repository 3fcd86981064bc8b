#!/usr/bin/env bash
# How far the H200's L2 hit rate of one twin point moves between runs and buffer placements:
# builds the twins, then profiles the point given (default gemm_wgmma_bf16/m=n=k=1024) three
# times at each padding of 0, 2, 8 and 30 MB (TWINS_PAD_MB, as capture/placement_runs.sh) with
# the L2 hit rate, the L2's read lookups and the coalescer's joins, and prints one row per run.
#   validate/capture/probes/hit_rate_spread.sh [POINT] > validate/reference/h200/hit_rate_spread.tsv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
point=${1:-gemm_wgmma_bf16/m=n=k=1024}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/../build_twins.sh" "$work/twins"
metrics=lts__t_sector_hit_rate.pct,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum
metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
metrics=$metrics,gpc__cycles_elapsed.max
printf 'point\tpad_mb\trun\t%s\n' "$(echo "$metrics" | tr ',' '\t')"
for pad in 0 2 8 30; do
  for run in 1 2 3; do
    TWINS_PAD_MB=$pad ncu --clock-control none --cache-control all --metrics "$metrics" \
        -k regex:w_ -c 1 --csv --print-units base \
        "$work/twins" run "$point" > "$work/out.csv" 2> "$work/log" || { cat "$work/log" >&2; exit 1; }
    python3 - "$work/out.csv" "$point" "$pad" "$run" "$metrics" <<'PY'
import csv, sys
path, point, pad, run, metrics = sys.argv[1:]
rows = [r for r in csv.reader(l for l in open(path) if l.startswith('"'))]
head, data = rows[0], rows[1:]
name_i, value_i = head.index("Metric Name"), head.index("Metric Value")
values = {r[name_i]: r[value_i].replace(",", "") for r in data}
print("\t".join([point, pad, run] + [values.get(m, "") for m in metrics.split(",")]))
PY
  done
done
