#!/usr/bin/env bash
# Profiles the kernels of torch_ops.py (PyTorch operations: kernels warpsim's authors did not write)
# under Nsight Compute, one launch each, cold caches and the clocks as found, with every section
# and the SASS source page, for `warpsim replay` to be checked against:
#   validate/capture/foreign/capture.sh OUT_DIR [SET]
# SET is torch_ops.py's op set: first (the default) or second.
# Writes OUT_DIR/torch_ops.ncu-rep, raw.csv (raw page, base units), raw_instances.csv (the same
# with metric instances: the per-PC counts and sass__inst_executed_per_opcode), source_sass.csv
# (the source page: per-PC SASS and counters), kernels.tsv (launch, kernel, grid, block, cycles,
# warp instructions) and meta.txt (GPU, driver, ncu, torch versions, command line). Replay with
#   warpsim replay OUT_DIR/raw_instances.csv OUT_DIR/source_sass.csv --arch h200
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?OUT_DIR}
set_name=${2:-first}
mkdir -p "$out"
cmd=(ncu --clock-control none --cache-control all --set full --import-source yes
     --nvtx --nvtx-include "measure/" -f -o "$out/torch_ops" python3 "$here/torch_ops.py" "$set_name")
{
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "ncu: $(ncu --version | tail -n1)"
  echo "torch: $(python3 -c 'import torch; print(torch.__version__, torch.version.cuda)')"
  echo "date: $(date -u +%FT%TZ)"
  echo "command: ${cmd[*]}"
} > "$out/meta.txt"
"${cmd[@]}" > "$out/ncu.log" 2>&1
ncu -i "$out/torch_ops.ncu-rep" --csv --page raw --print-units base > "$out/raw.csv"
ncu -i "$out/torch_ops.ncu-rep" --csv --page raw --print-units base \
    --print-metric-instances details > "$out/raw_instances.csv"
ncu -i "$out/torch_ops.ncu-rep" --csv --page source --print-source sass > "$out/source_sass.csv"
python3 - "$out/raw.csv" > "$out/kernels.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))[1:]
print("launch\tkernel\tgrid\tblock\tcycles\twarp_instructions")
for i, r in enumerate(rows):
    print("\t".join([str(i), r["Kernel Name"][:120], r["Grid Size"], r["Block Size"],
                     r.get("gpc__cycles_elapsed.max", ""), r.get("smsp__inst_executed.sum", "")]))
PY
