#!/usr/bin/env bash
# Device call 7: the dial engine with the heavy threshold at 64 (the default since call 6): its GPU
# tests; ncu of one traversal (512 sources, MK 1) on random 1M and R-MAT 20; R-MAT 20 at thresholds
# 32, 64 (default) and 256, MK 2, alternating.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
echo "== GPU tests"
t 150 apsp/dial_gpu
t 200 "apsp/sssp_plugin --gpu"
d=/tmp/g; mkdir -p $d
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null 2>&1
$GT gen rmat:20 --seed 1 -o $d/rmat20.tgb >/dev/null 2>&1
echo "== ncu, one traversal of 512 sources"
for g in r1m rmat20; do
  timeout 200 ncu --kernel-name regex:dial_loop --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section Occupancy --section LaunchStats --section SchedulerStats --section WarpStateStats \
    $APP $d/$g.tgb --engine dial --units gpu --mk 1 --seed 1 --sources random:512 >"$L/ncu-$g.txt" 2>&1
  echo "ncu $g: exit $?"
  grep -E "DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|^ +Duration|Achieved Occupancy|Memory Throughput|Registers Per|Grid Size|No Eligible|One or More" "$L/ncu-$g.txt" | head -14
done
r() { local n=$1; shift; timeout 60 "$@" >"$L/$n.log" 2>&1; printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== R-MAT 20, dial MK 2, heavy threshold"
for rep in 1 2; do for hv in 64 32 256; do
  TUCCOMPI_DIAL_HEAVY=$hv r rmat-heavy$hv-$rep $APP $d/rmat20.tgb --engine dial --units gpu --seed 1 --sources random:65536
done; done
r r1m-default $APP $d/r1m.tgb --engine dial --units gpu --seed 1 --sources random:65536
rm -f $d/*.tgb
tar czf "$OUT/logs.tgz" -C /tmp logs
