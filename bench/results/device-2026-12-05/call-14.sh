#!/usr/bin/env bash
# Device call 14 (device-2026-12-05 series): the bundle of 6489b66 with d8c22bf's libtuccompi-starpu.so.0
# in bundle/base/. Call 13 (one round of bench/apsp.sh) had every unit at 0.971 of the GPU alone with
# the batched engine on random 1M and 0.998 with PHAST on the grid, against 1.001 and 1.030 in call 5:
# the new library (11 CPU workers instead of 12 with batched, 7 instead of 8 with PHAST) against the
# old one in the same call, two interleaved rounds, as bench/apsp.sh runs them.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
OLD="env LD_LIBRARY_PATH=$B/base:$LD_LIBRARY_PATH"
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/g; mkdir -p $d
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-12s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
b=($d/r1m.tgb --engine batched --policy ms-tail --sources random:16384 --seed 1 --summary)
c=($d/grid.tgb --engine phast --ch-cache $d/grid.ch --policy ms-tail --sources random:65536 --seed 1 --summary)
$APP "${c[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
for rep in 1 2; do
  echo "== round $rep $(el)"
  r bg-$rep $APP "${b[@]}" --units gpu
  r ba-$rep $APP "${b[@]}"
  r baold-$rep $OLD $APP "${b[@]}"
  r gg-$rep $APP "${c[@]}" --units gpu
  r ga-$rep $APP "${c[@]}"
  r gaold-$rep $OLD $APP "${c[@]}"
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
