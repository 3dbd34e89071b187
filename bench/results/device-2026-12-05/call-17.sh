#!/usr/bin/env bash
# Device call 17 (device-2026-12-05 series): issue 24 item 3 on the final library (SYN without its
# barrier, PARALLEL in one agreement). Road-like 1M (PHAST, MK 8), 65,536 sources, three interleaved
# rounds: the GPU alone, the 6 and 7 CPU workers alone (8,192 sources), every unit on 1 rank and on 2
# ranks of the node; random 1M with the batched engine (16,384 sources), one round: the GPU alone,
# every unit on 1 and 2 ranks, 7 CPU workers alone (128 sources).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null
r() { local n=$1; shift; timeout 150 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-12s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
b=($d/r1m.tgb --seed 1 --summary --engine batched --sources random:16384)
$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
export TUCCOMPI_END_LOG=1
for rep in 1 2 3; do
  echo "== road-like, round $rep $(el)"
  r g-$rep $APP "${a[@]}" --units gpu
  r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
  r a-$rep $APP "${a[@]}"
  for n in 7 6; do r c$n-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
for rep in 1; do
  echo "== random 1M, batched, round $rep $(el)"
  r bg-$rep $APP "${b[@]}" --units gpu
  r br2-$rep $B/tests/mpirun.sh 2 $APP "${b[@]}"
  r ba-$rep $APP "${b[@]}"
done
r bc7 $APP "${b[@]}" --sources random:128 --units cpu --ncpu 7
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
