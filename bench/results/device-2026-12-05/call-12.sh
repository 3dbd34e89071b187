#!/usr/bin/env bash
# Device call 12 (device-2026-12-05 series): the bundle of call 11. Call 11's 2-rank baseline ran the
# new library (the bundle's mpirun.sh puts bundle/lib first on LD_LIBRARY_PATH): here the baseline
# ranks get d8c22bf's libtuccompi-starpu.so.0 through env inside the launch. Road-like 1M (PHAST,
# MK 8), 65,536 sources, five interleaved rounds: 2 ranks new (9 + 7 cores, 6 CPU workers) against old
# (8 + 8, 7), the GPU alone, 6 and 7 CPU workers alone; 1 rank new (7 CPU workers) against old (8).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
OLD="env LD_LIBRARY_PATH=$B/base:$LD_LIBRARY_PATH"
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
for rep in 1 2 3 4 5; do
  echo "== round $rep $(el)"
  r g-$rep $APP "${a[@]}" --units gpu
  r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
  r r2old-$rep $B/tests/mpirun.sh 2 $OLD $APP "${a[@]}"
  r a-$rep $APP "${a[@]}"
  r aold-$rep $OLD $APP "${a[@]}"
  for n in 7 6; do r c$n-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
grep -h "local rank" $L/r2-1.log $L/r2old-1.log
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
