#!/usr/bin/env bash
# Device call 10 (device-2026-12-05 series): the bundle of call 9. Issue 24 item 3, road-like 1M (PHAST,
# MK 8), 65,536 sources, four interleaved rounds: on 2 ranks, is the GPU's rank short of cores (its 8
# stream workers and StarPU-MPI's polling thread on its 8 cores, the CPU rank's 7 workers and its own
# polling thread on the other 8)? The CPU rank given 7 (default), 6 and 5 workers (an MPMD launch:
# --ncpu on the second rank only), against the GPU alone and the same numbers of CPU workers alone.
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
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
export TUCCOMPI_END_LOG=1
for rep in 1 2 3 4; do
  echo "== round $rep $(el)"
  r g-$rep $APP "${a[@]}" --units gpu
  r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
  for n in 6 5; do r r2n$n-$rep $B/tests/mpirun.sh 1 $APP "${a[@]}" : -n 1 $APP "${a[@]}" --ncpu $n; done
  for n in 7 6 5; do r c$n-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
