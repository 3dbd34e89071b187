#!/usr/bin/env bash
# Device call 2 (2026-12-08 series): the tree as committed after call 1 (24-bit rows dropped: slower on
# road-like; 16-bit rows on by default, knob narrow 1: a hierarchy's first pass in the process finds
# out whether its distances fit while the other passes run 32-bit), against stop 39's build (050c225,
# gpu-out/variants.tar.xz) in the same call. GPU tests; bench_phast narrow=1 / narrow=0; GPU alone,
# 131,072 sources, road-like MK 4 and 8, grid MK 8, base and new, two rounds; road-like every unit
# on 1 and 2 ranks against the GPU alone and the 12 CPU workers alone (8,192 sources), two rounds.
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
t 60 "$B/tests/apsp/sssp_plugin --gpu"
t 60 $B/tests/apsp/sssp_gpu.sh
t 60 $B/tests/apsp/matrix_gpu.sh
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
echo "== bench_phast, 16,384 sources, 256 lanes $(el)"
for g in grid road; do
  for k in narrow=1 narrow=0; do
    timeout 120 $V/nar-bench_phast $d/$g.tgb --cache $d/$g.ch --threads 16 --sources 16 --dijkstra 4 --gpu-sources 16384 \
      --lanes 256 --knob $k >"$L/bp-$g-$k.txt" 2>&1 || echo "bench_phast $g $k: exit $?"
    printf '%-5s %-9s %s | %s\n' $g $k "$(grep -E '^PHAST GPU, 256' "$L/bp-$g-$k.txt" | cut -c1-60)" \
      "$(grep -E '^16-bit|MISMATCH|^distances' "$L/bp-$g-$k.txt" | tr '\n' ' ' | cut -c1-160)"
  done
done
r() { local n=$1; shift; timeout 90 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"; printf '%-24s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
echo "== tuccompi-apsp GPU alone, 131,072 sources, two rounds $(el)"
for rep in 1 2; do
  for x in road:4 road:8 grid:8; do g=${x%:*} mk=${x#*:}
    for v in base nar; do
      r $g-mk$mk-$v-$rep $V/$v-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
    done
  done
done
echo "== road-like PHAST (new build), 65,536 sources: GPU alone, every unit on 1 and 2 ranks; 12 CPU workers alone, 8,192 $(el)"
for rep in 1 2; do
  a=($d/road.tgb --engine phast --ch-cache $d/road.ch --seed 1 --summary)
  r road-gpu-$rep $V/nar-apsp "${a[@]}" --sources random:65536 --units gpu
  r road-cpu12-$rep $V/nar-apsp "${a[@]}" --sources random:8192 --units cpu --ncpu 12
  TUCCOMPI_END_LOG=1 r road-all-$rep $V/nar-apsp "${a[@]}" --sources random:65536
  TUCCOMPI_END_LOG=1 r road-all2-$rep $B/tests/mpirun.sh 2 $V/nar-apsp "${a[@]}" --sources random:65536
  grep -hE "SYN ms|GPU  |waiting for other ranks" "$L/road-all2-$rep.log" | sed 's/^.*SYN began/SYN began/; s/; main thread.*//' | tail -5 | sed 's/^/    /'
done
rm -rf $d
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
