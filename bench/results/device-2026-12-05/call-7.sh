#!/usr/bin/env bash
# Device call 7 (device-2026-12-05 series), asked with no kind (status offered an H200): the bundle of
# 84a91a8. Issue 24 item 2: GPU PHAST alone at MK 4 / 8 / 12, road-like 1M and grid, 131,072 sources,
# two rounds (per pass = 256 / rate, against the floor); item 3: road-like (PHAST) and random 1M
# (auto: dial) GPU alone, every unit on 1 and 2 ranks, and the CPU workers alone, two rounds.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-16s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
for g in road grid; do $APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units cpu --sources random:16 --seed 1 -q >/dev/null 2>&1; done
echo "== GPU PHAST alone, 131,072 sources, MK 4 / 8 / 12 $(el)"
for rep in 1 2; do
  for g in road grid; do
    for mk in 4 8 12; do
      r $g-mk$mk-$rep $APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
    done
  done
done
echo "== every unit against the sum, no --mk $(el)"
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary)
b=($d/r1m.tgb --seed 1 --summary)
for rep in 1 2; do
  r road-gpu-$rep $APP "${a[@]}" --sources random:65536 --units gpu
  r road-all-$rep $APP "${a[@]}" --sources random:65536
  r road-all2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:65536
  r road-cpu8-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu 8
  r road-cpu7-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu 7
  r r1m-gpu-$rep $APP "${b[@]}" --sources random:32768 --units gpu
  r r1m-all-$rep $APP "${b[@]}" --sources random:32768
  r r1m-all2-$rep $B/tests/mpirun.sh 2 $APP "${b[@]}" --sources random:32768
  r r1m-cpu12-$rep $APP "${b[@]}" --sources random:512 --units cpu --ncpu 12
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
