#!/usr/bin/env bash
# Device call 5 (2026-12-07 series; the session's last device time): GPU PHAST's narrow passes as
# committed (16-bit rows below the split levels in a kernel of their own, phast_sweep256n; the 32-bit
# kernel's PTX equals stop 39's but for the parameters' offsets): phast_gpu,
# matrix_gpu.sh; tuccompi-apsp GPU alone, 131,072 sources, base (050c225) against new, grid at MK 8
# and 12, road-like at MK 8 (its distances do not fit: one narrow pass per worker thread runs again).
# Kept short: 254 s of device time were left, start and transfers included.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph
tar xJf gpu-out/variants.tar.xz -C /tmp && V=/tmp/variants
cp $B/apps/apsp/tuccompi-apsp $V/nar-apsp
export STARPU_SILENT=1
L=$OUT/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$L/test-$(basename "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(basename "$2" | tr ' /' '__').txt")) $(el)"; }
nvidia-smi --query-gpu=name --format=csv,noheader
t 60 $B/tests/apsp/phast_gpu
grep -E "narrow passes|path to|grid 30x30|FAIL" $L/test-phast_gpu.txt
t 40 $B/tests/apsp/matrix_gpu.sh
d=/tmp/g; mkdir -p $d
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
r() { local n=$1; shift; timeout 40 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"; printf '%-18s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== GPU alone, 131,072 sources $(el)"
for x in grid:8 road:8 grid:12; do g=${x%:*} mk=${x#*:}
  for v in base nar; do
    r $g-mk$mk-$v $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
  done
done
echo "== done $(el)"
