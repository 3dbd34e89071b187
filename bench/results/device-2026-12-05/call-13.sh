#!/usr/bin/env bash
# Device call 13 (device-2026-12-05 series): bench/apsp.sh with the bundle of 6489b66 (a node's cores
# split by need, a lone rank on a GPU node leaving one core free), one round: the README's table.
# The run logs come back in one tarball (the device returns few files).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
timeout 540 bash bench/apsp.sh $d 2>&1 | tee $d/output-apsp.txt | tail -40
echo "== done [$(( $(date +%s) - t0 )) s]"
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
tar czf $OUT/apsp/logs.tgz -C $d $(cd $d && ls *.log *.txt 2>/dev/null)
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -12
