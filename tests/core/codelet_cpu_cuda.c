/* A plug-in with a CPU and a CUDA implementation runs on both kinds of unit and both
 * give the same results (read a shared buffer, write two private workspaces, hand a
 * result back). A CUDA implementation whose launch the tuner cannot place fails its job, not the
 * process: its tasks run on the CPU cores, every result right. Skipped (77) where there is no GPU
 * or no CUDA in the build. */
#include "config.h"

#include <starpu.h>
#include <tuccompi.h>

#include "testutil.h"

#define N 100000
#define NTASKS 200

void test_scale_cuda(struct tuccompi_task *t, void *arg);
void test_unplaceable_cuda(struct tuccompi_task *t, void *arg);

static void scale_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	const int *x = tuccompi_task_shared(t, 0);
	int n = (int)(tuccompi_task_shared_size(t, 0) / sizeof(int));
	long long *y = tuccompi_task_workspace(t, 0);
	unsigned long long sum = 0;
	for (int j = 0; j < n; j++)
	{
		y[j] = (long long)x[j] * (long long)(tuccompi_task_id(t) + 1) + j;
		sum += (unsigned long long)y[j];
	}
	*(unsigned long long *)tuccompi_task_result(t) = sum;
}

/* Every task's result is scale_cpu's. */
static void check_results(const int *x, const unsigned long long *results, const char *what)
{
	for (int i = 0; i < NTASKS; i++)
	{
		unsigned long long want = 0;
		for (int j = 0; j < N; j++)
			want += (unsigned long long)((long long)x[j] * (i + 1) + j);
		if (results[i] != want)
			FAIL("%s, task %d: result %llu, expected %llu", what, i, results[i], want);
	}
}

int main(int argc, char **argv)
{
#ifndef TUCCOMPI_HAVE_CUDA
	(void)argc;
	(void)argv;
	(void)scale_cpu;
	(void)check_results;
	fprintf(stderr, "built without CUDA: skipped\n");
	return TEST_SKIP;
#else
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.use_mpi = 0;
	conf.mk = 2;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	if (tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0)
	{
		fprintf(stderr, "no GPU: skipped\n");
		tuccompi_finalize();
		return TEST_SKIP;
	}
	tuccompi_print_units(stdout);

	static int x[N];
	for (int j = 0; j < N; j++)
		x[j] = (j * 7919) % 1000 - 500;
	tuccompi_shared_t shx;
	ASSERT_OK(tuccompi_shared_register(&shx, x, sizeof(x)));

	struct tuccompi_plugin plugin = {
		.name = "test_scale",
		.cpu = scale_cpu,
		.cuda = test_scale_cuda,
		.result_size = sizeof(unsigned long long),
		.workspace_size = { N * sizeof(long long), sizeof(unsigned long long) },
		.nworkspaces = 2,
	};
	static unsigned long long results[NTASKS];
	struct tuccompi_taskset_desc desc = {
		.plugin = &plugin,
		.ntasks = NTASKS,
		.shared = { shx },
		.nshared = 1,
		.results = results,
	};
	/* MS: both kinds of unit pull work; the GPU must take some and so must the CPUs
	 * (EQ2 forces both to get an equal share). */
	const char *pols[] = { "ms", "eq2" };
	for (int p = 0; p < 2; p++)
	{
		memset(results, 0xff, sizeof(results));
		tuccompi_taskset_t ts;
		ASSERT_OK(tuccompi_parallel(tuccompi_policy_by_name(pols[p]), &desc, &ts));
		ASSERT_OK(tuccompi_wait(ts));
		check_results(x, results, pols[p]);
		struct tuccompi_taskset_stats st;
		ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
		uint64_t on_gpu = 0, on_cpu = 0;
		for (int u = 0; u < st.nunits; u++)
			*(st.units[u].kind == TUCCOMPI_UNIT_CUDA ? &on_gpu : &on_cpu) += st.units[u].ntasks;
		printf("%s: %llu tasks on GPU, %llu on CPU cores\n", pols[p], (unsigned long long)on_gpu,
		       (unsigned long long)on_cpu);
		ASSERT(on_gpu > 0);
		ASSERT_EQ(on_gpu + on_cpu, NTASKS);
		if (p == 1)
			ASSERT(on_cpu > 0);
		tuccompi_taskset_destroy(ts);
	}
	/* last: the GPU may be taken out for the rest of the set */
	plugin.name = "test_unplaceable";
	plugin.cuda = test_unplaceable_cuda;
	memset(results, 0xff, sizeof(results));
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(&tuccompi_policy_ms, &desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	check_results(x, results, "ms, unplaceable launch");
	struct tuccompi_taskset_stats st;
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	ASSERT(st.retried >= 1);
	for (int u = 0; u < st.nunits; u++)
		if (st.units[u].kind == TUCCOMPI_UNIT_CUDA)
			ASSERT_EQ(st.units[u].ntasks, 0);
	printf("unplaceable launch: %llu task(s) run again on CPU cores, every result right\n",
	       (unsigned long long)st.retried);
	tuccompi_taskset_destroy(ts);
	ASSERT_OK(tuccompi_shared_unregister(shx));
	ASSERT_OK(tuccompi_finalize());
	return 0;
#endif
}
