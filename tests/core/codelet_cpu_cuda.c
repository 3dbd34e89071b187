/* A plug-in with a CPU and a CUDA implementation runs on both kinds of unit and both
 * give the same results (read a shared buffer, write two private workspaces, hand a
 * result back), under MS and EQ2. Then a GPU's faults (tests/core/faults says the rest, on CPU
 * units), under MS, every result right each time:
 *  - a transient fault in a GPU job (TUCCOMPI_FAULT_INJECT=cuda:2): the library checks that the
 *    GPU's context still works, runs the job again on the GPU, and the GPU stays;
 *  - a CUDA implementation whose launch the tuner cannot place fails its job, not the process: its
 *    tasks run on the CPU cores; the GPU is out for that set only;
 *  - a sticky fault (cuda:2:sticky) takes the GPU out for the rest of the run, saying so.
 * Skipped (77) where there is no GPU or no CUDA in the build. */
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

#ifdef TUCCOMPI_HAVE_CUDA
static int x[N];
static unsigned long long results[NTASKS];

/* One set of @desc under policy @pol with TUCCOMPI_FAULT_INJECT=@inject (NULL: none): every result
 * scale_cpu's; its statistics in @st, the tasks its GPUs and CPU cores ran, its warnings in *warned
 * (malloc'd). */
static void one_set(const char *pol, const struct tuccompi_taskset_desc *desc, const char *inject,
		    struct tuccompi_taskset_stats *st, uint64_t *on_gpu, uint64_t *on_cpu, char **warned)
{
	memset(results, 0xff, sizeof(results));
	if (inject)
		setenv("TUCCOMPI_FAULT_INJECT", inject, 1);
	int saved;
	FILE *f = test_stderr_begin(&saved);
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(tuccompi_policy_by_name(pol), desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	*warned = test_stderr_end(f, saved);
	unsetenv("TUCCOMPI_FAULT_INJECT");
	for (int i = 0; i < NTASKS; i++)
	{
		unsigned long long want = 0;
		for (int j = 0; j < N; j++)
			want += (unsigned long long)((long long)x[j] * (i + 1) + j);
		if (results[i] != want)
			FAIL("%s, %s, task %d: result %llu, expected %llu", pol, inject ? inject : "no fault", i, results[i],
			     want);
	}
	ASSERT_OK(tuccompi_taskset_get_stats(ts, st));
	*on_gpu = *on_cpu = 0;
	for (int u = 0; u < st->nunits; u++)
		*(st->units[u].kind == TUCCOMPI_UNIT_CUDA ? on_gpu : on_cpu) += st->units[u].ntasks;
	ASSERT_EQ(*on_gpu + *on_cpu, NTASKS);
	printf("%s%s%s: %llu tasks on GPU, %llu on CPU cores\n", pol, inject ? ", " : "", inject ? inject : "",
	       (unsigned long long)*on_gpu, (unsigned long long)*on_cpu);
	tuccompi_taskset_destroy(ts);
}
#endif

int main(int argc, char **argv)
{
#ifndef TUCCOMPI_HAVE_CUDA
	(void)argc;
	(void)argv;
	(void)scale_cpu;
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
	const int gpus = tuccompi_unit_count(TUCCOMPI_UNIT_CUDA);
	if (gpus == 0)
	{
		fprintf(stderr, "no GPU: skipped\n");
		tuccompi_finalize();
		return TEST_SKIP;
	}
	tuccompi_print_units(stdout);

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
	struct tuccompi_taskset_desc desc = {
		.plugin = &plugin,
		.ntasks = NTASKS,
		.shared = { shx },
		.nshared = 1,
		.results = results,
	};
	struct tuccompi_taskset_stats st;
	uint64_t on_gpu, on_cpu;
	char *warned;
	/* MS: both kinds of unit pull work; the GPU must take some and so must the CPUs
	 * (EQ2 forces both to get an equal share). */
	one_set("ms", &desc, NULL, &st, &on_gpu, &on_cpu, &warned);
	ASSERT(on_gpu > 0);
	free(warned);
	one_set("eq2", &desc, NULL, &st, &on_gpu, &on_cpu, &warned);
	ASSERT(on_gpu > 0);
	ASSERT(on_cpu > 0);
	free(warned);

	/* a transient GPU fault: run again on the GPU, which stays */
	one_set("ms", &desc, "cuda:2", &st, &on_gpu, &on_cpu, &warned);
	ASSERT(!strstr(warned, "taken out"));
	ASSERT_EQ(st.retried, 1);
	ASSERT(on_gpu > 0);
	ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CUDA), gpus);
	free(warned);

	/* an unplaceable launch: the GPU's jobs fail (run again, then out for the set) */
	plugin.name = "test_unplaceable";
	plugin.cuda = test_unplaceable_cuda;
	one_set("ms", &desc, NULL, &st, &on_gpu, &on_cpu, &warned);
	ASSERT(st.retried >= 1);
	ASSERT_EQ(on_gpu, 0);
	ASSERT_STR_CONTAINS(warned, "cannot launch kernel scale_kernel");
	ASSERT_STR_CONTAINS(warned, "tried again at the next set");
	free(warned);

	/* a sticky GPU fault (last: the GPU is out for the rest of the run); the GPU is back first */
	plugin.name = "test_scale";
	plugin.cuda = test_scale_cuda;
	one_set("ms", &desc, "cuda:2:sticky", &st, &on_gpu, &on_cpu, &warned);
	ASSERT_STR_CONTAINS(warned, "a sticky failure: its fault was injected as sticky");
	ASSERT_STR_CONTAINS(warned, "taken out for the rest of the run");
	ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CUDA), gpus - 1);
	free(warned);
	one_set("ms", &desc, NULL, &st, &on_gpu, &on_cpu, &warned);
	ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CUDA), gpus - 1);
	if (gpus == 1)
		ASSERT_EQ(on_gpu, 0);
	free(warned);
	printf("GPU faults: transient run again on the GPU, unplaceable launch out for the set, sticky out for the run\n");
	ASSERT_OK(tuccompi_shared_unregister(shx));
	ASSERT_OK(tuccompi_finalize());
	return 0;
#endif
}
