#!/usr/bin/env bash
# Device call 4 of the 2026-12-06c series. The bundle: the tree in bundle/COMMIT. Variant v-hp
# (bundle/variants.tar.xz, stripped, sm_90): harm-parallel.patch, GPU PHAST's harmonic terms added to
# the block's four 32-bit words at once, then their carries at once (the tree chains the words' atomics
# one after the other through the carries), its tuccompi-apsp and tests/apsp/phast_gpu.
#  1. phast_gpu of v-hp (every lane's harmonic sum against the CPU's, bit for bit);
#  2. -o, GPU alone, PHAST MK 12, 65,536 sources: road-like 1M and grid, tree and v-hp, three
#     interleaved rounds, the tables compared byte for byte; and without -o, one round each (a control).
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
t 60 /tmp/v-hp/phast_gpu
road_setup
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
ga=($d/grid.tgb --ch-cache $d/grid.ch --seed 1 --summary --engine phast --units gpu --mk 12 --sources random:65536)
$APP "${ga[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
ra=("${a[@]}" --engine phast --units gpu --mk 12)
echo "== -o, MK 12, 65,536 sources $(el)"
for rep in 1 2 3; do
	for g in road grid; do
		if [ $g = road ]; then args=("${ra[@]}"); else args=("${ga[@]}"); fi
		r $g-o-tree-$rep $APP "${args[@]}" -o $d/$g-tree.csv
		r $g-o-hp-$rep /tmp/v-hp/tuccompi-apsp "${args[@]}" -o $d/$g-hp.csv
		cmp $d/$g-tree.csv $d/$g-hp.csv && echo "$g tables equal ($(wc -l <$d/$g-tree.csv) lines)"
	done
done
echo "== without -o $(el)"
r road-tree $APP "${ra[@]}"
r road-hp /tmp/v-hp/tuccompi-apsp "${ra[@]}"
r grid-tree $APP "${ga[@]}"
r grid-hp /tmp/v-hp/tuccompi-apsp "${ga[@]}"
rm -rf $d
finish
