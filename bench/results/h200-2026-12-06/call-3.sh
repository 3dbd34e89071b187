#!/usr/bin/env bash
# Device call 3: dial_gpu after the fixes (a warp-uniform bitmap word, the halves' arc loops in step
# with whole-warp collectives, the accumulators read through L2), whole GPU and one block, memcheck;
# then random 1M again (dial MK 2 and 4 against batched) and every unit on 32,408 sources.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
T="env top_builddir=$B top_srcdir=$B $B/tests/apsp/dial_gpu"
L=/tmp/logs; mkdir -p $L
echo "== dial_gpu"; timeout 150 $T 2>&1 | tail -3
echo "== dial_gpu, again"; timeout 150 $T 2>&1 | tail -1
echo "== dial_gpu, one block"; DIAL_GRID_MAX=1 timeout 200 $T 2>&1 | tail -1
echo "== dial_gpu, 3 blocks"; DIAL_GRID_MAX=3 timeout 200 $T 2>&1 | tail -1
echo "== memcheck, random 150 1..64"
timeout 100 compute-sanitizer --tool memcheck $B/tests/apsp/dial_gpu "random 150" 2>&1 | tail -2
r() { local n=$1; shift; timeout 100 "$@" >"$L/$n.log" 2>&1; echo "$n: exit $? $(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*' "$L/$n.log" | tail -1)"; }
d=/tmp/g; mkdir -p $d; f=$d/r1m.tgb
$GT gen random:1049088 --seed 1 -o $f >/dev/null 2>&1
r batched $APP $f --engine batched --units gpu --seed 1 --sources random:8192
for mk in 2 4; do r dial-mk$mk $APP $f --engine dial --units gpu --mk $mk --seed 1 --sources random:65536; done
for rep in 1 2; do
  r all-auto-$rep $APP $f --units all --seed 1 --sources random:32408 --summary
  r gpu-auto-$rep $APP $f --units gpu --seed 1 --sources random:32408
done
grep -h "engine:" $L/all-auto-1.log
$APP $f --engine batched --units gpu --seed 1 --sources random:2048 -o $d/b.tsv >/dev/null 2>&1
$APP $f --units all --seed 1 --sources random:2048 -o $d/d.tsv >/dev/null 2>&1
cmp $d/b.tsv $d/d.tsv && echo "every unit, auto: table = batched's ($(wc -l <$d/d.tsv) lines)"
tar czf "$OUT/logs.tgz" -C /tmp logs
