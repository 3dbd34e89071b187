#!/usr/bin/env bash
# Device call 2 (2026-12-05): the library now asks CUDA to load every kernel when it starts
# (CUDA_MODULE_LOADING=EAGER unless set). --matrix against plain runs again (road-like 1M, PHAST, GPU
# alone, MK 4, interleaved), against the same build with CUDA_MODULE_LOADING=LAZY; a start-up's cost
# (one source, the whole command timed); the batched engine's matrix; the GPU tests.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
f=/tmp/road.tgb
$GT gen road:1048576 --seed 1 -o "$f" >/dev/null 2>&1
$GT gen random:1049088 --seed 1 -o /tmp/r1m.tgb >/dev/null 2>&1
a=("$f" --engine phast --ch-cache "$f.ch" --units gpu --seed 1)
$APP "${a[@]}" --sources random:256 -q >/dev/null 2>&1
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1; printf '%-26s %s | %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$L/$n.log" | tail -1)" "$(grep -h 'GPUs:' "$L/$n.log")"; }
echo "== road-like 1M, PHAST, GPU alone, MK 4, 10,000 sources"
for rep in 1 2 3; do
  r plain-$rep $APP "${a[@]}" --sources random:10000
  r t1-$rep $APP "${a[@]}" --sources random:10000 --targets random:1 --matrix /tmp/o.npy
  r t10k-$rep $APP "${a[@]}" --sources random:10000 --targets random:10000 --matrix /tmp/o.npy
  CUDA_MODULE_LOADING=LAZY r plain-lazy-$rep $APP "${a[@]}" --sources random:10000
  CUDA_MODULE_LOADING=LAZY r t1-lazy-$rep $APP "${a[@]}" --sources random:10000 --targets random:1 --matrix /tmp/o.npy
done
echo "== 40,000 sources"
for rep in 1 2; do
  r plain40k-$rep $APP "${a[@]}" --sources random:40000
  r t10k-40k-$rep $APP "${a[@]}" --sources random:40000 --targets random:10000 --matrix /tmp/o.npy
done
echo "== random 1M, batched, GPU alone, 8,192 sources"
for rep in 1 2; do
  r r1m-plain-$rep $APP /tmp/r1m.tgb --units gpu --seed 1 --sources random:8192
  r r1m-t10k-$rep $APP /tmp/r1m.tgb --units gpu --seed 1 --sources random:8192 --targets random:10000 --matrix /tmp/o.npy
done
echo "== start-up: one source, the whole command (s)"
TIMEFORMAT=%R
for rep in 1 2 3; do
  for m in default LAZY; do
    e=(); [ $m = LAZY ] && e=(env CUDA_MODULE_LOADING=LAZY)
    printf '%-8s ' $m; { time "${e[@]}" $APP "${a[@]}" --sources 1 -q >/dev/null 2>&1; } 2>&1
  done
done
rm -f /tmp/o.npy "$f" "$f.ch" /tmp/r1m.tgb
echo "== GPU tests"
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" "$B/tests/$2" >"$L/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$L/test-$(echo "$2" | tr ' /' '__').txt"))"; }
t 200 apsp/matrix_gpu.sh
t 200 apsp/brandes_gpu.sh
OUT=$L scripts/gpu-node.sh gputests 2>&1 | grep -v "^$"
tar czf "$OUT/logs.tgz" -C /tmp logs
