#!/usr/bin/env bash
# Device call 23 (device-2026-12-06b series): call 22's 32-bit shared atomics gave road-like +3-5% and grid
# +1-2%, a third of what the summaries cost (nosums +10%). Where a value's summaries cost nothing in
# shared memory, registers must hold them. Carries bundle/ (9d1db26: s32, every value through 32-bit
# shared atomics) and bundle/variants.tar.xz (apsp, bench_phast and tests/apsp/phast_gpu of each):
#   r64    PHAST_SHARED_SUMS=0: each thread's sums (mod 2^32) and eccentricities in registers, 64 registers
#   r72    the same held to 72 registers (28 warps per SM instead of 32)
#   r80    the same held to 80 registers
#   r64f2  r64 with 2 rows in flight instead of 4
#   h64    PHAST_SHARED_SUMS=2: sums in registers, eccentricities with shared atomics
#   old    e6dbfd2 (64-bit shared atomicAdd: a compare-and-swap loop), nosums (call 21's diagnostic)
#  1. tests/apsp/phast_gpu of each variant; r64's tables of 4,096 sources against e6dbfd2's;
#  2. GPU alone, 131,072 sources, road-like 1M and grid 1024x1024, MK 8 and 12, every build, two rounds.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
VS="s32 r64 r72 r80 r64f2 h64 old nosums"
bin() { [ $1 = s32 ] && echo $APP || echo /tmp/v-$1/tuccompi-apsp; }
echo "== 1. tests $(el)"
for v in r64 r72 r80 r64f2 h64; do t 120 /tmp/v-$v/phast_gpu; done
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in road grid; do
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1
	for v in r64 old; do
		$(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 8 --seed 3 --sources random:4096 -o $d/t-$g-$v.csv -q >/dev/null 2>&1
	done
	cmp $d/t-$g-old.csv $d/t-$g-r64.csv && echo "$g: r64's table equals e6dbfd2's ($(wc -l <$d/t-$g-r64.csv) lines)"
done
echo "== 2. GPU alone, 131,072 sources $(el)"
for rep in 1 2; do
	for g in road grid; do
		for mk in 8 12; do
			for v in $VS; do
				r $g-mk$mk-$v-$rep $(bin $v) $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
			done
		done
	done
done
echo "== 3. bench_phast, one stream, 256 lanes $(el)"
for g in road grid; do
	for v in s32 r64 r72; do
		f=$B/bench/bench_phast
		[ $v != s32 ] && f=/tmp/v-$v/bench_phast
		timeout 100 $f $d/$g.tgb --cache $d/$g.ch --threads 16 --sources 16 --dijkstra 4 --gpu-sources 16384 --lanes 256 --knob profile=1 >$L/bp-$g-$v.log 2>&1
		echo "$g $v: $(grep -E 'PHAST GPU|MISMATCH|distances' $L/bp-$g-$v.log | sed 's/ = .*//' | tr '\n' ' ')"
	done
done
rm -rf $d
finish
