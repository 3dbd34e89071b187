#!/usr/bin/env bash
# Device call 3 (2026-12-04): the ordered sweeps with the shuffle transpose; the sweeps at 6 blocks per
# SM (bench_betweenness_occ6: __launch_bounds__(256, 6), a build of its own) against 5; what --matrix
# costs by its width after the copier stream.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle BC=bundle/bench/bench_betweenness
export STARPU_SILENT=1
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" "$B/tests/$2" >"$OUT/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$OUT/test-$(echo "$2" | tr ' /' '__').txt"))"; }
t 200 apsp/brandes_gpu.sh
b() { echo "== $*"; timeout "$@" 2>&1 | grep -E "check|betweenness |distances|error|fail" ; }
for v in "" _occ6; do
  TUCCOMPI_BRANDES_SWEEP=order b 60 $BC$v --gen random:1049088 --sources 4096 --units gpu --reps 2 --check 8
  TUCCOMPI_BRANDES_SWEEP=order b 60 $BC$v --gen rmat:20 --sources 4096 --units gpu --reps 2 --check 4
done
b 60 $BC --gen rmat:20 --sources 4096 --units gpu --reps 2 --check 0
b 40 $BC --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 0
b 50 $BC --gen random:1049088 --sources 4096 --units all --reps 2 --check 0
echo "== --matrix by width, road-like 1M, PHAST, GPU alone, MK 4"
APP=$B/apps/apsp/tuccompi-apsp f=/tmp/road.tgb
$B/apps/apsp/tuccompi-graph gen road:1048576 --seed 1 -o "$f" >/dev/null 2>&1
ls -la "$f" 2>&1 | tail -1
a=("$f" --engine phast --ch-cache "$f.ch" --units gpu --seed 1)
$APP "${a[@]}" --sources random:256 -q >/dev/null 2>&1
r() { local n=$1; shift; timeout 60 "$APP" "$@" >"$OUT/m-$n.log" 2>&1; printf '%-22s %s | %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$OUT/m-$n.log" | tail -1)" "$(grep -h 'GPUs:' "$OUT/m-$n.log")"; }
for rep in 1 2; do
  r plain10k-$rep "${a[@]}" --sources random:10000
  r t1-$rep "${a[@]}" --sources random:10000 --targets random:1 --matrix /tmp/o.npy
  r t1000-$rep "${a[@]}" --sources random:10000 --targets random:1000 --matrix /tmp/o.npy
  r t10000-$rep "${a[@]}" --sources random:10000 --targets random:10000 --matrix /tmp/o.npy
  r plain40k-$rep "${a[@]}" --sources random:40000
  r t10000-40k-$rep "${a[@]}" --sources random:40000 --targets random:10000 --matrix /tmp/o.npy
done
rm -f /tmp/o.npy
rm -f "$f" "$f.ch"
OUT=$OUT scripts/gpu-node.sh pack >/dev/null 2>&1
