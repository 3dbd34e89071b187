/* Two ranks exchange StarPU data handles through StarPU-MPI (over Open MPI) after
 * tuccompi_init(): rank 0 sends a vector, rank 1 doubles it and sends it back. Before it,
 * tuccompi_launched_ranks() already knew the number of ranks. */
#include <starpu.h>
#include <starpu_mpi.h>
#include <tuccompi.h>

#include "testutil.h"

#define N 1000

int main(int argc, char **argv)
{
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.use_mpi = 1;
	conf.ncpus = 1;
	conf.quiet = 1;
	int launched = tuccompi_launched_ranks(); /* before the runtime: the launcher's word */
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	ASSERT(tuccompi_mpi_active());
	if (tuccompi_nranks() < 2)
		FAIL("run with at least 2 ranks (tests/mpi_exchange.sh does)");
	ASSERT_EQ(launched, tuccompi_nranks());
	int rank = tuccompi_rank();
	ASSERT_EQ(rank, starpu_mpi_world_rank());

	static int v[N];
	for (int i = 0; i < N; i++)
		v[i] = rank == 0 ? i : -1;
	starpu_data_handle_t h;
	starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, N, sizeof(int));
	if (rank == 0)
	{
		ASSERT_OK(starpu_mpi_send(h, 1, 42, MPI_COMM_WORLD));
		MPI_Status st;
		ASSERT_OK(starpu_mpi_recv(h, 1, 43, MPI_COMM_WORLD, &st));
		starpu_data_acquire(h, STARPU_R);
		for (int i = 0; i < N; i++)
			if (v[i] != 2 * i)
				FAIL("v[%d] = %d after the round trip, expected %d", i, v[i], 2 * i);
		starpu_data_release(h);
		printf("StarPU-MPI round trip of %d ints ok\n", N);
	}
	else if (rank == 1)
	{
		MPI_Status st;
		ASSERT_OK(starpu_mpi_recv(h, 0, 42, MPI_COMM_WORLD, &st));
		starpu_data_acquire(h, STARPU_RW);
		for (int i = 0; i < N; i++)
			v[i] *= 2;
		starpu_data_release(h);
		ASSERT_OK(starpu_mpi_send(h, 0, 43, MPI_COMM_WORLD));
	}
	starpu_data_unregister(h);
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
