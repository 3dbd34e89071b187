#!/usr/bin/env bash
# Device call 9 (device-2026-12-05 series; asked for nvidia-h200, an H100 came): the bundle of d8c22bf
# with tests/mpirun.sh keeping a STARPU_WORKERS_NOBIND given to it. Issue 24 item 3, road-like 1M
# (PHAST, MK 8), 65,536 sources, four interleaved rounds, TUCCOMPI_END_LOG on every run: is every
# unit's loss against the GPU alone the node's oversubscription (8 stream workers + 8 CPU workers +
# the main and MPI threads on 16 cores)? Every unit with 8 (default), 7 and 6 CPU workers, 2 ranks
# with the workers unbound (the tests' launcher) and bound (the node split's blocks), the CPU workers
# alone (8, 7, 6; 8,192 sources), the GPU alone.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-12s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary)
$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
export TUCCOMPI_END_LOG=1
for rep in 1 2 3 4; do
  echo "== round $rep $(el)"
  r g-$rep $APP "${a[@]}" --sources random:65536 --units gpu
  for n in 8 7 6; do r a$n-$rep $APP "${a[@]}" --sources random:65536 --ncpu $n; done
  r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:65536
  STARPU_WORKERS_NOBIND=0 r r2b-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:65536
  for n in 8 7 6; do r c$n-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
