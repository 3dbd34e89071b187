#!/usr/bin/env bash
# Device call 5 (device-2026-12-05 series): bench/apsp.sh of the tree (PHAST's rows at the engine's own
# MK, 8) with the bundle of 664ae01 (the same apps as the tree's), one round: the README's table.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
timeout 520 bash bench/apsp.sh $d 2>&1 | tee $d/output-apsp.txt | tail -40
echo "== done [$(( $(date +%s) - t0 )) s]"
mkdir -p $OUT/apsp && cp $d/*.csv $d/*.log $d/*.txt $OUT/apsp/ 2>/dev/null
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -12
