#!/usr/bin/env bash
# Device call 4 of the 2026-12-06d series. bundle/ is ffe19dc (the 16x2 fold of narrow passes) with
# tests/apsp/phast_gpu's new case (an arc of 100,000 in a narrow pass). Two experiments, as
# bundle/variants.tar.xz:
#   v-nocap  the 32-bit fold without its INF compare and select: min(min(d, INF - w) + w, v), exact
#            only where no finite distance reaches 2^32 - 2 (the road-like graph); nocap.patch. Does the
#            32-bit fold's instruction count matter on the road-like graph, as the 16-bit one's did?
#   v-rif8   PHAST_ROWS_IN_FLIGHT=8 (the fold's unrolling; 4 in the tree).
#  1. tests: phast_gpu;
#  2. GPU alone, 131,072 sources, MK 12: road-like 1M tree / nocap / rif8, grid tree / rif8, three rounds
#     interleaved; the -o tables of 16,384 sources of nocap against the tree's (road-like).
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
echo "== 1. tests $(el)"
t 150 $B/tests/apsp/phast_gpu
grep -E "an arc of|narrow passes|FAIL" $L/test-phast_gpu.txt | head -5
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in grid road; do
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1
done
$APP $d/road.tgb --engine phast --ch-cache $d/road.ch --units gpu --seed 3 --sources random:16384 -o $d/t-tree.csv -q >/dev/null 2>&1
/tmp/v-nocap/tuccompi-apsp $d/road.tgb --engine phast --ch-cache $d/road.ch --units gpu --seed 3 --sources random:16384 -o $d/t-nocap.csv -q >/dev/null 2>&1
cmp $d/t-tree.csv $d/t-nocap.csv && echo "road: nocap's -o table equals the tree's ($(wc -l <$d/t-tree.csv) lines)"
echo "== 2. GPU alone, 131,072 sources, MK 12 $(el)"
for rep in 1 2 3; do
	for v in tree nocap rif8; do
		f=$APP
		[ $v != tree ] && f=/tmp/v-$v/tuccompi-apsp
		r road-$v-$rep $f $d/road.tgb --engine phast --ch-cache $d/road.ch --units gpu --mk 12 --seed 1 --sources random:131072
	done
	for v in tree rif8; do
		f=$APP
		[ $v != tree ] && f=/tmp/v-$v/tuccompi-apsp
		r grid-$v-$rep $f $d/grid.tgb --engine phast --ch-cache $d/grid.ch --units gpu --mk 12 --seed 1 --sources random:131072
	done
done
finish
