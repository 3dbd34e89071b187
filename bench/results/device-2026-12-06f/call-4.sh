#!/usr/bin/env bash
# Device call 4 of the 2026-12-06f series (any 16-core node): call 3 built the road-like 1M and grid
# 1024x1024 hierarchies with main (e446981: chunks of at most total / 4n) in 2.29 s and 14.54 s, on
# another host than call 1, where 7341ada built them in 2.51-2.59 s and 12.7-13.5 s with chunks of 64
# and 1.80-1.94 s and 10.3 s with the smaller chunks. Here the three side by side, interleaved, two
# rounds, the same host: main (bundle), v-prof (7341ada + chp.patch), v-adapt (+ pool-chunk.patch).
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for rep in 1 2; do
	for g in road grid; do
		for v in main prof adapt; do
			f=/tmp/v-$v/tuccompi-apsp
			[ $v = main ] && f=$APP
			rm -f $d/$g-$v.ch
			env CHP=1 timeout 120 $f $d/$g.tgb --engine phast --ch-cache $d/$g-$v.ch --seed 1 --sources random:256 >$L/$g-$v-$rep.log 2>&1 || echo "$g $v: exit $?"
			printf '%-5s %-6s %s: %s | %s\n' $g $v $rep "$(grep -oE 'built in [0-9.]+ s on [0-9]+ threads' $L/$g-$v-$rep.log)" "$(grep -E '^CHP' $L/$g-$v-$rep.log | head -1 | cut -c1-110)"
		done
		cmp <(tail -c +89 $d/$g-main.ch) <(tail -c +89 $d/$g-adapt.ch) && cmp <(tail -c +89 $d/$g-main.ch) <(tail -c +89 $d/$g-prof.ch) && echo "$g: the same hierarchy"
	done
	echo "$(el)"
done
lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz" | head -5
finish
