#!/usr/bin/env bash
# Device call 2 of the 2026-12-06d series. The narrow (16-bit) passes' summaries without two compares
# per value: a thread's registers hold up to 2^16 values of a lane's sum (each below 2^16, so no carry)
# and go to the block's words every 2^16 vertices, and a value of 65,534 or more is caught by its
# lane's eccentricity at the end of the pass instead of by its own compare. bundle/ is the tree with
# it; bundle/variants.tar.xz has v-old (9ee0628's tuccompi-apsp).
#  1. tests: phast_gpu (its broom: more than 2^16 vertices per thread, lanes' sums past 2^32), sssp_plugin
#     --gpu, sssp_gpu.sh; the grid's and the road-like graph's -o tables of 16,384 sources, new against old;
#  2. GPU alone, grid 1024x1024 (narrow passes), 131,072 sources, MK 12 and 8, new / old interleaved,
#     three rounds; the road-like 1M graph (32-bit passes, the same kernel) once at MK 12.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
OLD=/tmp/v-old/tuccompi-apsp
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
	cmp $d/t-$g-old.csv $d/t-$g-new.csv && echo "$g: the new -o table equals 9ee0628's ($(wc -l <$d/t-$g-new.csv) lines)"
done
echo "== 2. GPU alone, 131,072 sources $(el)"
for rep in 1 2 3; do
	for mk in 12 8; do
		for v in new old; do
			f=$APP
			[ $v = old ] && f=$OLD
			r grid-mk$mk-$v-$rep $f $d/grid.tgb --engine phast --ch-cache $d/grid.ch --units gpu --mk $mk --seed 1 --sources random:131072
		done
	done
done
for v in new old; do
	f=$APP
	[ $v = old ] && f=$OLD
	r road-mk12-$v $f $d/road.tgb --engine phast --ch-cache $d/road.ch --units gpu --mk 12 --seed 1 --sources random:131072
done
finish
