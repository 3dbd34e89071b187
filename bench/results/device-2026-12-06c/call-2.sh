#!/usr/bin/env bash
# Device call 2 of the 2026-12-06c series: bench/apsp.sh with the bundle of the tree named in
# bundle/COMMIT (PHAST's own MK 12, the app's stream workers up to the node's cores less four; GPU PHAST
# against its traffic floor in apsp-ratios.csv), one round: the README's table. Then, on the road-like
# graph the bench made, every unit at PHAST's MK 12 with the CPU workers the app gives it and with one
# fewer (--ncpu), two interleaved rounds, 65,536 sources: at MK 12 the node's 16 cores hold 12 stream
# workers, the CPU workers, StarPU-MPI's thread and the main thread.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1 APP=$B/apps/apsp/tuccompi-apsp GRAPHTOOL=$B/apps/apsp/tuccompi-graph \
       BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
d=/tmp/apspbench; mkdir -p $d
t0=$(date +%s)
timeout 480 bash bench/apsp.sh $d 2>&1 | tee $d/output-apsp.txt | tail -30
echo "== bench done [$(( $(date +%s) - t0 )) s]"
mkdir -p $OUT/apsp && cp $d/*.csv $d/output-apsp.txt $OUT/apsp/ 2>/dev/null
python3 bench/apsp_table.py $OUT/apsp 2>&1 | tail -12
g=$d/road-1048576.tgb
if [ -s $g ]; then
	a=($g --ch-cache $g.ch --seed 1 --summary --sources random:65536 --engine phast --policy ms-tail)
	for rep in 1 2; do
		for u in "--units gpu" "--units all" "--units all --ncpu 2"; do
			n=$(echo "$u" | tr -d ' -')-$rep
			timeout 100 $APP "${a[@]}" $u >$d/x-$n.log 2>&1 || echo "$n: exit $?"
			printf '%-22s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' $d/x-$n.log | tail -1)"
		done
	done
fi
echo "== done [$(( $(date +%s) - t0 )) s]"
tar czf $OUT/apsp/logs.tgz -C $d $(cd $d && ls *.log *.txt 2>/dev/null)
