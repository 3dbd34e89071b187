#!/bin/sh
# rank1-5cpu.sh PROGRAM [ARGS]: under mpirun on 2 ranks of the 16-core node, rank 1 runs 5 CPU workers on
# cores 9-13 and StarPU-MPI's thread on core 14, so that core 15 has no thread bound to it (the node split
# gives rank 1 cores 9-15: 6 workers and the progression thread, every core of the node taken). Rank 0
# is left as the split makes it. Call 19: do the floating threads (main, feeder, link) need a core?
if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
	STARPU_NCPU=5 STARPU_WORKERS_CPUID="9 10 11 12 13" STARPU_MPI_THREAD_CPUID=14
	export STARPU_NCPU STARPU_WORKERS_CPUID STARPU_MPI_THREAD_CPUID
fi
exec "$@"
