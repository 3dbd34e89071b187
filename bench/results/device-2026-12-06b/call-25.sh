#!/usr/bin/env bash
# Device call 25 (device-2026-12-06b series): call 24 (H200) had `-o` (the per-source table, harmonic sums
# on) at 154,000 SSSP/s on the road-like graph against 260,000 without: each harmonic term took two 64-bit
# compare-and-swap loops in shared memory. The tree (new) adds them as four 32-bit words. And without the
# summaries the 32-bit kernel still ran 13-15% faster (nosums): PHAST_ECC_SKIP=1 (e) skips the atomicMax of a
# value at most the thread's lanes' least eccentricity so far. Carries bundle/ (this tree) and
# bundle/variants.tar.xz: v-prev (the tree with PHAST_HARM32=0: 2628c69's kernels), v-e, v-old (e6dbfd2).
#  1. tests/apsp/phast_gpu (rows, sums, harmonic sums against Dijkstra's) of the tree and of e; the
#     tables of 4,096 sources (harmonic column included) against e6dbfd2's;
#  2. with -o, 65,536 sources: new / prev / old; without, 131,072 sources: new / e / prev; road-like and
#     grid, MK 8 and 12, two rounds.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
bin() { case $1 in new) echo $APP ;; *) echo /tmp/v-$1/tuccompi-apsp ;; esac; }
echo "== 1. tests $(el)"
t 120 $B/tests/apsp/phast_gpu
t 120 /tmp/v-e/phast_gpu
t 120 "$B/tests/apsp/sssp_plugin --gpu"
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in road grid; do
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1
	for v in new e old; do
		$(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 8 --seed 3 --sources random:4096 -o $d/t-$g-$v.csv -q >/dev/null 2>&1
	done
	for v in new e; do
		cmp $d/t-$g-old.csv $d/t-$g-$v.csv && echo "$g: $v's table equals e6dbfd2's ($(wc -l <$d/t-$g-$v.csv) lines)"
	done
done
echo "== 2. GPU alone $(el)"
for rep in 1 2; do
	for g in road grid; do
		for mk in 8 12; do
			for v in new prev old; do
				r $g-o-mk$mk-$v-$rep $(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:65536 -o $d/o.csv
			done
			for v in new e prev; do
				r $g-mk$mk-$v-$rep $(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
			done
		done
	done
done
rm -rf $d
finish
