#!/usr/bin/env bash
# Device call 1 (2026-12-07 series): GPU PHAST's downward levels in runs of arcs (down_flat, the
# sssp_phast_gpu_knobs::flat knob) against the tree before (stop 39, 050c225: gpu-out/variants/base-*),
# with 1, 2 (the bundle's default) and 4 rows in flight (PHAST_FLAT_ROWS: r1-*, r4-*). The GPU tests
# (the bundle's and the variants' phast_gpu); bench_phast per variant, one pass profiled per class of
# levels, 256 lanes; tuccompi-apsp GPU alone at MK 4 and 8 per variant, alternating; MK 12 and 16
# with the default; then scripts/gpu-node.sh ranktail (issue 24 item 3) in the time left.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph
tar xJf gpu-out/variants.tar.xz -C /tmp && V=/tmp/variants
cp $B/apps/apsp/tuccompi-apsp $V/r2-apsp; cp $B/bench/bench_phast $V/r2-bench_phast
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$L/test-$(basename "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(basename "$2" | tr ' /' '__').txt")) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== GPU tests"
t 120 $B/tests/apsp/phast_gpu
t 120 $V/r1-phast_gpu
t 120 $V/r4-phast_gpu
t 120 $B/tests/apsp/dial_gpu
t 150 "$B/tests/apsp/sssp_plugin --gpu"
t 120 $B/tests/apsp/sssp_gpu.sh
t 120 $B/tests/apsp/matrix_gpu.sh
echo "== graphs $(el)"
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
echo "== bench_phast per variant, 16,384 sources, 256 lanes, the first pass profiled $(el)"
for g in road grid; do
  for v in base r2 r1 r4 r2:flat=0 base; do
    x=${v%%:*} k=profile=1; [ "$v" != "$x" ] && k=profile=1,${v#*:}
    timeout 120 $V/$x-bench_phast $d/$g.tgb --cache $d/$g.ch --threads 16 --sources 16 --dijkstra 1 --gpu-sources 16384 \
      --lanes 256 --knob $k >"$L/bp-$g-${v/:/-}.txt" 2>&1 || echo "bench_phast $g $v: exit $?"
    printf '%-5s %-12s %s\n' $g "$v" "$(grep -E '^PHAST GPU, 256' "$L/bp-$g-${v/:/-}.txt" | cut -c1-60)"
  done
  for v in base r2; do grep -E "^PHAST GPU profile|^  " "$L/bp-$g-$v.txt" | head -11; done
done
r() { local n=$1; shift; timeout 60 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"; printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== tuccompi-apsp GPU alone, 131,072 sources, MK 4 and 8, per variant, two rounds $(el)"
for rep in 1 2; do
  for g in road grid; do
    for mk in 4 8; do
      for v in base r2 r1 r4; do
        r $g-mk$mk-$v-$rep $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
      done
    done
  done
done
echo "== MK 12 and 16, r2 against base $(el)"
for g in road grid; do for mk in 12 16; do for v in base r2; do
  r $g-mk$mk-$v $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
done; done; done
rm -rf $d
left=$(( 560 - ($(date +%s) - t0) ))
echo "== ranktail, $left s left $(el)"
[ $left -gt 120 ] && REPS=1 RUN_LIMIT=60 timeout $left bash scripts/gpu-node.sh ranktail
echo "== done $(el)"
mkdir -p $L/ranktail; cp -r $OUT/ranktail/. $L/ranktail/ 2>/dev/null; rm -rf $OUT/ranktail $OUT/tune.db
tar czf "$OUT/logs.tgz" -C /tmp logs
