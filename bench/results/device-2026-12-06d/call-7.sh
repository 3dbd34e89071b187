#!/usr/bin/env bash
# Device call 7 of the 2026-12-06d series: call 6 (REPS=3) gave every unit on two ranks of the node
# 0.984 of the GPU alone on the road-like graph (sets of 65,536 sources: 0.27 s). Is the gap a fixed
# cost per set (it shrinks on longer sets) or a share of the rate (it does not)? The same runs as
# bench/apsp.sh's PHAST rows (ms-tail, the engine's MK, --summary), at 65,536 and 262,144 sources,
# three rounds interleaved; each run's rank lines (wall, comm, wait) kept.
. bench/results/device-common.sh
road_setup
a=($d/road.tgb --ch-cache $d/road.ch --engine phast --policy ms-tail --seed 1 --summary -q)
w() { awk '/^  rank 0: .* tasks in/ {for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1)}' "$1" | head -1; }
for rep in 1 2 3; do
	for k in 65536 262144; do
		for u in gpu all all2; do
			launch=()
			units=$u
			[ $u = all2 ] && launch=($B/tests/mpirun.sh 2) && units=all
			f=$L/$u-$k-$rep.log
			timeout 120 "${launch[@]}" $APP "${a[@]}" --units $units --sources random:$k >$f 2>&1 || echo "$u $k: exit $?"
			wl=$(w $f)
			printf '%-5s %7s round %s: wall %s s, %s SSSP/s\n' $u $k $rep "$wl" "$(awk -v k=$k -v w=$wl 'BEGIN {printf "%.0f", k / w}')"
		done
	done
done
grep -h "^  rank" $L/all2-262144-*.log | head -6
finish
