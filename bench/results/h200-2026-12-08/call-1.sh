#!/usr/bin/env bash
# Device call 1 (2026-12-08 series): GPU PHAST's 16- and 24-bit rows, on by default in the bundle
# (knob narrow 1: 16-bit, then 24-bit, then 32-bit rows), against stop 39's build (050c225: gpu-out/variants.tar.xz, base-*) in the same call.
# GPU tests (phast_gpu's narrow plans, matrix_gpu.sh, sssp_gpu.sh, sssp_plugin --gpu); bench_phast
# (16,384 sources, 256 lanes, first pass profiled) base / narrow=1 / narrow=0 on the grid and road-like
# 1M; tables of 4,096 sources base against new (grid, road); tuccompi-apsp GPU alone, 131,072 sources,
# MK 8 and 12, two alternating rounds; road-like PHAST every unit on 1 and 2 ranks against the GPU
# alone and the CPU alone (K sources 65,536 and 262,144), base against new (the workspaces given back after SYN's
# exchange, not before).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph
tar xJf gpu-out/variants.tar.xz -C /tmp && V=/tmp/variants
cp $B/apps/apsp/tuccompi-apsp $V/nar-apsp; cp $B/bench/bench_phast $V/nar-bench_phast
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { local f=$L/test-$(basename "$2" | tr ' /' '__').txt
      env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1; echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== GPU tests"
t 120 $B/tests/apsp/phast_gpu
grep -E "narrow passes|path to|grid 30x30|FAIL|not ok" $L/test-phast_gpu.txt | head -20
t 150 "$B/tests/apsp/sssp_plugin --gpu"
t 120 $B/tests/apsp/sssp_gpu.sh
t 120 $B/tests/apsp/matrix_gpu.sh
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
echo "== bench_phast, 16,384 sources, 256 lanes, the first pass profiled $(el)"
for g in grid road; do
  for v in base nar nar:narrow=0 base nar; do
    x=${v%%:*} k=profile=1; [ "$v" != "$x" ] && k=profile=1,${v#*:}
    timeout 120 $V/$x-bench_phast $d/$g.tgb --cache $d/$g.ch --threads 16 --sources 16 --dijkstra 4 --gpu-sources 16384 \
      --lanes 256 --knob $k >"$L/bp-$g-${v/:/-}.txt" 2>&1 || echo "bench_phast $g $v: exit $?"
    printf '%-5s %-14s %s | %s\n' $g "$v" "$(grep -E '^PHAST GPU, 256' "$L/bp-$g-${v/:/-}.txt" | cut -c1-60)" \
      "$(grep -E '^narrow rows|MISMATCH|^distances' "$L/bp-$g-${v/:/-}.txt" | tr '\n' ' ' | cut -c1-160)"
  done
  for v in base nar; do grep -E "^PHAST GPU profile|^  " "$L/bp-$g-$v.txt" | head -10; done
done
echo "== tables, 4,096 sources, GPU alone: base against new $(el)"
for g in grid road; do
  for v in base nar; do
    timeout 60 $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --seed 1 --sources random:4096 -q -o $d/t-$g-$v.csv \
      >$L/tab-$g-$v.log 2>&1 || echo "table $g $v: exit $?"
  done
  cmp $d/t-$g-base.csv $d/t-$g-nar.csv && echo "$g: tables equal ($(wc -l < $d/t-$g-nar.csv) lines)"
done
r() { local n=$1; shift; timeout 90 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"; printf '%-24s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== tuccompi-apsp GPU alone, 131,072 sources, MK 8 and 12, two rounds $(el)"
for rep in 1 2; do
  for g in grid road; do
    for mk in 8 12; do
      for v in base nar; do
        r $g-mk$mk-$v-$rep $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
      done
    done
  done
done
echo "== road-like PHAST: GPU alone, CPU alone, every unit on 1 and 2 ranks, base and new (SYN before the release) $(el)"
for k in 65536 65536 262144; do
  rep=$((rep + 1))
  a=($d/road.tgb --engine phast --ch-cache $d/road.ch --seed 1 --summary --sources random:$k)
  for v in base nar; do
    r road-$k-gpu-$v-$rep $V/$v-apsp "${a[@]}" --units gpu
    [ $v = nar ] && r road-$k-cpu-$v-$rep $V/$v-apsp "${a[@]}" --units cpu
    TUCCOMPI_END_LOG=1 r road-$k-all-$v-$rep $V/$v-apsp "${a[@]}"
    TUCCOMPI_END_LOG=1 r road-$k-all2-$v-$rep $B/tests/mpirun.sh 2 $V/$v-apsp "${a[@]}"
    grep -hE "SYN ms|released|GPU  |waiting for other ranks" "$L/road-$k-all2-$v-$rep.log" | sed 's/^.*SYN began/SYN began/; s/; main thread.*//' | tail -6 | sed 's/^/    /'
  done
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
