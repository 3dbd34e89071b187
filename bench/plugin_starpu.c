/* bench/plugin_starpu: examples/hutchinson's tasks written as a plain StarPU program, the baseline of
 * bench/plugin.sh. One codelet with the example's CPU code (hutchinson.h) and a CUDA function that
 * launches the example's two kernels in CUDA's suggested block (cudaOccupancyMaxPotentialBlockSize,
 * bench/plugin_starpu_cuda.cu) on the worker's stream and waits for them, as the example's does; the
 * matrix is a handle every task reads, the probe vector and the sums scratch handles (the example's
 * workspaces), and each task writes its result into the results array. StarPU's own scheduler
 * (--sched: dmda, lws, ...), MK stream workers per GPU (--mk, one thread each, as the library starts
 * them), CPU workers as STARPU_NCPU says. The time is from the first submission to the last task's
 * end; every result is checked as the example checks them, and the line printed is the example's.
 *
 * Usage: plugin_starpu [--n N] [--tasks T] [--units all|cpu|gpu] [--mk MK] [--sched S]
 *        plugin_starpu --kernels [--n N] [--reps R]   the tuner's geometry against CUDA's suggested
 *                                                     block on the example's kernels (GPU 0) */
#include <starpu.h>

#include "bench.h"
#include "hutchinson.h"

/* One task's arguments. */
struct task_arg
{
	uint64_t id;
	uint32_t n;
	struct probe_result *res;
};

#ifdef STARPU_USE_CUDA
/* bench/plugin_starpu_cuda.cu */
void plain_task_cuda(const double *A, double *x, double *sums, uint32_t n, uint64_t id, struct probe_result *res);
int plain_kernels(uint32_t n, unsigned reps);
#endif

static void task_cpu(void *buffers[], void *cl_arg)
{
	const struct task_arg *a = cl_arg;
	probe_cpu((const double *)STARPU_VARIABLE_GET_PTR(buffers[0]), a->n, a->id,
		  (double *)STARPU_VARIABLE_GET_PTR(buffers[1]), a->res);
}

#ifdef STARPU_USE_CUDA
static void task_cuda(void *buffers[], void *cl_arg)
{
	const struct task_arg *a = cl_arg;
	plain_task_cuda((const double *)STARPU_VARIABLE_GET_PTR(buffers[0]), (double *)STARPU_VARIABLE_GET_PTR(buffers[1]),
			(double *)STARPU_VARIABLE_GET_PTR(buffers[2]), a->n, a->id, a->res);
}
#endif

static struct starpu_perfmodel model = { .type = STARPU_HISTORY_BASED, .symbol = "plugin_starpu_hutchinson" };
static struct starpu_codelet cl = {
	.name = "hutchinson",
	.cpu_funcs = { task_cpu },
#ifdef STARPU_USE_CUDA
	.cuda_funcs = { task_cuda },
#endif
	.nbuffers = 3,
	.modes = { STARPU_R, STARPU_SCRATCH, STARPU_SCRATCH },
	.model = &model,
};

int main(int argc, char **argv)
{
	bench_name = "plugin_starpu";
	uint32_t n = 512;
	uint64_t ntasks = 2048;
	unsigned mk = 4, reps = 50;
	int kernels = 0;
	const char *units = "all", *sched = "dmda";
	for (int i = 1; i < argc; i++)
	{
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--kernels"))
		{
			kernels = 1;
			continue;
		}
		i++;
		if (!strcmp(o, "--n"))
			n = (uint32_t)bench_uint(o, v, 1, 1u << 16);
		else if (!strcmp(o, "--tasks"))
			ntasks = bench_uint(o, v, 1, 1ull << 32);
		else if (!strcmp(o, "--mk"))
			mk = (unsigned)bench_uint(o, v, 1, 32);
		else if (!strcmp(o, "--reps"))
			reps = (unsigned)bench_uint(o, v, 1, 100000);
		else if (!strcmp(o, "--sched") && v)
			sched = v;
		else if (!strcmp(o, "--units") && v && (!strcmp(v, "all") || !strcmp(v, "cpu") || !strcmp(v, "gpu")))
			units = v;
		else
			bench_die("bad argument '%s' (usage at the top of bench/plugin_starpu.c)", o);
	}
	if (kernels)
	{
#ifdef STARPU_USE_CUDA
		return plain_kernels(n, reps);
#else
		bench_die("--kernels: built without CUDA");
#endif
	}

	char buf[16];
	snprintf(buf, sizeof(buf), "%u", mk);
	setenv("STARPU_NWORKER_PER_CUDA", buf, 0);
	setenv("STARPU_CUDA_THREAD_PER_WORKER", "1", 0);
	struct starpu_conf conf;
	starpu_conf_init(&conf);
	conf.sched_policy_name = sched;
	if (!strcmp(units, "cpu"))
		conf.ncuda = 0;
	if (!strcmp(units, "gpu"))
		conf.ncpus = 0;
	int ret = starpu_init(&conf);
	if (ret == -ENODEV && !strcmp(units, "gpu"))
		bench_die("no GPU found (--units gpu)");
	if (ret < 0)
		bench_die("starpu_init: %s", strerror(-ret));

	size_t bytes = (size_t)n * n * sizeof(double);
	double *A = malloc(bytes), *w = malloc(n * sizeof(double)), *x = malloc(n * sizeof(double));
	struct probe_result *results = malloc(ntasks * sizeof(*results));
	struct task_arg *args = malloc(ntasks * sizeof(*args));
	if (!A || !w || !x || !results || !args)
		bench_die("out of memory");
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t c = 0; c < n; c++)
			A[(size_t)r * n + c] = matrix_entry(r, c);
	starpu_memory_pin(A, bytes);
	starpu_data_handle_t ha, hx, hs;
	starpu_variable_data_register(&ha, STARPU_MAIN_RAM, (uintptr_t)A, bytes);
	starpu_variable_data_register(&hx, -1, 0, n * sizeof(double));
	starpu_variable_data_register(&hs, -1, 0, 2 * sizeof(double));

	double t0 = bench_now();
	for (uint64_t i = 0; i < ntasks; i++)
	{
		args[i] = (struct task_arg){ .id = i, .n = n, .res = &results[i] };
		struct starpu_task *t = starpu_task_create();
		t->cl = &cl;
		t->cl_arg = &args[i];
		t->handles[0] = ha;
		t->handles[1] = hx;
		t->handles[2] = hs;
		if ((ret = starpu_task_submit(t)) < 0)
			bench_die("starpu_task_submit: %s", strerror(-ret));
	}
	starpu_task_wait_for_all();
	double secs = bench_now() - t0;

	starpu_data_unregister(ha);
	starpu_data_unregister(hx);
	starpu_data_unregister(hs);
	starpu_memory_unpin(A, bytes);
	starpu_shutdown();
	double trace;
	uint64_t wrong = probe_check(A, n, results, ntasks, 8, w, x, &trace);
	printf("hutchinson: %llu probes of a %u x %u matrix on 1 rank(s) (%s units, MK %u, plain StarPU %s): "
	       "%.1f tasks/s; trace %.4g (exact %u): %s\n",
	       (unsigned long long)ntasks, n, n, units, mk, sched, (double)ntasks / secs, trace, n,
	       wrong ? "WRONG RESULTS" : "all results correct");
	free(A);
	free(w);
	free(x);
	free(results);
	free(args);
	return wrong ? 1 : 0;
}
