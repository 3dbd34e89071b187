#!/usr/bin/env bash
# Device call 3 (device-2026-12-05 series): the bundle of c7137fc (PHAST's own MK 8). Road-like 1M,
# auto engine (PHAST, cached hierarchy), every unit on 2 ranks at 65,536 sources with MK 8 (the
# default), 6 and 4 (the GPU's rank has 8 cores: is MK 8 oversubscribing them?), and at 262,144
# sources (fixed costs amortised) GPU alone, every unit on 1 and 2 ranks, against the CPU workers
# alone (8 and 7, 16,384 sources). Two alternating rounds.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary)
$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
echo "== 65,536 sources: 2 ranks at MK 8 / 6 / 4, GPU alone, 7 CPU workers alone $(el)"
for rep in 1 2; do
  r g65-$rep $APP "${a[@]}" --sources random:65536 --units gpu
  for mk in 8 6 4; do TUCCOMPI_END_LOG=1 r all2-mk$mk-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:65536 --mk $mk; done
  TUCCOMPI_END_LOG=1 r all2-def-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:65536
done
echo "== 262,144 sources: GPU alone, every unit 1 and 2 ranks; CPU workers alone (8, 7), 16,384 $(el)"
for rep in 1 2; do
  r g262-$rep $APP "${a[@]}" --sources random:262144 --units gpu
  TUCCOMPI_END_LOG=1 r all262-$rep $APP "${a[@]}" --sources random:262144
  TUCCOMPI_END_LOG=1 r all2-262-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:262144
  for n in 8 7; do r cpu$n-$rep $APP "${a[@]}" --sources random:16384 --units cpu --ncpu $n; done
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
