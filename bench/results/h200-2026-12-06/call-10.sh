#!/usr/bin/env bash
# Device call 10: the dial loop's sparse pushes (a lane per arc where a vertex's new pairs sit in at
# most 2 of its 16 words) at 32 registers (8 blocks per SM): its GPU tests, then against the tree
# before it (gpu-out/apsp-before: call 9's tuccompi-apsp, carried) in alternating rounds on random
# 1M, R-MAT 20 and random 4M; ncu of one traversal.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp OLD=$PWD/gpu-out/apsp-before GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=$OUT/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
t 100 apsp/dial_gpu
DIAL_GRID_MAX=1 t 60 "apsp/dial_gpu four"
t 150 "apsp/sssp_plugin --gpu"
d=/tmp/g; mkdir -p $d
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null 2>&1
$GT gen rmat:20 --seed 1 -o $d/rmat20.tgb >/dev/null 2>&1
$GT gen random:4194304 --seed 1 -o $d/r4m.tgb >/dev/null 2>&1
r() { local n=$1; shift; timeout 40 "$@" >"$L/$n.log" 2>&1; printf '%-16s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$L/$n.log" | tail -1)"; }
for rep in 1 2; do
  for g in r1m rmat20 r4m; do
    k=65536; [ $g = r4m ] && k=16384
    r $g-before-$rep $OLD $d/$g.tgb --engine dial --units gpu --seed 1 --sources random:$k
    r $g-new-$rep $APP $d/$g.tgb --engine dial --units gpu --seed 1 --sources random:$k
  done
done
$APP $d/rmat20.tgb --engine dial --units gpu --seed 1 --sources random:2048 -o $d/n.tsv >/dev/null 2>&1
$OLD $d/rmat20.tgb --engine dial --units gpu --seed 1 --sources random:2048 -o $d/o.tsv >/dev/null 2>&1
cmp $d/n.tsv $d/o.tsv && echo "R-MAT 20: new table = before's"
timeout 60 ncu --kernel-name regex:dial_loop --launch-count 1 --section SpeedOfLight --section Occupancy --section SchedulerStats \
  $APP $d/r1m.tgb --engine dial --units gpu --mk 1 --seed 1 --sources random:512 >"$L/ncu-r1m.txt" 2>&1
grep -E "DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|^ +Duration|Achieved Occupancy|No Eligible" "$L/ncu-r1m.txt"
rm -f $d/*
