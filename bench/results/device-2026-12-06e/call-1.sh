#!/usr/bin/env bash
# Device call 1 of the 2026-12-06e series. bundle/ is 5afbc80 with gpu-mends.patch of the 2026-12-06d
# series applied (pack16 shared by row_store and tail16; add_sums counting nv once; sums_flush's
# overflow check in its existing loop); bundle/variants.tar.xz has v-base (bd57361's tuccompi-apsp,
# before the 16x2 fold and before host work).
#  1. the GPU tests (all but brandes_gpu, whose program is not in the bundle): phast_gpu (every lane
#     count and plan against Dijkstra), sssp_plugin --gpu, sssp_gpu.sh, dial_gpu, sssp_batch_gpu,
#     matrix_gpu.sh, gpu_memory.sh, codelet_cpu_cuda;
#  2. what 2026-12-06d call 9 was to measure: the hierarchy built with StarPU's workers asleep
#     (tuccompi_host_work_begin/_end) against beside polling workers (v-base), road-like 1M and grid
#     1024x1024, every unit, two rounds interleaved, the build's own time; the hierarchies compared;
#  3. -o tables of 16,384 sources, grid and road-like, against bd57361's;
#  4. in the time left of the call's 600 s: call-2.sh's bench/apsp.sh on the deep graphs, REPS=2 (issue
#     24's items 2 and 3), its CSVs in $OUT/apsp.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
OLD=/tmp/v-base/tuccompi-apsp
echo "== 1. tests $(el)"
t 150 $B/tests/apsp/phast_gpu
grep -E "broom|narrow|FAIL" $L/test-phast_gpu.txt | head -5
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
t 120 $B/tests/apsp/dial_gpu
t 120 $B/tests/apsp/sssp_batch_gpu
t 120 $B/tests/apsp/matrix_gpu.sh
t 120 $B/tests/apsp/gpu_memory.sh
t 60 $B/tests/core/codelet_cpu_cuda
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
echo "== 2. the hierarchy's build, workers asleep (new) or polling (base) $(el)"
for rep in 1 2; do
	for g in road grid; do
		for v in new base; do
			f=$APP
			[ $v = base ] && f=$OLD
			rm -f $d/$g-$v.ch
			timeout 120 $f $d/$g.tgb --engine phast --ch-cache $d/$g-$v.ch --seed 1 --sources random:256 >$L/$g-$v-$rep.log 2>&1 || echo "$g $v: exit $?"
			printf '%-5s %-5s round %s: %s\n' $g $v $rep "$(grep -oE 'built in [0-9.]+ s on [0-9]+ threads' $L/$g-$v-$rep.log)"
		done
		cmp <(tail -c +89 $d/$g-new.ch) <(tail -c +89 $d/$g-base.ch) && echo "$g: the same hierarchy"
	done
done
echo "== 3. -o tables against bd57361's $(el)"
for g in grid road; do
	cp $d/$g-new.ch $d/$g.ch
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --seed 3 --sources random:16384 -o $d/t-$g-new.csv -q >/dev/null 2>&1
	$OLD $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --seed 3 --sources random:16384 -o $d/t-$g-old.csv -q >/dev/null 2>&1
	cmp $d/t-$g-old.csv $d/t-$g-new.csv && echo "$g: the new -o table equals bd57361's ($(wc -l <$d/t-$g-new.csv) lines)"
done
finish
echo "== 4. bench/apsp.sh, deep graphs, REPS=2 $(el)"
left=$((575 - $(date +%s) + t0))
[ $left -gt 60 ] && LEFT=$left timeout $left bash bench/results/device-2026-12-06e/call-2.sh
