#!/usr/bin/env bash
# Device call 11 (device-2026-12-05 series): the bundle of the commit that sizes a node's cores by need
# (lib/runtime.c: split_cores, leave_a_core), with d8c22bf's libtuccompi-starpu.so.0 in bundle/base/
# as the baseline (the same app and engines; only the runtime library differs). Issue 24 item 3,
# road-like 1M (PHAST, MK 8), 65,536 sources, four interleaved rounds: every unit on 1 and 2 ranks,
# new (1 rank: 7 CPU workers; 2 ranks: 9 cores for the GPU's rank, 6 CPU workers on the other)
# against old (8; 8 + 8 cores, 7 workers), the GPU alone, the CPU workers alone (8, 7, 6); random 1M
# (dial, MK 2) every unit new and old, two rounds; then the GPU tests.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
OLD="env LD_LIBRARY_PATH=$B/base:$LD_LIBRARY_PATH"
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { local f=$L/test-$(basename "$2" | tr ' /' '__').txt
      env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1; echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-12s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
b=($d/r1m.tgb --seed 1 --summary --sources random:32768)
$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
export TUCCOMPI_END_LOG=1
for rep in 1 2 3 4; do
  echo "== round $rep $(el)"
  r g-$rep $APP "${a[@]}" --units gpu
  r a-$rep $APP "${a[@]}"
  r aold-$rep $OLD $APP "${a[@]}"
  r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
  r r2old-$rep $OLD $B/tests/mpirun.sh 2 $APP "${a[@]}"
  for n in 8 7 6; do r c$n-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
for rep in 1 2; do
  echo "== random 1M, round $rep $(el)"
  r rg-$rep $APP "${b[@]}" --units gpu
  r ra-$rep $APP "${b[@]}"
  r raold-$rep $OLD $APP "${b[@]}"
  r rr2-$rep $B/tests/mpirun.sh 2 $APP "${b[@]}"
done
rm -rf $d
echo "== GPU tests $(el)"
t 60 "$B/tests/apsp/sssp_plugin"
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
t 60 $B/tests/apsp/phast_gpu
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
