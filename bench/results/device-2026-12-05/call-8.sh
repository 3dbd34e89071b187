#!/usr/bin/env bash
# Device call 8 (device-2026-12-05 series): the bundle of bae6eff (the depth rule measured once per plan; before: the judged MK capped at half the
# node's cores). GPU tests, and tuccompi-apsp without --mk on road-like (PHAST: MK 8 expected on these
# 16 cores) and random 1M (dial: its own MK 2), GPU alone and every unit.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { local f=$L/test-$(basename "$2" | tr ' /' '__').txt
      env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1; echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
t 60 "$B/tests/apsp/sssp_plugin"
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
t 120 $B/tests/apsp/brandes_gpu.sh
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-14s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
r road-gpu $APP $d/road.tgb --ch-cache $d/road.ch --seed 1 --sources random:65536 --units gpu
r road-all $APP $d/road.tgb --ch-cache $d/road.ch --seed 1 --sources random:65536
r r1m-gpu $APP $d/r1m.tgb --seed 1 --sources random:32768 --units gpu
r r1m-all $APP $d/r1m.tgb --seed 1 --sources random:32768
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
