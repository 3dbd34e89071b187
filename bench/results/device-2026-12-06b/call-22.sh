#!/usr/bin/env bash
# Device call 22 (device-2026-12-06b series): call 21 found GPU PHAST's summaries costing 10% (the
# diagnostic without them: road-like +10%, grid +10-12%) and their 64-bit shared atomicAdd compiled to a
# compare-and-swap loop (SASS ATOMS.CAST.SPIN.64, 120 of them in phast_sweep256). The tree now adds a sum
# as two 32-bit words (the carry from atomicAdd's old value) and counts INF values instead of finite ones.
# Carries bundle/ (this tree) and bundle/variants.tar.xz: v-old (e6dbfd2's apsp and bench_phast), v-nosums
# (call 21's diagnostic, wrong sums: the most the summaries can give back).
#  1. the GPU tests of PHAST (rows and summaries against Dijkstra) and the tables of 4,096 sources against
#     e6dbfd2's;
#  2. GPU alone, 131,072 sources, road-like 1M and grid 1024x1024, MK 8 and 12: new / old / nosums, two
#     interleaved rounds; bench_phast (one stream, first pass profiled), new and old.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
OLD=/tmp/v-old NOS=/tmp/v-nosums
echo "== 1. tests $(el)"
t 120 $B/tests/apsp/phast_gpu
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in road grid; do
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 8 --seed 3 --sources random:4096 -o $d/t-$g-new.csv -q >/dev/null 2>&1
	$OLD/tuccompi-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 8 --seed 3 --sources random:4096 -o $d/t-$g-old.csv -q >/dev/null 2>&1
	cmp $d/t-$g-old.csv $d/t-$g-new.csv && echo "$g: the new table equals e6dbfd2's ($(wc -l <$d/t-$g-new.csv) lines)"
done
echo "== 2. GPU alone, 131,072 sources $(el)"
for rep in 1 2; do
	for g in road grid; do
		for mk in 8 12; do
			for v in new old nosums; do
				f=$APP
				[ $v = old ] && f=$OLD/tuccompi-apsp
				[ $v = nosums ] && f=$NOS/tuccompi-apsp
				r $g-mk$mk-$v-$rep $f $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
			done
		done
	done
done
echo "== 3. bench_phast, one stream, 256 lanes, first pass profiled $(el)"
for g in road grid; do
	for v in new old; do
		f=$B/bench/bench_phast
		[ $v = old ] && f=$OLD/bench_phast
		timeout 100 $f $d/$g.tgb --cache $d/$g.ch --threads 16 --sources 16 --dijkstra 4 --gpu-sources 16384 --lanes 256 --knob profile=1 >$L/bp-$g-$v.log 2>&1
		echo "$g $v: $(grep -E 'PHAST GPU|MISMATCH|distances' $L/bp-$g-$v.log | sed 's/ = .*//' | tr '\n' ' ')"
	done
done
rm -rf $d
finish
