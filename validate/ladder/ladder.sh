#!/bin/sh
# Simulated latency ladder of one preset: steady-state SM cycles per pointer-chase hop,
# (elapsed(2N hops) - elapsed(N hops)) / N with N = the footprint's nodes (one full cycle), capped
# at 2,097,152 hops (256 MB), beyond which every hop misses on every preset.
# Usage: validate/ladder/ladder.sh <arch> [footprint_bytes ...] > validate/ladder/<arch>.csv
set -e
arch=$1
shift
warpsim=${WARPSIM:-build/release/warpsim}
fps=${*:-16384 65536 262144 1048576 4194304 16777216 25165824 29360128 33554432 37748736 50331648 58720256 67108864 100663296 134217728 167772160 201326592 268435456 402653184 536870912 1073741824}
echo "footprint_bytes,cycles_per_access,hops_measured"
for fp in $fps; do
  n=$((fp / 128))
  [ $n -gt 2097152 ] && n=2097152
  [ $n -lt 1024 ] && n=1024
  a=$($warpsim run --arch "$arch" --workload pointer_chase --param footprint_bytes=$fp \
      --param hops=$n --quiet --csv /dev/stdout 2>/dev/null | grep gpc__cycles_elapsed | cut -d, -f3)
  b=$($warpsim run --arch "$arch" --workload pointer_chase --param footprint_bytes=$fp \
      --param hops=$((2 * n)) --quiet --csv /dev/stdout 2>/dev/null | grep gpc__cycles_elapsed | cut -d, -f3)
  echo "$fp,$(echo "scale=1; ($b - $a) / $n" | bc),$n"
done
