#!/usr/bin/env bash
# Device call 4 (2026-12-04): betweenness with the forward count at 8 arcs in flight and without the
# rounds' counts (main), and the ordered sweeps at 2 and 8 pairs per ticket (bench_betweenness_per2/_per8,
# builds of their own); R-MAT's kernels under ncu; issue 24's every-unit ratios on one and two ranks
# (road-like 1M with PHAST, random 1M batched) after StarPU-MPI got a core of its own.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle BC=bundle/bench/bench_betweenness
export STARPU_SILENT=1
env top_builddir="$B" top_srcdir="$B" timeout 200 "$B/tests/apsp/brandes_gpu.sh" >"$OUT/test-brandes_gpu.txt" 2>&1
echo "apsp/brandes_gpu.sh: exit $? ($(tail -n 1 "$OUT/test-brandes_gpu.txt"))"
b() { echo "== $*"; timeout "$@" 2>&1 | grep -E "check|betweenness |distances|error|fail" ; }
for v in "" _per2 _per8; do
  TUCCOMPI_BRANDES_SWEEP=order b 60 $BC$v --gen rmat:20 --sources 4096 --units gpu --reps 2 --check 2
done
b 60 $BC --gen random:1049088 --sources 4096 --units gpu --reps 3 --check 4
b 60 $BC --gen rmat:20 --sources 4096 --units gpu --reps 3 --check 0
b 40 $BC --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 0
TUCCOMPI_BRANDES_SWEEP=order NCU_LIMIT=100 NCU_GRAPHS="rmat:20" OUT=$OUT scripts/gpu-node.sh betweenness-ncu 2>&1 | grep -E "===|exit"
python3 - "$OUT/betweenness-ncu/summary-rmat.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['Metric Name'] == 'Duration':
        v = float(r['Average'].replace(',', ''))
        print(f"{r['Kernel Name'][:45]:45s} {v / 1000 if r['Metric Unit'] == 'us' else v:8.3f} ms")
PY
echo "== issue 24: every unit against the units alone, 1 and 2 ranks (the run's wall time from --summary)"
APP=$B/apps/apsp/tuccompi-apsp
$B/apps/apsp/tuccompi-graph gen road:1048576 --seed 1 -o /tmp/road.tgb >/dev/null 2>&1
$B/apps/apsp/tuccompi-graph gen random:1049088 --seed 1 -o /tmp/r1m.tgb >/dev/null 2>&1
$APP /tmp/road.tgb --engine phast --ch-cache /tmp/road.ch --units gpu --sources random:256 -q >/dev/null 2>&1
r() { local name=$1 k=$2 launch=(); shift 2
  case $name in *2r*) launch=("$B/tests/mpirun.sh" 2) ;; esac
  timeout 120 "${launch[@]}" "$APP" "$@" --sources random:$k --seed 1 --summary -q >"$OUT/$name.log" 2>&1
  w=$(awk '/^  rank 0: .* tasks in/ {for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1)}' "$OUT/$name.log" | head -1)
  printf '%-20s %6s sources %8s s %10s SSSP/s\n' "$name" "$k" "$w" "$(awk -v k=$k -v w=${w:-0} 'BEGIN {if (w > 0) printf "%.1f", k / w}')"; }
ph=(/tmp/road.tgb --engine phast --ch-cache /tmp/road.ch --policy ms-tail)
for rep in 1 2; do
  r road-gpu-$rep 65536 "${ph[@]}" --units gpu --mk 4
  r road-cpu-$rep 8192 "${ph[@]}" --units cpu
  r road-all-$rep 65536 "${ph[@]}" --units all
  r road-all2r-$rep 65536 "${ph[@]}" --units all
done
ba=(/tmp/r1m.tgb --engine batched --policy ms-tail)
for rep in 1 2; do
  r r1m-gpu-mk1-$rep 16384 "${ba[@]}" --units gpu --mk 1
  r r1m-gpu-mk2-$rep 16384 "${ba[@]}" --units gpu --mk 2
  r r1m-cpu-$rep 256 "${ba[@]}" --units cpu
  r r1m-all-$rep 16384 "${ba[@]}" --units all
  r r1m-all2r-$rep 16384 "${ba[@]}" --units all
done
rm -f /tmp/road.tgb /tmp/road.ch /tmp/r1m.tgb
OUT=$OUT scripts/gpu-node.sh pack >/dev/null 2>&1
