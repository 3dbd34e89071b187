#!/usr/bin/env bash
# Device call 3 (2026-12-05): bench/apsp.sh, every graph (the README's table and issue 24's ratios on 1
# and 2 ranks), with the batched engine's own MK 2 and every kernel loaded at start. The logs travel
# back as one archive (the device returns a limited number of files).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph BOOST=$B/bench/boost_dijkstra \
	MPIRUN=$B/tests/mpirun.sh
d=/tmp/apspbench; mkdir -p $d
timeout 555 "$B/bench/apsp.sh" $d 2>&1 | tail -70
rm -f $d/*.tgb $d/*.tgb.ch $d/*.ch
cp $d/apsp-bench.csv $d/apsp-ratios.csv "$OUT/" 2>/dev/null
tar czf "$OUT/apspbench.tgz" -C /tmp apspbench
