#!/usr/bin/env bash
# Device call 2 of the 2026-12-06e series: bench/apsp.sh on the deep graphs (grid 1024x1024, road-like
# 1M), REPS=2, with call 1's bundle (gpu-mends applied): issue 24's item 2 (GPU PHAST against its
# card's traffic floor: bench/apsp.sh takes the DRAM bandwidth from the GPU's name) and item 3 (every
# unit against the best unit alone and the sum of the units alone, 1 and 2 ranks) on whichever card
# came (printed first).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
REPS=2 GRAPHS="grid:1024x1024 road:1048576" timeout $((${LEFT:-530} - 25)) bash bench/apsp.sh $d >$d/output-apsp.txt 2>&1
echo "== done, rc $? [$(( $(date +%s) - t0 )) s]"
tail -30 $d/output-apsp.txt
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -8
tar czf $OUT/apsp/logs.tgz -C $d $(cd $d && ls *.log 2>/dev/null)
