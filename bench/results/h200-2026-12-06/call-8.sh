#!/usr/bin/env bash
# Device call 8: the heavy list holds every vertex (call 7: threshold 32 ran R-MAT 20 at 4,100 SSSP/s,
# the 65,536-entry list full before the hubs came); the tuner's L1 preference against CUDA's own
# choice (TUCCOMPI_TUNE=cuda): ncu showed 5 blocks of 256 per SM, 62% occupancy, 44% of cycles
# with no eligible warp. Alternating rounds, MK 2.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
t 150 apsp/dial_gpu
d=/tmp/g; mkdir -p $d
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null 2>&1
$GT gen rmat:20 --seed 1 -o $d/rmat20.tgb >/dev/null 2>&1
r() { local n=$1; shift; timeout 60 "$@" >"$L/$n.log" 2>&1; printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
for rep in 1 2; do
  r rmat-h64-$rep $APP $d/rmat20.tgb --engine dial --units gpu --seed 1 --sources random:65536
  TUCCOMPI_DIAL_HEAVY=32 r rmat-h32-$rep $APP $d/rmat20.tgb --engine dial --units gpu --seed 1 --sources random:65536
  TUCCOMPI_TUNE=cuda r rmat-h64-cuda-$rep $APP $d/rmat20.tgb --engine dial --units gpu --seed 1 --sources random:65536
  r r1m-$rep $APP $d/r1m.tgb --engine dial --units gpu --seed 1 --sources random:65536
  TUCCOMPI_TUNE=cuda r r1m-cuda-$rep $APP $d/r1m.tgb --engine dial --units gpu --seed 1 --sources random:65536
done
TUCCOMPI_TUNE=cuda timeout 200 ncu --kernel-name regex:dial_loop --launch-count 1 --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section SchedulerStats $APP $d/r1m.tgb --engine dial --units gpu --mk 1 --seed 1 --sources random:512 >"$L/ncu-r1m-cuda.txt" 2>&1
grep -E "DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|^ +Duration|Achieved Occupancy|Grid Size|No Eligible|Block Limit" "$L/ncu-r1m-cuda.txt" | head -14
rm -f $d/*.tgb
tar czf "$OUT/logs.tgz" -C /tmp logs
