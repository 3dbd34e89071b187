#!/usr/bin/env bash
# Device call 18 (device-2026-12-06 series), the bundle of main with a collective's small payload
# inline in its header's message (2dce899). Carries bundle/ with bundle/head (ec7bd45's library:
# SYN without its barrier, two messages per step) and bundle/base (a475231's: SYN with its barrier).
#  1. bench/latency on 2 ranks, libraries inline / head / old, two rounds; then 40 sets each under
#     TUCCOMPI_END_LOG: where an empty set's time goes on the node (call 15: head 1.34-1.62 ms, old
#     0.75-0.92 ms; not understood);
#  2. the GPU tests (every engine's rows against Dijkstra's) and the MPI tests fixed in stop 44;
#  3. issue 24 item 2 on this GPU: PHAST alone at MK 8 and 12, grid and road-like 1M, 131,072 sources;
#  4. issue 24 item 3 on the final library: road-like 1M (PHAST, MK 8), 65,536 sources, three rounds of
#     the GPU alone, every unit on 1 and 2 ranks, 7 and 6 CPU workers alone (8,192 sources); random 1M
#     (batched), one round.
. bench/results/device-common.sh
HEAD="env LD_LIBRARY_PATH=$B/head:$LD_LIBRARY_PATH" OLD="env LD_LIBRARY_PATH=$B/base:$LD_LIBRARY_PATH"
echo "== 1. latency $(el)"
for rep in 1 2; do lat inline-$rep env; lat head-$rep $HEAD; lat old-$rep $OLD; done
for v in inline head old; do
	case $v in inline) pre=env ;; head) pre=$HEAD ;; old) pre=$OLD ;; esac
	timeout 120 $B/tests/mpirun.sh 2 $pre env TUCCOMPI_END_LOG=1 $B/bench/latency --reps 40 >$L/lat-$v.log 2>&1
done
echo "== 2. tests $(el)"
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
t 60 $B/tests/apsp/phast_gpu
t 120 $B/tests/apsp/dial_gpu
t 120 $B/tests/apsp/sssp_batch_gpu
t 180 $B/tests/apsp/matrix_gpu.sh
t 120 $B/tests/apsp/gpu_memory.sh
for s in core/mpi_exchange.sh core/batch_mpi.sh core/reduce_mpi.sh core/faults_mpi.sh sched/mpi_policies.sh; do t 120 $B/tests/$s; done
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
$GT gen random:1049088 --seed 1 -o $d/r1m.tgb >/dev/null
echo "== 3. GPU PHAST alone, 131,072 sources $(el)"
for g in road grid; do
	for mk in 8 12; do
		r $g-mk$mk $APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
	done
done
echo "== 4. every unit $(el)"
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
b=($d/r1m.tgb --seed 1 --summary --engine batched --sources random:16384)
export TUCCOMPI_END_LOG=1
for rep in 1 2 3; do
	echo "== road-like, round $rep $(el)"
	r g-$rep $APP "${a[@]}" --units gpu
	r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
	r a-$rep $APP "${a[@]}"
	for n in 7 6; do r c$n-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
echo "== random 1M, batched $(el)"
r bg $APP "${b[@]}" --units gpu
r br2 $B/tests/mpirun.sh 2 $APP "${b[@]}"
r ba $APP "${b[@]}"
r bc7 $APP "${b[@]}" --sources random:128 --units cpu --ncpu 7
rm -rf $d
finish
