/* StarPU starts and stops through tuccompi_init()/tuccompi_finalize() with this
 * project's StarPU build, twice in a row, and the node's units are what StarPU made. */
#include <starpu.h>
#include <tuccompi.h>

#include "testutil.h"

int main(int argc, char **argv)
{
	for (int round = 0; round < 2; round++)
	{
		struct tuccompi_conf conf;
		tuccompi_conf_init(&conf);
		conf.ncpus = 2;
		conf.use_mpi = 0;
		int ret = tuccompi_init(&argc, &argv, &conf);
		if (ret == -ENODEV)
			return TEST_SKIP;
		ASSERT_OK(ret);
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
		ASSERT_EQ(tuccompi_get_mk(), 1);
		tuccompi_print_units(stdout);
		ASSERT_OK(tuccompi_finalize());
		ASSERT_EQ(tuccompi_finalize(), -EINVAL);
	}
	return 0;
}
