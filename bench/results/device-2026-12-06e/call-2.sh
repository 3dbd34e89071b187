#!/usr/bin/env bash
# Device call 2 of the 2026-12-06e series, on an H200 only (an H100 came in every call of the
# 2026-12-06d series and in call 1): with call 1's bundle (5afbc80 with gpu-mends: the GPU code of
# 51e7f9c), the PHAST GPU tests, then bench/apsp.sh on the deep graphs, REPS=2: issue 24's item 2 (GPU
# PHAST against the 4.8 TB/s floor; the grid was 0.78 there before the narrow passes' 16x2 fold) and
# item 3 on the H200. On another GPU it stops at once.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
case "$(nvidia-smi --query-gpu=name --format=csv,noheader)" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
t0=$(date +%s)
for t in tests/apsp/phast_gpu "tests/apsp/sssp_plugin --gpu" tests/apsp/sssp_gpu.sh; do
	env top_builddir=$B top_srcdir=$B timeout 150 $B/$t >/tmp/test.log 2>&1
	echo "$t: exit $? ($(tail -n 1 /tmp/test.log | cut -c1-120)) [$(( $(date +%s) - t0 )) s]"
done
d=/tmp/apspbench; mkdir -p $d
REPS=2 GRAPHS="grid:1024x1024 road:1048576" timeout 400 bash bench/apsp.sh $d >$d/output-apsp.txt 2>&1
echo "== done, rc $? [$(( $(date +%s) - t0 )) s]"
grep -E "phast" $d/output-apsp.txt | tail -16
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -6
