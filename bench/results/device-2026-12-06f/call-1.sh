#!/usr/bin/env bash
# Device call 1 of the 2026-12-06f series, with `make bundle` of c1067be (main; its GPU code is
# 51e7f9c's; phast_gpu's broom now built with the dense-core guard on) and bundle/variants.tar.xz
# (v-prof: 7341ada with ../device-2026-12-06e/chp.patch, the
# build's per-phase timer, CHP=1 prints it, CHT=N sets the threads; v-adapt: also pool-chunk.patch).
# Part A, on an H200 only (no H200 came in the 2026-12-06d and -e series): the PHAST GPU tests, then
# bench/apsp.sh on the deep graphs, REPS=2: issue 24's item 2 (GPU PHAST against the 4.8 TB/s floor)
# and item 3 on the H200 (../device-2026-12-06e/call-2.sh, with main's bundle).
# Part B, on any node: ../device-2026-12-06e/call-3.sh (where the hierarchy build's time goes on 16
# threads; whether smaller pool chunks help there), two rounds interleaved, then 8 threads once.
. bench/results/device-common.sh
export APP GRAPHTOOL=$GT BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
case "$(nvidia-smi --query-gpu=name --format=csv,noheader)" in
*H200*)
	echo "== part A (H200)"
	for x in tests/apsp/phast_gpu "tests/apsp/sssp_plugin --gpu" tests/apsp/sssp_gpu.sh tests/apsp/matrix_gpu.sh; do
		t 150 "$B/$x"
	done
	a=/tmp/apspbench
	mkdir -p $a
	REPS=2 GRAPHS="grid:1024x1024 road:1048576" timeout 400 bash bench/apsp.sh $a >$a/output-apsp.txt 2>&1
	echo "apsp.sh: rc $? $(el)"
	grep -E "phast" $a/output-apsp.txt | tail -16
	mkdir -p $OUT/apsp && cp $a/*.csv $a/output-apsp.txt $OUT/apsp/ 2>/dev/null
	python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -6
	;;
*)
	echo "== not an H200: part A not run; phast_gpu (its broom built with the guard on)"
	t 150 "$B/tests/apsp/phast_gpu"
	;;
esac
echo "== part B $(el)"
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
for g in road grid; do
	run $g-prof-t8 prof $g CHT=8
done
finish
