#!/usr/bin/env bash
# Device call 1 (2026-12-06): the dial engine's first run on the GPU. Its test against Dijkstra, then
# tuccompi-apsp on random 1M / 4M and R-MAT 20, GPU alone: dial at MK 1, 2, 4 against batched (its
# own MK) in the same run; dial's and batched's tables compared byte for byte; every unit on the
# paper's 32,408 sources (auto engine).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
r() { local n=$1; shift; timeout 100 "$@" >"$L/$n.log" 2>&1; echo "$n: exit $? $(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*' "$L/$n.log" | tail -1)"; }
echo "== GPU test"
t 200 apsp/dial_gpu
d=/tmp/g; mkdir -p $d
for spec in random:1049088 random:4194304 rmat:20; do
  f=$d/$(echo $spec | tr ':' '-').tgb
  $GT gen $spec --seed 1 -o $f >/dev/null 2>&1 || echo "gen $spec failed"
  k=65536; kb=8192; [ $spec = random:4194304 ] && k=16384 kb=2048
  echo "== $spec"
  r $spec-batched $APP $f --engine batched --units gpu --seed 1 --sources random:$kb
  for mk in 1 2 4; do r $spec-dial-mk$mk $APP $f --engine dial --units gpu --mk $mk --seed 1 --sources random:$k; done
  r $spec-batched-b $APP $f --engine batched --units gpu --seed 1 --sources random:$kb
  $APP $f --engine batched --units gpu --seed 1 --sources random:2048 -o $d/b.tsv >/dev/null 2>&1
  $APP $f --engine dial --units gpu --seed 1 --sources random:2048 -o $d/d.tsv >/dev/null 2>&1
  cmp $d/b.tsv $d/d.tsv && echo "$spec: dial's table = batched's ($(wc -l <$d/d.tsv) lines)"
done
echo "== every unit, 32,408 sources of random 1M (auto)"
f=$d/random-1049088.tgb
for rep in 1 2; do
  r all-auto-$rep $APP $f --units all --seed 1 --sources random:32408 -v
  r gpu-auto-$rep $APP $f --units gpu --seed 1 --sources random:32408
done
grep -h "engine:" $L/all-auto-1.log
rm -f $d/*.tgb
tar czf "$OUT/logs.tgz" -C /tmp logs
