#!/usr/bin/env bash
# Device call 7 (2026-12-05): the tree with the lanes' sums in shared memory and 64 registers as GPU
# PHAST's default (call 6's shared64). The GPU tests; bench/apsp.sh, every graph (the README's table);
# PHAST at MK 8 against MK 4, GPU alone and every unit; the 10,000 x 10,000 matrix against plain.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
echo "== GPU tests"
t 150 apsp/phast_gpu
t 200 "apsp/sssp_plugin --gpu"
t 150 apsp/matrix_gpu.sh
t 150 apsp/sssp_gpu.sh
echo "== bench/apsp.sh"
export APP GRAPHTOOL=$GT BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
d=/tmp/apspbench; mkdir -p $d
timeout 250 "$B/bench/apsp.sh" $d 2>&1 | tail -16
r() { local n=$1; shift; timeout 60 "$@" >"$L/$n.log" 2>&1; printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== PHAST, 65,536 sources, MK 4 and 8"
for g in road-1048576 grid-1024x1024; do
  f=$d/$g.tgb
  for mk in 4 8; do
    r $g-gpu-mk$mk $APP $f --engine phast --ch-cache $f.ch --units gpu --mk $mk --seed 1 --sources random:65536
    r $g-all-mk$mk $APP $f --engine phast --ch-cache $f.ch --units all --mk $mk --seed 1 --sources random:65536
  done
done
echo "== road-like: 10,000 x 10,000 matrix against plain, MK 4"
f=$d/road-1048576.tgb
for rep in 1 2; do
  r plain-$rep $APP $f --engine phast --ch-cache $f.ch --units gpu --seed 1 --sources random:10000
  r t10k-$rep $APP $f --engine phast --ch-cache $f.ch --units gpu --seed 1 --sources random:10000 --targets random:10000 --matrix /tmp/o.npy
done
rm -f /tmp/o.npy $d/*.tgb $d/*.ch
cp $d/apsp-bench.csv $d/apsp-ratios.csv "$OUT/" 2>/dev/null
mv $d $L/
tar czf "$OUT/logs.tgz" -C /tmp logs
