#!/usr/bin/env bash
# Device call 1 (2026-12-05): where --matrix's fixed cost goes (issue 22). Road-like 1M, PHAST, GPU
# alone, MK 4: plain against 1 and 10,000 targets, interleaved; CUDA's modules loaded at once
# (CUDA_MODULE_LOADING=EAGER) against lazily; 100,000 sources (a cost per job grows with them, a
# fixed one does not); FxT traces of a plain and a one-target run, each job's duration per worker
# (scripts/tasks_rec_jobs.py); TUCCOMPI_END_LOG's first job.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
f=/tmp/road.tgb
$GT gen road:1048576 --seed 1 -o "$f" >/dev/null 2>&1
a=("$f" --engine phast --ch-cache "$f.ch" --units gpu --seed 1)
$APP "${a[@]}" --sources random:256 -q >/dev/null 2>&1
r() { local n=$1; shift; timeout 120 "$@" >"$OUT/$n.log" 2>&1; printf '%-26s %s | %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$OUT/$n.log" | tail -1)" "$(grep -h 'GPUs:' "$OUT/$n.log")"; }
for rep in 1 2 3; do
  r plain-$rep $APP "${a[@]}" --sources random:10000
  r t1-$rep $APP "${a[@]}" --sources random:10000 --targets random:1 --matrix /tmp/o.npy
  r t10k-$rep $APP "${a[@]}" --sources random:10000 --targets random:10000 --matrix /tmp/o.npy
  CUDA_MODULE_LOADING=EAGER r plain-eager-$rep $APP "${a[@]}" --sources random:10000
  CUDA_MODULE_LOADING=EAGER r t1-eager-$rep $APP "${a[@]}" --sources random:10000 --targets random:1 --matrix /tmp/o.npy
done
for rep in 1 2; do
  r plain100k-$rep $APP "${a[@]}" --sources random:100000
  r t1-100k-$rep $APP "${a[@]}" --sources random:100000 --targets random:1 --matrix /tmp/o.npy
done
for n in plain t1; do
  x=(); [ $n = t1 ] && x=(--targets random:1 --matrix /tmp/o.npy)
  TUCCOMPI_END_LOG=1 r endlog-$n $APP "${a[@]}" --sources random:10000 "${x[@]}"
  grep -h "job to end\|main thread woke" "$OUT/endlog-$n.log" | head -6 | sed 's/^/    /'
  r trace-$n $APP "${a[@]}" --sources random:10000 "${x[@]}" --trace /tmp/tr-$n
  cp /tmp/tr-$n/tasks.rec "$OUT/tasks-$n.rec" 2>/dev/null && python3 scripts/tasks_rec_jobs.py "$OUT/tasks-$n.rec"
  rm -rf /tmp/tr-$n
done
rm -f /tmp/o.npy "$f" "$f.ch"
