#!/usr/bin/env bash
# Device call 5 (2026-12-04): the final build (PER 2, COUNT_ILP 4): its GPU test; betweenness against
# distances alone with 2 pairs per ticket (main) against 1 and 4 (bench_betweenness_per1/_per4, builds of
# their own) on random 1M, R-MAT 20 and road-like 1M; every unit on random 1M (the 3 s goal); issue 24:
# random 1M batched with every unit at MK 2 against the GPU alone at MK 2.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle BC=bundle/bench/bench_betweenness
export STARPU_SILENT=1
env top_builddir="$B" top_srcdir="$B" timeout 200 "$B/tests/apsp/brandes_gpu.sh" >"$OUT/test-brandes_gpu.txt" 2>&1
echo "apsp/brandes_gpu.sh: exit $? ($(tail -n 1 "$OUT/test-brandes_gpu.txt"))"
env top_builddir="$B" top_srcdir="$B" timeout 120 "$B/tests/core/reduce_test" >"$OUT/test-reduce.txt" 2>&1
echo "core/reduce_test: exit $?"
b() { echo "== $*"; timeout "$@" 2>&1 | grep -E "check|betweenness |distances|error|fail" ; }
b 60 $BC --gen random:1049088 --sources 4096 --units gpu --reps 3 --check 4
b 60 $BC --gen rmat:20 --sources 4096 --units gpu --reps 3 --check 2
for v in _per1 _per4; do
  b 60 $BC$v --gen random:1049088 --sources 4096 --units gpu --reps 3 --check 0
  b 60 $BC$v --gen rmat:20 --sources 4096 --units gpu --reps 3 --check 0
done
b 40 $BC --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 2
b 40 ${BC}_per4 --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 0
b 50 $BC --gen random:1049088 --sources 4096 --units all --reps 2 --check 0
echo "== issue 24: random 1M batched, MK 2, GPU alone against every unit (the run's wall time from --summary)"
APP=$B/apps/apsp/tuccompi-apsp
$B/apps/apsp/tuccompi-graph gen random:1049088 --seed 1 -o /tmp/r1m.tgb >/dev/null 2>&1
r() { local name=$1 k=$2; shift 2
  timeout 120 "$APP" "$@" --sources random:$k --seed 1 --summary -q >"$OUT/$name.log" 2>&1
  w=$(awk '/^  rank 0: .* tasks in/ {for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1)}' "$OUT/$name.log" | head -1)
  printf '%-20s %6s sources %8s s %10s SSSP/s\n' "$name" "$k" "$w" "$(awk -v k=$k -v w=${w:-0} 'BEGIN {if (w > 0) printf "%.1f", k / w}')"; }
ba=(/tmp/r1m.tgb --engine batched --policy ms-tail)
for rep in 1 2; do
  r r1m-gpu-mk2-$rep 16384 "${ba[@]}" --units gpu --mk 2
  r r1m-all-mk2-$rep 16384 "${ba[@]}" --units all --mk 2
  r r1m-all-$rep 16384 "${ba[@]}" --units all
done
rm -f /tmp/r1m.tgb
OUT=$OUT scripts/gpu-node.sh pack >/dev/null 2>&1
