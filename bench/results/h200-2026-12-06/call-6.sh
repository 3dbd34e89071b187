#!/usr/bin/env bash
# Device call 6: the GPU tests that run the dial engine through the runtime (sssp_plugin --gpu,
# sssp_gpu.sh) and its own (dial_gpu); bench/apsp.sh with the dial rows (the README's table); R-MAT 20
# with the heavy threshold at 64 and 128 against the default 256 (MK 2), alternating.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
echo "== GPU tests"
t 200 "apsp/sssp_plugin --gpu"
t 200 apsp/sssp_gpu.sh
t 150 apsp/dial_gpu
echo "== bench/apsp.sh"
export APP GRAPHTOOL=$GT BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
d=/tmp/apspbench; mkdir -p $d
timeout 400 "$B/bench/apsp.sh" $d 2>&1 | tail -22
r() { local n=$1; shift; timeout 60 "$@" >"$L/$n.log" 2>&1; printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== R-MAT 20, dial MK 2, heavy threshold"
f=$d/rmat-20.tgb
for rep in 1 2; do for hv in 256 64 128; do
  TUCCOMPI_DIAL_HEAVY=$hv r rmat-heavy$hv-$rep $APP $f --engine dial --units gpu --seed 1 --sources random:65536
done; done
rm -f $d/*.tgb $d/*.ch
cp $d/apsp-bench.csv $d/apsp-ratios.csv "$OUT/" 2>/dev/null
mv $d $L/
tar czf "$OUT/logs.tgz" -C /tmp logs
