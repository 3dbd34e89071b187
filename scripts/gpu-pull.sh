#!/usr/bin/env bash
# gpu-pull.sh: one H200-node session (2026-12-01) for issues 9 and 12, from `make bundle` plus the
# bench built other ways (bundle/bench/batch_gpu-NAME, made by `scripts/gpu-pull.sh --build` on the
# build machine):
#   1. tests/apsp/sssp_batch_gpu (every lane equal to Dijkstra, every kernel path) with the defaults;
#   2. the PULL step built four ways -- lazy own rows (the default), all own rows up front (nolazy),
#      6 and 8 rows gathered at once instead of 4 (g6, g8; nolazy-g6) -- on random 1M and 4M, R-MAT 20 and the
#      grid, defaults first and last (scripts/gpu-knobs.sh);
#   3. tuccompi-apsp: GPU alone on 16,384 sources of the random 1M graph; every unit on 32,408 (MS-TAIL);
#   4. issue 12: every unit, 8,192 sources, one rank then two ranks; bench/overhead on 2 and 4 ranks,
#      1 us and 100 us tasks, the MS feeder's prefetch on (default) and off (TUCCOMPI_MS_PREFETCH=0).
# PULL_ONLY=1 stops after step 2; VARIANTS (NAME:FLAG[,FLAG...] ...) and KNOBS choose other builds.
# Results in $OUT/pull/.
if [ "${1:-}" = --build ]; then
	# the variants: only sm_90 (the H200), stripped, next to the bundle's bench
	set -e
	cd "$(dirname "$0")/.."
	for v in ${VARIANTS:-nolazy:-DTUCCOMPI_PULL_LAZY_ROWS=0 g6:-DTUCCOMPI_PULL_GATHER2=6 g8:-DTUCCOMPI_PULL_GATHER2=8 \
		nolazy-g6:-DTUCCOMPI_PULL_LAZY_ROWS=0,-DTUCCOMPI_PULL_GATHER2=6}; do
		touch codelets/sssp/batch_gpu.cu
		f=${v#*:}
		make -s bench/batch_gpu NVCCFLAGS="-O3 -gencode arch=compute_90,code=sm_90 ${f//,/ }" >/dev/null
		strip -o "bundle/bench/batch_gpu-${v%%:*}" bench/batch_gpu
	done
	touch codelets/sssp/batch_gpu.cu
	make -s bench/batch_gpu >/dev/null
	exit 0
fi
. "$(dirname "$0")/gpu-lib.sh" pull
step "tests/apsp/sssp_batch_gpu"
timeout 150 "$B/tests/apsp/sssp_batch_gpu" >"$o/sssp_batch_gpu.txt" 2>&1
echo "sssp_batch_gpu: exit $?"
tail -3 "$o/sssp_batch_gpu.txt"

step "PULL variants"
GRAPHS="random:1049088 random:4194304 rmat:20 grid:1024x1024" KNOBS=${KNOBS:-base bin:nolazy bin:g6 bin:g8 bin:nolazy-g6 base} APP_KNOBS="" \
	OUT=$o bash "$here/scripts/gpu-knobs.sh" | grep -v '^$'

[ "${PULL_ONLY:-0}" = 1 ] && exit 0
step "tuccompi-apsp, random 1M"
"$GT" gen random:1049088 --seed 1 -o "$out/r1m.tgb" >/dev/null 2>&1
run apsp-gpu-16384 "$APP" "$out/r1m.tgb" --sources random:16384 --units gpu
run apsp-all-ms-tail-32408 "$APP" "$out/r1m.tgb" --sources random:32408 --units all --policy ms-tail --summary
grep -E "busy|engine" "$o/apsp-all-ms-tail-32408.log" | head -6

step "issue 12: every unit, 8,192 sources, one rank then two ranks"
run ranks1 "$APP" "$out/r1m.tgb" --sources random:8192 --summary
run ranks2 "$B/tests/mpirun.sh" 2 "$APP" "$out/r1m.tgb" --sources random:8192 --summary
grep -E "local rank|cross-rank|waiting" "$o/ranks2.log" | head -8
rm -f "$out/r1m.tgb"

step "issue 12: bench/overhead, 2 and 4 ranks, MS prefetch on and off"
for n in 2 4; do
	for pf in 1 0; do
		echo "--- $n ranks, TUCCOMPI_MS_PREFETCH=$pf"
		MPIRUN_ARGS="-x STARPU_NCUDA=0 -x TUCCOMPI_MS_PREFETCH=$pf" timeout 120 "$B/tests/mpirun.sh" $n \
			"$B/bench/overhead" --task-us 1,100 --reps 5 --policies eq1,eq2,ms,ms-tail \
			--csv "$o/overhead-$n-pf$pf.csv" 2>&1 | grep -E '^  [a-z]' | sed "s/^/[$n pf$pf] /"
	done
done
