#!/usr/bin/env bash
# Device call 9: the tree with the tuner's carveout fix. GPU tests of every engine whose kernels the
# tuner shapes (dial, PHAST, the plug-in in both kernel variants); bench/apsp.sh (the README's table);
# dial on random 1M with the rules against TUCCOMPI_TUNE=cuda (call 8: cuda 11% faster before the
# fix; equal now?); road-like PHAST every unit with TUCCOMPI_END_LOG=1 (where the GPU's idle 11-16
# ms of call 6 falls: start or tail).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
echo "== GPU tests"
t 150 apsp/dial_gpu
t 150 apsp/phast_gpu
t 200 apsp/sssp_gpu.sh
echo "== bench/apsp.sh"
export APP GRAPHTOOL=$GT BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
d=/tmp/apspbench; mkdir -p $d
timeout 330 "$B/bench/apsp.sh" $d 2>&1 | tail -12
r() { local n=$1; shift; timeout 60 "$@" >"$L/$n.log" 2>&1; printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== dial, random 1M: rules against CUDA's choice"
f=$d/random-1049088.tgb
for rep in 1 2; do
  r r1m-rules-$rep $APP $f --engine dial --units gpu --seed 1 --sources random:65536
  TUCCOMPI_TUNE=cuda r r1m-cuda-$rep $APP $f --engine dial --units gpu --seed 1 --sources random:65536
done
echo "== road-like PHAST, every unit, END_LOG"
f=$d/road-1048576.tgb
for rep in 1 2; do
  TUCCOMPI_END_LOG=1 r road-all-endlog-$rep $APP $f --engine phast --ch-cache $f.ch --units all --policy ms-tail --seed 1 --sources random:65536
  r road-gpu-$rep $APP $f --engine phast --ch-cache $f.ch --units gpu --seed 1 --sources random:65536
done
rm -f $d/*.tgb $d/*.ch
cp $d/apsp-bench.csv $d/apsp-ratios.csv "$OUT/" 2>/dev/null
mv $d $L/
tar czf "$OUT/logs.tgz" -C /tmp logs
