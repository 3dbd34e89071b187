#!/usr/bin/env bash
# Device call 4 (2026-12-07 series): GPU PHAST with 16-bit rows below the split levels where a pass's rows are read by no
# output and its distances fit (sssp_phast_gpu_knobs::narrow; the bundle) against stop 39's tree
# (050c225: gpu-out/variants/base-*). GPU tests (phast_gpu with the narrow paths, sssp_plugin --gpu,
# sssp_gpu.sh, matrix_gpu.sh); bench_phast (16,384 sources, 256 lanes, first pass profiled) base /
# narrow / narrow=0 on the grid and road-like 1M (whose distances do not fit: one pass run again per
# thread); the tables of tuccompi-apsp -o base against new (grid); GPU alone, 131,072 sources, MK 4,
# 8 and 12, alternating, two rounds.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph
tar xJf gpu-out/variants.tar.xz -C /tmp && V=/tmp/variants
cp $B/apps/apsp/tuccompi-apsp $V/nar-apsp; cp $B/bench/bench_phast $V/nar-bench_phast
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$L/test-$(basename "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(basename "$2" | tr ' /' '__').txt")) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== GPU tests"
t 120 $B/tests/apsp/phast_gpu
grep -E "narrow passes|path to|grid 30x30" $L/test-phast_gpu.txt
t 150 "$B/tests/apsp/sssp_plugin --gpu"
t 120 $B/tests/apsp/sssp_gpu.sh
t 120 $B/tests/apsp/matrix_gpu.sh
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
echo "== bench_phast per variant, 16,384 sources, 256 lanes, the first pass profiled $(el)"
for g in grid road; do
  for v in base nar nar:narrow=0 base nar; do
    x=${v%%:*} k=profile=1; [ "$v" != "$x" ] && k=profile=1,${v#*:}
    timeout 120 $V/$x-bench_phast $d/$g.tgb --cache $d/$g.ch --threads 16 --sources 16 --dijkstra 4 --gpu-sources 16384 \
      --lanes 256 --knob $k >"$L/bp-$g-${v/:/-}.txt" 2>&1 || echo "bench_phast $g $v: exit $?"
    printf '%-5s %-14s %s | %s\n' $g "$v" "$(grep -E '^PHAST GPU, 256' "$L/bp-$g-${v/:/-}.txt" | cut -c1-60)" \
      "$(grep -E '^16-bit|MISMATCH|^distances' "$L/bp-$g-${v/:/-}.txt" | tr '\n' ' ')"
  done
  for v in base nar; do grep -E "^PHAST GPU profile|^  " "$L/bp-$g-$v.txt" | head -10; done
done
echo "== tables, grid, 4,096 sources, GPU alone: base against new $(el)"
for v in base nar; do
  timeout 60 $V/$v-apsp $d/grid.tgb --engine phast --ch-cache $d/grid.ch --units gpu --seed 1 --sources random:4096 -q -o $d/t-$v.csv
done
cmp $d/t-base.csv $d/t-nar.csv && echo "grid: tables equal ($(wc -l < $d/t-nar.csv) lines)"
r() { local n=$1; shift; timeout 60 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"; printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== tuccompi-apsp GPU alone, 131,072 sources, MK 4, 8 and 12, two rounds $(el)"
for rep in 1 2; do
  for g in grid road; do
    for mk in 4 8 12; do
      for v in base nar; do
        r $g-mk$mk-$v-$rep $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
      done
    done
  done
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
