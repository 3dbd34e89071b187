#!/usr/bin/env bash
# Device call 2 (device-2026-12-05 series): the bundle of c7137fc (PHAST's own MK 8, stream workers
# sized for it before tuccompi_init) against a354c4b's tuccompi-apsp (stop 41's main, MK 4 by default;
# gpu-out/variants-a354.tar.xz, the same bundle's libraries: only the app's static SSSP code differs).
#  - GPU tests of the tree;
#  - GPU alone, no --mk (each build's default), road-like and grid 1M, 131,072 sources, two rounds;
#  - road-like every unit, no --mk, 1 and 2 ranks, 65,536 sources, against the GPU alone and the CPU
#    workers alone (as many as every unit had: 8 / 12 on 1 rank), 8,192 sources, two rounds.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph
tar xJf gpu-out/variants-a354.tar.xz -C /tmp && V=/tmp/variants
cp $B/apps/apsp/tuccompi-apsp $V/new-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { local f=$L/test-$(basename "$2" | tr ' /' '__').txt
      env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1; echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "== GPU tests"
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 60 "$B/tests/apsp/sssp_plugin"
grep -E "MK" $L/test-sssp_plugin.txt | head -8
t 180 $B/tests/apsp/phast_gpu
t 90 $B/tests/apsp/sssp_gpu.sh
t 90 $B/tests/apsp/matrix_gpu.sh
t 90 $B/tests/apsp/gpu_memory.sh
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
# build both hierarchies once (cached), outside the timed runs
for g in road grid; do $V/new-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units cpu --sources random:16 --seed 1 -q >/dev/null 2>&1; done
echo "== GPU alone, each build's default MK, 131,072 sources $(el)"
for rep in 1 2; do
  for g in road grid; do
    for v in a354 new; do
      r $g-gpu-$v-$rep $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --seed 1 --summary --sources random:131072
    done
  done
done
echo "== road-like every unit (auto engine, cached hierarchy), 65,536 sources; CPU workers alone 8,192 $(el)"
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary)
for rep in 1 2; do
  for v in a354 new; do
    r road-g-$v-$rep $V/$v-apsp "${a[@]}" --sources random:65536 --units gpu
    TUCCOMPI_END_LOG=1 r road-all-$v-$rep $V/$v-apsp "${a[@]}" --sources random:65536
    TUCCOMPI_END_LOG=1 r road-all2-$v-$rep $B/tests/mpirun.sh 2 $V/$v-apsp "${a[@]}" --sources random:65536
    grep -hE "engine:" "$L/road-all-$v-$rep.log" | head -1 | cut -c1-90 | sed 's/^/    /'
  done
  for n in 7 8 12; do r road-cpu$n-$rep $V/new-apsp "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
