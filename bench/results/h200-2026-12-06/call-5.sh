#!/usr/bin/env bash
# Device call 5: the dial engine's GPU test after the test's fill race was fixed (whole GPU, twice; 3
# blocks; one block on two graphs; memcheck), with the heavy-vertex path (hubs pushed by the whole
# grid); then R-MAT 20 at the default threshold, 64, 1024 and none (TUCCOMPI_DIAL_HEAVY) against batched,
# random 1M and 4M again (no vertex is heavy there: unchanged?), and R-MAT 20's table against batched's.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
T="env top_builddir=$B top_srcdir=$B $B/tests/apsp/dial_gpu"
L=/tmp/logs; mkdir -p $L
t() { local n=$1 to=$2; shift 2; timeout $to "$@" >"$L/test-$n.txt" 2>&1; echo "test $n: exit $? ($(tail -n 1 "$L/test-$n.txt"))"; }
t whole 200 $T
t whole-again 200 $T
DIAL_GRID_MAX=3 t 3-blocks 200 $T
DIAL_GRID_MAX=1 t 1-block-hubs 100 $T "four hubs"
DIAL_GRID_MAX=1 t 1-block-r30000 100 $T "random 30000 1..64"
t memcheck 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/apsp/dial_gpu "random 150"
t memcheck-hubs 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/apsp/dial_gpu "R-MAT 13"
r() { local n=$1; shift; timeout 100 "$@" >"$L/$n.log" 2>&1; echo "$n: exit $? $(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*' "$L/$n.log" | tail -1)"; }
d=/tmp/g; mkdir -p $d
f=$d/rmat20.tgb; $GT gen rmat:20 --seed 1 -o $f >/dev/null 2>&1 || echo "gen rmat failed"
$GT info $f 2>&1 | head -5
echo "== R-MAT 20"
r rmat-batched $APP $f --engine batched --units gpu --seed 1 --sources random:8192
for mk in 2 4 8; do r rmat-dial-mk$mk $APP $f --engine dial --units gpu --mk $mk --seed 1 --sources random:65536; done
for hv in 64 1024 4294967295; do TUCCOMPI_DIAL_HEAVY=$hv r rmat-dial-mk4-heavy$hv $APP $f --engine dial --units gpu --mk 4 --seed 1 --sources random:65536; done
r rmat-batched-b $APP $f --engine batched --units gpu --seed 1 --sources random:8192
$APP $f --engine batched --units gpu --seed 1 --sources random:2048 -o $d/b.tsv >/dev/null 2>&1
$APP $f --engine dial --units gpu --seed 1 --sources random:2048 -o $d/d.tsv >/dev/null 2>&1
cmp $d/b.tsv $d/d.tsv && echo "R-MAT 20: dial's table = batched's ($(wc -l <$d/d.tsv) lines)"
for spec in random:1049088 random:4194304; do
  f=$d/$(echo $spec | tr ':' '-').tgb
  $GT gen $spec --seed 1 -o $f >/dev/null 2>&1 || echo "gen $spec failed"
  k=65536; kb=8192; [ $spec = random:4194304 ] && k=16384 kb=2048
  echo "== $spec"
  r $spec-batched $APP $f --engine batched --units gpu --seed 1 --sources random:$kb
  for mk in 2 4; do r $spec-dial-mk$mk $APP $f --engine dial --units gpu --mk $mk --seed 1 --sources random:$k; done
  rm -f $f
done
tar czf "$OUT/logs.tgz" -C /tmp logs
