#!/usr/bin/env bash
# Device call 6 (2026-12-05): GPU PHAST's registers (issue 24 item 2). sweep256 uses 102 registers, so
# one 512-thread block per SM (16 warps) and a pass alone reads DRAM at 22% of its peak. Variants, each
# built with its flags (bundle/variants.tar.xz):
#   base        the default of this tree (102 registers)
#   shared      -DPHAST_SHARED_SUMS=1: the lanes' sums in shared memory (72 registers: 28 warps per SM)
#   shared64    and -DPHAST_MAXREG=64 (64 registers, 84 bytes of spill loads: 32 warps)
#   shared64r2  and -DPHAST_ROWS_IN_FLIGHT=2 (64 registers, no spills: 32 warps, 2 rows in flight)
# For each: tests/apsp/phast_gpu (every lane count and plan against Dijkstra); bench_phast (one stream);
# tuccompi-apsp at MK 4 and 8, road-like 1M and grid 1024x1024, 65,536 sources, interleaved; then
# every unit on road-like at MK 4 and 8 with the base.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
tar xJf bundle/variants.tar.xz -C /tmp
V=/tmp/variants
echo "== tests/apsp/phast_gpu per variant"
for v in shared shared64 shared64r2; do
  timeout 150 $V/$v/phast_gpu >$L/test-$v.txt 2>&1; echo "$v: exit $? ($(tail -n 1 $L/test-$v.txt))"
done
$GT gen road:1048576 --seed 1 -o /tmp/road.tgb >/dev/null 2>&1
$GT gen grid:1024x1024 --seed 1 -o /tmp/grid.tgb >/dev/null 2>&1
for g in road grid; do $V/base/tuccompi-apsp /tmp/$g.tgb --engine phast --ch-cache /tmp/$g.tgb.ch --units gpu --sources random:256 -q >/dev/null 2>&1; done
echo "== bench_phast, one stream, 256 lanes, 16,384 sources"
for rep in 1 2; do
  for g in road grid; do
    for v in base shared shared64 shared64r2; do
      printf '%-5s %-11s ' $g $v
      timeout 100 $V/$v/bench_phast /tmp/$g.tgb --cache /tmp/$g.tgb.ch --threads 16 --sources 16 --dijkstra 4 \
        --gpu-sources 16384 --lanes 256 2>&1 | grep -E "PHAST GPU|MISMATCH" | sed 's/ = .*//' | tr '\n' ' '; echo
    done
  done
done
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1; printf '%-26s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$L/$n.log" | tail -1)"; }
echo "== tuccompi-apsp, GPU alone, 65,536 sources"
for rep in 1 2; do
  for g in road grid; do
    for mk in 4 8; do
      for v in base shared shared64 shared64r2; do
        r $g-mk$mk-$v-$rep $V/$v/tuccompi-apsp /tmp/$g.tgb --engine phast --ch-cache /tmp/$g.tgb.ch --units gpu --mk $mk --seed 1 --sources random:65536
      done
    done
  done
done
echo "== every unit (base), road-like, MS-TAIL"
for rep in 1 2; do
  for mk in 4 8; do
    r road-all-mk$mk-$rep $V/base/tuccompi-apsp /tmp/road.tgb --engine phast --ch-cache /tmp/road.tgb.ch --units all --mk $mk --seed 1 --sources random:65536
    r road-gpu-mk$mk-$rep $V/base/tuccompi-apsp /tmp/road.tgb --engine phast --ch-cache /tmp/road.tgb.ch --units gpu --mk $mk --seed 1 --sources random:65536
  done
done
grep -h "CPU +" $L/road-all-mk*-1.log
rm -f /tmp/*.tgb /tmp/*.ch
tar czf "$OUT/logs.tgz" -C /tmp logs
