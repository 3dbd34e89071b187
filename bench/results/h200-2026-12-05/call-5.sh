#!/usr/bin/env bash
# Device call 5 (2026-12-05): the downward sweep no longer stores the lowest level's rows when no output
# reads them (issue 24 item 2: traffic cut). The GPU tests; bench_phast (one stream) with the knob
# store_all=0 (new) against 1 (every row stored, as before), interleaved; Nsight Compute's DRAM bytes of
# one pass; tuccompi-apsp at MK 4 and 8 against a build whose default stores every row
# (tuccompi-apsp-storeall, -DPHAST_STORE_ALL=1), interleaved.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
OLD=$PWD/bundle/apps/apsp/tuccompi-apsp-storeall
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $B/tests/$2 >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
echo "== GPU tests"
t 240 apsp/phast_gpu
t 240 "apsp/sssp_plugin --gpu"
t 200 apsp/matrix_gpu.sh
t 200 apsp/sssp_gpu.sh
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
$GT gen road:1048576 --seed 1 -o /tmp/road.tgb >/dev/null 2>&1
$GT gen grid:1024x1024 --seed 1 -o /tmp/grid.tgb >/dev/null 2>&1
for g in road grid; do $APP /tmp/$g.tgb --engine phast --ch-cache /tmp/$g.tgb.ch --units gpu --sources random:256 -q >/dev/null 2>&1; done
echo "== bench_phast, one stream, 256 lanes, 16,384 sources: store_all 0 (new) against 1"
for rep in 1 2 3; do
  for g in road grid; do
    for sa in 0 1; do
      printf '%-5s store_all=%s  ' $g $sa
      timeout 120 $B/bench/bench_phast /tmp/$g.tgb --cache /tmp/$g.tgb.ch --threads 16 --sources 16 --dijkstra 4 \
        --gpu-sources 16384 --lanes 256 --knob store_all=$sa 2>&1 | grep -E "PHAST GPU|MISMATCH|lowest" | tr '\n' ' '; echo
    done
  done
done
echo "== ncu: one pass of 256 sources, road (new kernel)"
timeout 200 "$ncu" --kernel-name regex:phast_sweep --launch-skip 2 --launch-count 1 \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct \
  "$APP" /tmp/road.tgb --engine phast --ch-cache /tmp/road.tgb.ch --units gpu --mk 1 --sources random:1024 -q >$L/ncu-road.log 2>&1
grep -E "gpu__time|dram__|lts__" $L/ncu-road.log
echo "== tuccompi-apsp, GPU alone, 65,536 sources: new against every row stored, MK 4 and 8"
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1; printf '%-24s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$L/$n.log" | tail -1)"; }
for rep in 1 2 3; do
  for g in road grid; do
    for mk in 4 8; do
      r $g-mk$mk-new-$rep $APP /tmp/$g.tgb --engine phast --ch-cache /tmp/$g.tgb.ch --units gpu --mk $mk --seed 1 --sources random:65536
      r $g-mk$mk-old-$rep $OLD /tmp/$g.tgb --engine phast --ch-cache /tmp/$g.tgb.ch --units gpu --mk $mk --seed 1 --sources random:65536
    done
  done
done
echo "== every unit, road-like, 65,536 sources, MK 4 (new)"
r road-all $APP /tmp/road.tgb --engine phast --ch-cache /tmp/road.tgb.ch --units all --seed 1 --sources random:65536
rm -f /tmp/*.tgb /tmp/*.ch
tar czf "$OUT/logs.tgz" -C /tmp logs
