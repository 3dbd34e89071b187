/* Two ranks exchange StarPU data handles through StarPU-MPI (over Open MPI) after
 * tuccompi_init(): rank 0 sends a vector, rank 1 doubles it and sends it back. Before it,
 * tuccompi_launched_ranks() already knew the number of ranks. Then the library's own collectives
 * carry payloads of every size class: inline in a collective's first message (up to lib/comm.c's
 * COLL_INLINE, 2,920 bytes), just past it (a message of its own), and large. */
#include <stdlib.h>

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

	static const size_t sizes[] = { 0, 1, 100, 2919, 2920, 2921, 3840, 4096, 65543, 1u << 20 };
	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
	{
		size_t len = sizes[k];
		int root = (int)(k % (unsigned)tuccompi_nranks());
		unsigned char *buf = malloc(len ? len : 1);
		ASSERT(buf != NULL);
		for (size_t i = 0; i < len; i++)
			buf[i] = rank == root ? (unsigned char)(i * 7 + k) : 0xee;
		ASSERT_OK(tuccompi_bcast(buf, len, root));
		for (size_t i = 0; i < len; i++)
			if (buf[i] != (unsigned char)(i * 7 + k))
				FAIL("tuccompi_bcast of %zu bytes from rank %d: byte %zu is %u on rank %d", len, root, i, buf[i], rank);
		free(buf);
	}
	static const unsigned counts[] = { 1, 363, 364, 1000, 40000 };
	for (unsigned k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
	{
		unsigned count = counts[k];
		int64_t *v = malloc(count * sizeof(*v));
		ASSERT(v != NULL);
		for (unsigned i = 0; i < count; i++)
			v[i] = (int64_t)i * (rank + 1);
		ASSERT_OK(tuccompi_allreduce_i64(v, count, TUCCOMPI_OP_SUM));
		int64_t n = tuccompi_nranks(), ranksum = n * (n + 1) / 2;
		for (unsigned i = 0; i < count; i++)
			if (v[i] != (int64_t)i * ranksum)
				FAIL("tuccompi_allreduce_i64 of %u values: value %u is %lld, expected %lld", count, i, (long long)v[i],
				     (long long)i * ranksum);
		free(v);
	}
	if (rank == 0)
		printf("tuccompi_bcast and tuccompi_allreduce_i64 ok across payload sizes\n");
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
