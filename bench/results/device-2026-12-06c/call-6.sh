#!/usr/bin/env bash
# Device call 6 of the 2026-12-06c series. The bundle: the tree in bundle/COMMIT. Variants
# (bundle/variants.tar.xz, stripped, sm_90): v-lds = ecc-lds.patch (a value at most the block's
# eccentricity so far, read with a plain shared load, skips its atomicMax; the narrow 256-lane kernel
# spills 52/96 bytes against 40/76), its tuccompi-apsp and tests/apsp/phast_gpu; v-lds32 = the skip in
# the 32-bit kernels only (narrow kernels as the tree).
#  1. phast_gpu of v-lds (every lane's eccentricity against Dijkstra);
#  2. GPU alone, PHAST MK 12, 131,072 sources: road-like 1M (32-bit passes) and grid (narrow), tree,
#     v-lds and v-lds32, three interleaved rounds; -o tables of 16,384 sources compared.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
t 60 /tmp/v-lds/phast_gpu
road_setup
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
ga=($d/grid.tgb --ch-cache $d/grid.ch --seed 1 --summary --engine phast --units gpu --mk 12)
$APP "${ga[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
ra=("${a[@]}" --engine phast --units gpu --mk 12)
echo "== MK 12, 131,072 sources $(el)"
for rep in 1 2 3; do
	for g in road grid; do
		if [ $g = road ]; then args=("${ra[@]}"); else args=("${ga[@]}"); fi
		r $g-tree-$rep $APP "${args[@]}" --sources random:131072
		r $g-lds-$rep /tmp/v-lds/tuccompi-apsp "${args[@]}" --sources random:131072
		r $g-lds32-$rep /tmp/v-lds32/tuccompi-apsp "${args[@]}" --sources random:131072
	done
done
echo "== -o tables, 16,384 sources $(el)"
for g in road grid; do
	if [ $g = road ]; then args=("${ra[@]}"); else args=("${ga[@]}"); fi
	r $g-o-tree $APP "${args[@]}" --sources random:16384 -o $d/$g-tree.csv
	r $g-o-lds /tmp/v-lds/tuccompi-apsp "${args[@]}" --sources random:16384 -o $d/$g-lds.csv
	cmp $d/$g-tree.csv $d/$g-lds.csv && echo "$g tables equal ($(wc -l <$d/$g-tree.csv) lines)"
done
rm -rf $d
finish
