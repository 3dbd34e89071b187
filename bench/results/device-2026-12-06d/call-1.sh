#!/usr/bin/env bash
# Device call 1 of the 2026-12-06d series, bundle of a905a9b (the CH builder's long lists drop their
# contracted vertices in one pass, unlink_arc).
#  1. On an H200 only: bench/apsp.sh on the deep graphs (grid 1024x1024, road-like 1M), REPS=2, PHAST at
#     its own MK 12: issue 24's items 2 (GPU PHAST against its 4.8 TB/s floor) and 3 on the H200.
#  2. The GPU tests of PHAST with the new builder: phast_gpu (its broom's hubs have lists of 222 arcs, so
#     their hierarchy is now built by the one-pass removal), sssp_plugin --gpu, sssp_gpu.sh.
#  3. A star of 2,000,000 leaves (arcs both ways): the hierarchy built (it did not finish in 14 CPU minutes
#     before), GPU PHAST's table of 1,024 sources with summaries against the CPU dial engine's.
. bench/results/device-common.sh
export APP GRAPHTOOL=$GT BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
case "$(nvidia-smi --query-gpu=name --format=csv,noheader)" in
*H200*)
	echo "== 1. bench/apsp.sh, deep graphs, REPS=2 $(el)"
	a=/tmp/apspbench
	mkdir -p $a
	REPS=2 GRAPHS="grid:1024x1024 road:1048576" timeout 400 bash bench/apsp.sh $a >$a/output-apsp.txt 2>&1
	tail -25 $a/output-apsp.txt
	mkdir -p $OUT/apsp && cp $a/*.csv $a/output-apsp.txt $OUT/apsp/ 2>/dev/null
	python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -8
	;;
*) echo "== 1. skipped: not an H200" ;;
esac
echo "== 2. tests $(el)"
t 150 $B/tests/apsp/phast_gpu
grep -E "broom|FAIL" $L/test-phast_gpu.txt
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
echo "== 3. a star of 2,000,000 leaves $(el)"
d=/tmp/g
mkdir -p $d
awk 'BEGIN { for (i = 1; i <= 2000000; i++) printf "0 %d %d\n%d 0 %d\n", i, 1 + i % 7, i, 2 + i % 5 }' >$d/star.el
$GT convert $d/star.el $d/star.tgb >/dev/null
r star-cpu-ch $APP $d/star.tgb --engine phast --ch-cache $d/star.ch --units cpu --sources random:16 --summary
grep -iE "hierarch|contract" $L/star-cpu-ch.log | head -3
r star-gpu $APP $d/star.tgb --engine phast --ch-cache $d/star.ch --units gpu --seed 2 --sources random:1024 -o $d/star-gpu.csv
r star-dial $APP $d/star.tgb --engine dial --units cpu --seed 2 --sources random:1024 -o $d/star-dial.csv
cmp $d/star-gpu.csv $d/star-dial.csv && echo "star: GPU PHAST's table equals dial's ($(wc -l <$d/star-gpu.csv) lines)"
head -3 $d/star-gpu.csv
finish
