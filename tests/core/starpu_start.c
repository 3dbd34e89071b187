/* StarPU starts and stops through tuccompi_init()/tuccompi_finalize() with this
 * project's StarPU build, twice in a row, and the node's units are what StarPU made. In a CUDA
 * build, tuccompi_init() asks CUDA to load every kernel at start (CUDA_MODULE_LOADING=EAGER) unless
 * the user chose otherwise. conf.ncpus = 0 means GPUs only: no CPU unit, every GPU, and where the
 * node has no GPU, -ENODEV with a message saying why. */
#include <starpu.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include <tuccompi.h>

#include "testutil.h"

int main(int argc, char **argv)
{
	int gpus = -1;
	for (int round = 0; round < 2; round++)
	{
		/* round 0: unset, the library's choice; round 1: the user's, kept */
		if (round == 0)
			unsetenv("CUDA_MODULE_LOADING");
		else
			setenv("CUDA_MODULE_LOADING", "LAZY", 1);
		struct tuccompi_conf conf;
		tuccompi_conf_init(&conf);
		conf.ncpus = 2;
		conf.use_mpi = 0;
		ASSERT_EQ(tuccompi_launched_ranks(), 1); /* run without a launcher: one process */
		int ret = tuccompi_init(&argc, &argv, &conf);
		if (ret == -ENODEV)
			return TEST_SKIP;
		ASSERT_OK(ret);
#ifdef TUCCOMPI_HAVE_CUDA
		const char *loading = getenv("CUDA_MODULE_LOADING");
		ASSERT(loading && strcmp(loading, round == 0 ? "EAGER" : "LAZY") == 0);
#endif
		ASSERT_EQ(tuccompi_init(&argc, &argv, &conf), -EALREADY);
		ASSERT_EQ(tuccompi_rank(), 0);
		ASSERT_EQ(tuccompi_nranks(), 1);
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), (int)starpu_cpu_worker_get_count());
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), 2);
		/* One GPU unit per device, whatever its stream workers. */
		int ndev = starpu_cuda_worker_get_count() ? 0 : 0;
		int devs[STARPU_NMAXWORKERS];
		int n = starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, devs, STARPU_NMAXWORKERS);
		for (int i = 0; i < n; i++)
		{
			int seen = 0;
			for (int j = 0; j < i; j++)
				seen |= starpu_worker_get_devid(devs[j]) == starpu_worker_get_devid(devs[i]);
			ndev += !seen;
		}
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CUDA), ndev);
		gpus = ndev;
		ASSERT_EQ(tuccompi_get_mk(), 1);
		tuccompi_print_units(stdout);
		ASSERT_OK(tuccompi_finalize());
		ASSERT_EQ(tuccompi_finalize(), -EINVAL);
	}
	/* GPUs only */
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.ncpus = 0;
	conf.use_mpi = 0;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (gpus == 0)
	{
		ASSERT_EQ(ret, -ENODEV);
		ASSERT_STR_CONTAINS(tuccompi_last_error(), "StarPU found no worker");
		printf("ncpus = 0 without a GPU: %s\n", tuccompi_last_error());
		return 0;
	}
	ASSERT_OK(ret);
	ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), 0);
	ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CUDA), gpus);
	printf("ncpus = 0: GPUs only (%d)\n", gpus);
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
