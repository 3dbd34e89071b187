#!/usr/bin/env bash
# Device call 1 of the 2026-12-06c series. The bundle: 91dff10 with c8597ff's codelets/sssp/sssp_types.h
# (harmonic terms on GPUs by a correctly rounded reciprocal scaled by 2^61, the 2026-12-06b series' call 27,
# never run); bundle/variants.tar.xz: v-div (91dff10's own build: the division), stripped.
#  1. every GPU engine's tests (they compare harmonic sums with the CPU's bit for bit);
#  2. road-like 1M with -o, 65,536 sources, MK 8: the reciprocal against v-div, two rounds, tables compared;
#  3. PHAST's MK for every unit (issue 24 items 2 and 3): the GPU alone, every unit on 1 and 2 ranks, at
#     MK 8 and MK 12, and the CPU cores alone, two interleaved rounds (does MK 12 also serve every unit?).
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
t 60 $B/tests/apsp/phast_gpu
t 60 "$B/tests/apsp/sssp_plugin --gpu"
t 60 $B/tests/apsp/sssp_gpu.sh
t 90 $B/tests/apsp/dial_gpu
t 60 $B/tests/apsp/sssp_batch_gpu
t 60 $B/tests/apsp/matrix_gpu.sh
road_setup
echo "== -o: reciprocal (tree) against the division (v-div) $(el)"
for rep in 1 2; do
	r o-rcp-$rep $APP "${a[@]}" --engine phast --units gpu --mk 8 -o $d/o.csv
	r o-div-$rep /tmp/v-div/tuccompi-apsp "${a[@]}" --engine phast --units gpu --mk 8 -o $d/o-div.csv
	cmp $d/o.csv $d/o-div.csv && echo "tables equal ($(wc -l <$d/o.csv) lines)"
done
echo "== MK 8 / 12: the GPU alone, every unit (1 and 2 ranks), the CPU cores alone $(el)"
for rep in 1 2; do
	for mk in 8 12; do
		r gpu-mk$mk-$rep $APP "${a[@]}" --engine phast --units gpu --mk $mk
		r all-mk$mk-$rep $APP "${a[@]}" --engine phast --units all --policy ms-tail --mk $mk
		r all2-mk$mk-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --engine phast --units all --policy ms-tail --mk $mk
	done
	r cpu-$rep $APP "${a[@]}" --engine phast --units cpu --sources random:4096
done
for f in $L/all*-mk*-1.log $L/gpu-mk12-1.log; do
	echo "-- $(basename $f): units"
	grep -E '^ +rank [0-9]+ +(CPU|CUDA)|CPU cores:|GPUs?:|units\)' $f | head -6
done
rm -rf $d
finish
