#!/usr/bin/env bash
# Device call 20 (device-2026-12-06 series): call 19 found SYN's starpu_pause()/starpu_resume() behind the
# empty sets' milliseconds (without them: EQ1 0.34-0.38 ms against 1.15-1.28). Does taking them out cost the
# long sets they were put in for (2026-12-01: 40 ms stalls of SYN's gathers on a full node)? Three
# libraries: bundle/lib (2dce899: paused, 3,840-byte collective messages), bundle/nopause (the same
# without the pause), bundle/final (without the pause, 2,048-byte messages: a StarPU-MPI envelope and one
# message fit in Open MPI's 4 KiB shared-memory fast box together; 3 of 12 runs of the 3,840-byte build
# had tuccompi_barrier at 0.54-0.59 ms where the others had 0.05-0.09).
#  1. bench/latency, the three libraries, two rounds;
#  2. road-like 1M, PHAST MK 8, 65,536 sources, every unit on 2 ranks with each library, interleaved, three
#     rounds, the GPU alone once per round (one rank never pauses: SYN pauses only where the 1st layer runs).
. bench/results/device-common.sh
NOPAUSE="env LD_LIBRARY_PATH=$B/nopause:$LD_LIBRARY_PATH" FINAL="env LD_LIBRARY_PATH=$B/final:$LD_LIBRARY_PATH"
for rep in 1 2; do
	echo "== latency, round $rep $(el)"
	lat lib env
	lat nopause $NOPAUSE
	lat final $FINAL
done
road_setup
export TUCCOMPI_END_LOG=1
for rep in 1 2 3; do
	echo "== road-like, round $rep $(el)"
	r g-$rep $APP "${a[@]}" --units gpu
	r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
	r r2np-$rep $B/tests/mpirun.sh 2 $NOPAUSE $APP "${a[@]}"
	r r2f-$rep $B/tests/mpirun.sh 2 $FINAL $APP "${a[@]}"
done
rm -rf $d
finish
