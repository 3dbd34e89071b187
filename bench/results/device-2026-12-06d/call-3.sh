#!/usr/bin/env bash
# Device call 3 of the 2026-12-06d series. Call 2 showed the narrow kernel bound by its instructions
# (two compares per value were 4-6% of the grid's rate). The narrow passes now fold a vertex with a
# 16-bit row over its arcs two lanes a word, with sm_90's min.u16x2 and add.u16x2 (whole_vertex16,
# fold16): per arc and word three 16x2 operations in place of about fifteen. bundle/ is the tree with
# it; bundle/variants.tar.xz has v-base (bd57361's tuccompi-apsp: call 2's new build).
#  1. tests: phast_gpu (every lane count and plan against Dijkstra, paths to 65,533 and 65,534, the
#     broom), sssp_plugin --gpu, sssp_gpu.sh; -o tables of 16,384 sources, grid and road-like, against
#     bd57361's;
#  2. GPU alone, grid 1024x1024 (narrow passes), 131,072 sources, MK 12 and 8, new / base interleaved,
#     three rounds; the road-like 1M graph (32-bit passes) once at MK 12.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
OLD=/tmp/v-base/tuccompi-apsp
echo "== 1. tests $(el)"
t 150 $B/tests/apsp/phast_gpu
grep -E "broom|narrow|FAIL" $L/test-phast_gpu.txt | head -5
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in grid road; do
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --seed 3 --sources random:16384 -o $d/t-$g-new.csv -q >/dev/null 2>&1
	$OLD $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --seed 3 --sources random:16384 -o $d/t-$g-old.csv -q >/dev/null 2>&1
	cmp $d/t-$g-old.csv $d/t-$g-new.csv && echo "$g: the new -o table equals bd57361's ($(wc -l <$d/t-$g-new.csv) lines)"
done
echo "== 2. GPU alone, 131,072 sources $(el)"
for rep in 1 2 3; do
	for mk in 12 8; do
		for v in new base; do
			f=$APP
			[ $v = base ] && f=$OLD
			r grid-mk$mk-$v-$rep $f $d/grid.tgb --engine phast --ch-cache $d/grid.ch --units gpu --mk $mk --seed 1 --sources random:131072
		done
	done
done
for v in new base; do
	f=$APP
	[ $v = base ] && f=$OLD
	r road-mk12-$v $f $d/road.tgb --engine phast --ch-cache $d/road.ch --units gpu --mk 12 --seed 1 --sources random:131072
done
finish
