#!/usr/bin/env bash
# Device call 9 of the 2026-12-06d series: the hierarchy built with StarPU's workers asleep
# (tuccompi_host_work_begin/_end around sssp_ch_build) on the 16-core GPU node, where the runtime has
# 3 CPU workers and 12 stream workers polling beside the build's 16 threads. bundle/ is bc18f4a;
# bundle/variants.tar.xz has v-base (bd57361's tuccompi-apsp, which builds beside the polling workers).
# Road-like 1M and grid 1024x1024, every unit (the default), no cache, two rounds interleaved; the
# build's own time from the app's line, and the hierarchies compared.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for rep in 1 2; do
	for g in road grid; do
		for v in new base; do
			f=$APP
			[ $v = base ] && f=/tmp/v-base/tuccompi-apsp
			rm -f $d/$g-$v.ch
			timeout 120 $f $d/$g.tgb --engine phast --ch-cache $d/$g-$v.ch --seed 1 --sources random:256 >$L/$g-$v-$rep.log 2>&1 || echo "$g $v: exit $?"
			printf '%-5s %-5s round %s: %s\n' $g $v $rep "$(grep -oE 'built in [0-9.]+ s on [0-9]+ threads' $L/$g-$v-$rep.log)"
		done
		cmp <(tail -c +89 $d/$g-new.ch) <(tail -c +89 $d/$g-base.ch) && echo "$g: the same hierarchy"
	done
done
finish
