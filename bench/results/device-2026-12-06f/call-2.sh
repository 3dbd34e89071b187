#!/usr/bin/env bash
# Device call 2 of the 2026-12-06f series, on an H200 only (call 1 got an H100, as every call of the
# 2026-12-06d and -e series did), with `make bundle` of e446981 (main; its GPU code is 51e7f9c's):
# the PHAST GPU tests, then bench/apsp.sh on the deep graphs, REPS=2: issue 24's item 2 (GPU PHAST
# against the 4.8 TB/s floor; the grid was 0.78 of it on the H200 before the narrow passes' 16x2
# fold) and item 3 on the H200. On another GPU it stops at once.
. bench/results/device-common.sh
export APP GRAPHTOOL=$GT BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
case "$(nvidia-smi --query-gpu=name --format=csv,noheader)" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
for x in tests/apsp/phast_gpu "tests/apsp/sssp_plugin --gpu" tests/apsp/sssp_gpu.sh tests/apsp/matrix_gpu.sh tests/apsp/sssp_batch_gpu tests/apsp/dial_gpu; do
	t 150 "$B/$x"
done
a=/tmp/apspbench
mkdir -p $a
REPS=2 GRAPHS="grid:1024x1024 road:1048576" timeout 400 bash bench/apsp.sh $a >$a/output-apsp.txt 2>&1
echo "apsp.sh: rc $? $(el)"
grep -E "phast" $a/output-apsp.txt | tail -16
mkdir -p $OUT/apsp && cp $a/*.csv $a/output-apsp.txt $OUT/apsp/ 2>/dev/null
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -6
finish
