#!/usr/bin/env bash
# gpu-final.sh: the measurements the docs quote, in one call on the H200 node, from the bundle:
#   0. tests/apsp/sssp_batch_gpu and phast_gpu (the GPU engines against Dijkstra, every kernel path);
#   1. bench/apsp.sh (every engine per graph, Boost, the 32,408-source all-units runs);
#   2. issue 12: APSP with every unit, 8,192 sources, one rank against two ranks (node-aware split);
#   3. bench/overhead on 1, 2 and 4 ranks, 1 us and 100 us tasks (CPU workers only; OVERHEAD=0 skips).
# Results in $OUT/final.tgz, a summary on stdout.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${BUNDLE:-$here/bundle}
out=${OUT:-$here/gpu-out}
o=$out/final
mkdir -p "$o"
. "$B/env.sh"
export STARPU_SILENT=1 TUCCOMPI_TUNE_DB=$o/tune.db
step() { echo; echo "=== $* ($(date +%T))"; }
APP=$B/apps/apsp/tuccompi-apsp
for t in sssp_batch_gpu phast_gpu; do
	step "tests/apsp/$t"
	timeout 150 "$B/tests/apsp/$t" >"$o/$t.txt" 2>&1
	echo "$t: exit $?"
	tail -n 1 "$o/$t.txt"
done
step "bench/apsp.sh"
APP=$APP GRAPHTOOL=$B/apps/apsp/tuccompi-graph BOOST=$B/bench/boost_dijkstra timeout ${APSP_LIMIT:-420} \
	"$B/bench/apsp.sh" "$o" 2>&1 | grep -v '^ *$' | tail -45
G=$o/random-1049088.tgb
if [ -s "$G" ]; then
	step "every unit, 8192 sources: one rank, then two ranks on this one-GPU node"
	timeout 100 "$APP" "$G" --sources random:8192 --summary >"$o/ranks1.log" 2>&1
	timeout 100 "$B/tests/mpirun.sh" 2 "$APP" "$G" --sources random:8192 --summary >"$o/ranks2.log" 2>&1
	for r in 1 2; do
		grep -E "SSSP in|local rank|cross-rank" "$o/ranks$r.log" | sed "s/^/[$r rank(s)] /" | grep -v '^\[.*\] *$' | head -8
	done
fi
[ "${OVERHEAD:-1}" = 0 ] || {
step "bench/overhead: 1 us and 100 us tasks, 1, 2 and 4 ranks"
STARPU_NCUDA=0 timeout 60 "$B/bench/overhead" --task-us 1,100 --reps 3 --csv "$o/overhead-1.csv" 2>&1 | tail -18
for n in 2 4; do
	MPIRUN_ARGS="-x STARPU_NCUDA=0" timeout 90 "$B/tests/mpirun.sh" $n "$B/bench/overhead" --task-us 1,100 --reps 3 \
		--csv "$o/overhead-$n.csv" 2>&1 | tail -18
done
}
rm -f "$o"/*.tgb "$o"/*.ch
tar czf "$out/final.tgz" -C "$out" final && ls -la "$out/final.tgz"
