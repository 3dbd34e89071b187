#!/usr/bin/env bash
# Device call 5 of the 2026-12-06d series: bench/apsp.sh, one round, with the bundle of the tree named
# in bundle/COMMIT (the narrow passes' 16x2 fold and sums without compares): the README's table.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
timeout 540 bash bench/apsp.sh $d >$d/output-apsp.txt 2>&1
echo "== bench done, rc $? [$(( $(date +%s) - t0 )) s]"
tail -30 $d/output-apsp.txt
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -12
tar czf $OUT/apsp/logs.tgz -C $d $(cd $d && ls *.log 2>/dev/null)
