#!/usr/bin/env bash
# Device call 1 (device-2026-12-05 series), the bundle of a354c4b (stop 41's main):
#  - issue 24 item 3 on the random 1M graph (the auto engine, as users run it): GPU alone, the 12 CPU
#    workers alone (512 sources), every unit on 1 and 2 ranks, 32,768 sources, two alternating rounds
#    (this is stop 41's call-3.sh, which never got a machine);
#  - issue 24 item 2: GPU PHAST alone at MK 4, 8 and 12 on the grid and road-like 1M graphs, 131,072
#    sources, two rounds: per pass = 256 / rate, against the GPU's floor (docs/apsp.md).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"; printf '%-18s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
d=/tmp/g; mkdir -p $d
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null
echo "== random 1M, auto engine $(el)"
a=($d/r1m.tgb --seed 1 --summary)
for rep in 1 2; do
  r r1m-gpu-$rep $APP "${a[@]}" --sources random:32768 --units gpu
  r r1m-cpu12-$rep $APP "${a[@]}" --sources random:512 --units cpu --ncpu 12
  TUCCOMPI_END_LOG=1 r r1m-all-$rep $APP "${a[@]}" --sources random:32768
  TUCCOMPI_END_LOG=1 r r1m-all2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:32768
  grep -hE "engine:|GPU  |waiting for other ranks" "$L/r1m-all2-$rep.log" | tail -4 | sed 's/^/    /'
done
grep -hE "engine" $L/r1m-gpu-1.log | head -2
echo "== GPU PHAST alone, 131,072 sources, MK 4 / 8 / 12 $(el)"
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for rep in 1 2; do
  for g in road grid; do
    for mk in 4 8 12; do
      r $g-mk$mk-$rep $APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
    done
  done
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
