#!/usr/bin/env bash
# Device call 8 of the 2026-12-06d series: on an H200 only (the kind asked for; an H100 came in calls
# 1-7), bench/apsp.sh on the deep graphs, REPS=2: issue 24's item 2 (GPU PHAST against the 4.8 TB/s
# floor) with the narrow passes' 16x2 fold. On another GPU it stops at once.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
name=$(nvidia-smi --query-gpu=name --format=csv,noheader)
echo "$name"
case "$name" in *H200*) ;; *) echo "not an H200: nothing run"; exit 0 ;; esac
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
REPS=2 GRAPHS="grid:1024x1024 road:1048576" timeout 400 bash bench/apsp.sh $d >$d/output-apsp.txt 2>&1
echo "== done, rc $? [$(( $(date +%s) - t0 )) s]"
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
grep -E "phast" $d/output-apsp.txt | tail -16
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -6
