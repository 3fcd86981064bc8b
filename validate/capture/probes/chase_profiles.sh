#!/usr/bin/env bash
# Whether the pointer chases' DRAM reads at the L2's capacity depend on how ncu profiles them:
# every point twice with the one-pass metrics (DRAM bytes, L2 write sectors, cycles; as
# one_pass_runs.sh, all points in one process), then each chase of 8, 20 and 32 MB alone in its
# own process, once with the one-pass metrics and once with lrc_points.sh's L2 counters (several
# replay passes). Writes DIR/all_points.tsv and DIR/chase_alone.tsv (label, point, metrics).
#   validate/capture/probes/chase_profiles.sh DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/validate/capture/one_pass_runs.sh" run1 run2 > "$dir/all_points.tsv"
"$root/validate/capture/build_twins.sh" "$work/twins"
one=dram__bytes_read.sum,dram__bytes_write.sum,gpc__cycles_elapsed.max
multi=$one,lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum
multi+=,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lrc__request_sectors_op_read_coalescable.sum
printf 'label\tpoint\tmetric\tvalue\n' > "$dir/chase_alone.tsv"
for point in pointer_chase/footprint=8388608 pointer_chase/footprint=20971520 \
             pointer_chase/footprint=33554432; do
  for mode in one multi; do
    metrics=$one; [ "$mode" = multi ] && metrics=$multi
    ncu --clock-control none --cache-control all --metrics "$metrics" -k regex:w_ -f \
        -o "$work/r" "$work/twins" run "$point" > "$work/log" 2>&1 || { cat "$work/log" >&2; exit 1; }
    ncu -i "$work/r.ncu-rep" --csv --page raw --print-units base > "$work/r.csv"
    python3 - "$mode" "$point" "$work/r.csv" >> "$dir/chase_alone.tsv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[3])))
for name, value in zip(rows[0], rows[2]):
    if name.endswith((".sum", ".max")):
        print(f"{sys.argv[1]}\t{sys.argv[2]}\t{name}\t{value.replace(',', '')}")
PY
  done
done
