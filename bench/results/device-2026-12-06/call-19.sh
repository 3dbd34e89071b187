#!/usr/bin/env bash
# Device call 19 (device-2026-12-06 series): why an empty set costs 2.7-3.8 ms on 2 ranks of the node
# with SYN without its barrier (call 18: inline 2dce899 and head ec7bd45) against 0.9-1.1 ms with it
# (a475231), when TUCCOMPI_END_LOG's runs show typical sets near 1 ms in all three (its stderr lines
# change the timing). bench/latency now prints each rank's medians of PARALLEL and SYN apart and its
# 90th percentile. Variants, two rounds each, one library or setting changed at a time:
#   inline, head, old            the three libraries (bundle/lib, bundle/head, bundle/base)
#   nopause                      2dce899 with SYN's starpu_pause()/starpu_resume() taken out (bundle/nopause)
#   spin                         inline, StarPU-MPI's progression thread polling 1 s before it sleeps
#   nocuda / old-nocuda          no CUDA workers (STARPU_NCUDA=0): are the stream workers' polling the cause?
#   nosplit                      inline, TUCCOMPI_NODE_SPLIT=0
# Then two more rounds of issue 24 item 3 on the road-like graph (call 18 had three), with a two-rank
# run whose rank 1 leaves a core free of bound threads (rank1-5cpu.sh: 5 CPU workers) and 5 workers alone.
. bench/results/device-common.sh
HEAD="env LD_LIBRARY_PATH=$B/head:$LD_LIBRARY_PATH" OLD="env LD_LIBRARY_PATH=$B/base:$LD_LIBRARY_PATH"
NOPAUSE="env LD_LIBRARY_PATH=$B/nopause:$LD_LIBRARY_PATH"
for rep in 1 2; do
	echo "== latency, round $rep $(el)"
	lat inline env
	lat old $OLD
	lat head $HEAD
	lat nopause $NOPAUSE
	lat spin env STARPU_MPI_POLLING_SPIN_US=1000000
	lat nocuda env STARPU_NCUDA=0
	lat old-nocuda $OLD STARPU_NCUDA=0
	lat nosplit env TUCCOMPI_NODE_SPLIT=0
done
road_setup
export TUCCOMPI_END_LOG=1
for rep in 4 5; do
	echo "== road-like, round $rep $(el)"
	r g-$rep $APP "${a[@]}" --units gpu
	r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
	r r2w5-$rep $B/tests/mpirun.sh 2 bench/results/device-2026-12-06/rank1-5cpu.sh $APP "${a[@]}"
	r a-$rep $APP "${a[@]}"
	for n in 7 6 5; do r c$n-$rep $APP "${a[@]}" --sources random:8192 --units cpu --ncpu $n; done
done
rm -rf $d
finish
