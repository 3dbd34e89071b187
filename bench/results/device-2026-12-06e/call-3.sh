#!/usr/bin/env bash
# Device call 3 of the 2026-12-06e series: where the contraction hierarchy's build spends its time on
# the 16-core node, and whether smaller chunks spread a round's last costly vertices. Call 1 measured
# the build at 2.99-3.45 s (road-like 1M) and 17.7-18.1 s (grid 1024x1024) on 16 threads, against
# 6.4 s and 53.8 s on the 2-core VM: 2x and 3x for 8x the threads. bundle/variants.tar.xz has two
# tuccompi-apsp builds of cc0b3cb with a per-phase timer (CHP=1 prints the phases' seconds; CHT=N
# sets the build's threads; neither is in the tree): v-prof (the pool's fixed chunks: 64 vertices a
# chunk for the priorities) and v-adapt (a chunk at most total / 4n: codelets/sssp/pool.h).
# Every unit (the default), no cache, 256 sources; two rounds interleaved, then v-prof on 8
# threads once; the hierarchies compared (the .ch payloads).
# NOT RUN: the session's device time ran out in tries that found no machine. To run it, build the two
# variants from cc0b3cb: chp.patch (the timer) for v-prof, chp.patch and pool-chunk.patch for v-adapt,
# each `make apps/apsp/tuccompi-apsp`, apps/apsp/.libs/tuccompi-apsp stripped into
# bundle/variants.tar.xz as v-prof/ and v-adapt/. On the 2-core VM the two build the same hierarchies
# in the same time (grid 512x512 9.96-10.14 s against 9.96-10.03; road-like 1M 5.35-5.47 against
# 5.33-5.46): two threads leave no round short of chunks, so only the node can say.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
run() { # NAME VARIANT GRAPH [env]
	local n=$1 v=$2 g=$3
	shift 3
	rm -f $d/$n.ch
	env CHP=1 "$@" timeout 120 /tmp/v-$v/tuccompi-apsp $d/$g.tgb --engine phast --ch-cache $d/$n.ch --seed 1 --sources random:256 >$L/$n.log 2>&1 || echo "$n: exit $?"
	printf '%-16s %s | %s\n' $n "$(grep -oE 'built in [0-9.]+ s on [0-9]+ threads' $L/$n.log)" "$(grep -E '^CHP' $L/$n.log | tr '\n' ' ')"
}
for rep in 1 2; do
	for g in road grid; do
		for v in prof adapt; do
			run $g-$v-$rep $v $g
		done
		cmp <(tail -c +89 $d/$g-prof-$rep.ch) <(tail -c +89 $d/$g-adapt-$rep.ch) && echo "$g: the same hierarchy"
	done
	echo "$(el)"
done
for t in 8; do
	for g in road grid; do
		run $g-prof-t$t prof $g CHT=$t
	done
done
finish
