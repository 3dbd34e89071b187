#!/usr/bin/env bash
# Device call 3 of the 2026-12-06c series. The bundle: the tree in bundle/COMMIT. Variants
# (bundle/variants.tar.xz, stripped, sm_90): v-pe = packed-ecc.patch (narrow passes keep two lanes'
# eccentricities per register with __vmaxu2 instead of a shared atomicMax per value; ptxas: the narrow
# 256-lane kernel spills 96/140 bytes against 40/76), its tuccompi-apsp and tests/apsp/phast_gpu;
# v-pe72 = the same with -DPHAST_MAXREG=72 (no spill to speak of, fewer threads per SM).
#  1. phast_gpu of the tree and of v-pe (every lane's eccentricity against Dijkstra);
#  2. grid 1024x1024 (narrow passes), GPU alone, PHAST MK 12, 131,072 sources: tree, v-pe, v-pe72,
#     three interleaved rounds; road-like 1M (32-bit passes: a control), tree and v-pe, two rounds;
#  3. -o tables of 16,384 sources on the grid, tree against v-pe, byte for byte.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
t 60 $B/tests/apsp/phast_gpu
t 60 /tmp/v-pe/phast_gpu
road_setup
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
ga=($d/grid.tgb --ch-cache $d/grid.ch --seed 1 --summary --engine phast --units gpu --mk 12)
$APP "${ga[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
echo "== grid, MK 12, 131,072 sources $(el)"
for rep in 1 2 3; do
	r grid-tree-$rep $APP "${ga[@]}" --sources random:131072
	r grid-pe-$rep /tmp/v-pe/tuccompi-apsp "${ga[@]}" --sources random:131072
	r grid-pe72-$rep /tmp/v-pe72/tuccompi-apsp "${ga[@]}" --sources random:131072
done
echo "== road-like, MK 12, 131,072 sources $(el)"
for rep in 1 2; do
	r road-tree-$rep $APP "${a[@]}" --engine phast --units gpu --mk 12 --sources random:131072
	r road-pe-$rep /tmp/v-pe/tuccompi-apsp "${a[@]}" --engine phast --units gpu --mk 12 --sources random:131072
done
echo "== -o tables, grid, 16,384 sources $(el)"
r grid-o-tree $APP "${ga[@]}" --sources random:16384 -o $d/o-tree.csv
r grid-o-pe /tmp/v-pe/tuccompi-apsp "${ga[@]}" --sources random:16384 -o $d/o-pe.csv
cmp $d/o-tree.csv $d/o-pe.csv && echo "grid tables equal ($(wc -l <$d/o-tree.csv) lines)"
rm -rf $d
finish
