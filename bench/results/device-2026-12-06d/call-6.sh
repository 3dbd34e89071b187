#!/usr/bin/env bash
# Device call 6 of the 2026-12-06d series: bench/apsp.sh on the deep graphs only (grid 1024x1024 and
# road-like 1M), three rounds of the compared rows (REPS=3): issue 24's item 3 for PHAST with the
# narrow passes' 16x2 fold, each ratio from three rounds' medians (call 5's single round gave road-like
# every unit 0.984 of the GPU alone, where the sets take a quarter of a second).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
REPS=3 GRAPHS="grid:1024x1024 road:1048576" timeout 400 bash bench/apsp.sh $d >$d/output-apsp.txt 2>&1
echo "== done, rc $? [$(( $(date +%s) - t0 )) s]"
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
grep -E "phast" $d/output-apsp.txt | tail -24
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -6
