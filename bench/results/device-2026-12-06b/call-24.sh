#!/usr/bin/env bash
# Device call 24 (device-2026-12-06b series): the tree's summaries (narrow passes: sums in registers,
# eccentricities with shared atomics; 32-bit passes: both with 32-bit shared atomics), the best of each
# kernel in call 23. Carries bundle/ (this tree), bundle/variants.tar.xz (v-old: e6dbfd2; v-nosums: call
# 21's diagnostic), and for the last part bundle/nopause and bundle/final (call 20 of the 2026-12-06 series:
# this tree's library without SYN's pause, and without it with 2,048-byte collective messages).
#  1. the GPU tests of the engines' rows and summaries; tables of 4,096 sources (with harmonic sums)
#     against e6dbfd2's;
#  2. GPU alone, 131,072 sources, road-like 1M and grid, MK 8 and 12: new / old / nosums, two rounds; with
#     -o (the per-source table: harmonic sums on), 65,536 sources at MK 8: new / old, two rounds;
#  3. issue 24 item 3 with the new kernel: road-like 1M, PHAST MK 8, 65,536 sources: GPU alone, every unit
#     on 1 and 2 ranks, three rounds;
#  4. call 20 if the time allows: bench/latency with the three libraries; 2 ranks of the road-like set.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
OLD=/tmp/v-old NOS=/tmp/v-nosums
bin() { case $1 in new) echo $APP ;; *) echo /tmp/v-$1/tuccompi-apsp ;; esac; }
echo "== 1. tests $(el)"
t 120 $B/tests/apsp/phast_gpu
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
t 180 $B/tests/apsp/matrix_gpu.sh
t 120 $B/tests/apsp/gpu_memory.sh
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in road grid; do
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1
	for v in new old; do
		$(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 8 --seed 3 --sources random:4096 -o $d/t-$g-$v.csv -q >/dev/null 2>&1
	done
	cmp $d/t-$g-old.csv $d/t-$g-new.csv && echo "$g: the new table equals e6dbfd2's ($(wc -l <$d/t-$g-new.csv) lines)"
done
echo "== 2. GPU alone $(el)"
for rep in 1 2; do
	for g in road grid; do
		for mk in 8 12; do
			for v in new old nosums; do
				r $g-mk$mk-$v-$rep $(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
			done
		done
		for v in new old; do
			r $g-o-$v-$rep $(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 8 --seed 1 --sources random:65536 -o $d/o.csv
		done
	done
done
echo "== 3. every unit, road-like $(el)"
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
for rep in 1 2 3; do
	r g-$rep $APP "${a[@]}" --units gpu
	r a-$rep $APP "${a[@]}"
	r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
done
echo "== 4. call 20 $(el)"
if [ $(($(date +%s) - t0)) -lt 330 ]; then
	NOPAUSE="env LD_LIBRARY_PATH=$B/nopause:$LD_LIBRARY_PATH" FINAL="env LD_LIBRARY_PATH=$B/final:$LD_LIBRARY_PATH"
	for rep in 1 2; do
		lat lib-$rep env
		lat nopause-$rep $NOPAUSE
		lat final-$rep $FINAL
	done
	export TUCCOMPI_END_LOG=1
	for rep in 1 2; do
		r r2p-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
		r r2np-$rep $B/tests/mpirun.sh 2 $NOPAUSE $APP "${a[@]}"
		r r2f-$rep $B/tests/mpirun.sh 2 $FINAL $APP "${a[@]}"
	done
else
	echo "skipped: $(el)"
fi
rm -rf $d
finish
