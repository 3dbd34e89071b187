#!/usr/bin/env bash
# Device call 5 of the 2026-12-06c series: bench/apsp.sh on the deep graphs only (grid 1024x1024 and
# road-like 1M), two rounds of the compared rows (REPS=2), with the bundle of the tree in bundle/COMMIT
# (PHAST at its own MK 12): issue 24's items 2 and 3 for PHAST, each ratio from two rounds' medians.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
REPS=2 GRAPHS="grid:1024x1024 road:1048576" timeout 500 bash bench/apsp.sh $d 2>&1 | tee $d/output-apsp.txt | tail -30
echo "== done [$(( $(date +%s) - t0 )) s]"
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -6
tar czf $OUT/apsp/logs.tgz -C $d $(cd $d && ls *.log *.txt 2>/dev/null)
