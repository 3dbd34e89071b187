/* The TuCCompi paper's Fig. 4 main program and Fig. 5 plug-ins, on this library: a task
 * integrates 4/(1+x^2) over its own slice of [0, 1]; the slices add up to pi. Runs on
 * every CPU core and GPU; under mpirun, on every node.   Usage: tuccompi-example [POLICY] */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tuccompi.h>

#include "tool_version.h"

#define NTASKS 4096
#define STEPS (1 << 20) /* points per task */

void slice_gpu(struct tuccompi_task *t, void *arg); /* example-fig4-gpu.cu */

static void slice_cpu(struct tuccompi_task *t, void *arg) /* Fig. 5, plug-in CPU */
{
	double h = 1.0 / ((double)NTASKS * STEPS), x0 = (double)tuccompi_task_id(t) / NTASKS, s = 0;
	for (int i = 0; i < STEPS; i++)
	{
		double x = x0 + (i + 0.5) * h;
		s += 4.0 / (1.0 + x * x);
	}
	*(double *)tuccompi_task_result(t) = s * h;
}

int main(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) /* before COMM: starts nothing */
	{
		printf("Usage: tuccompi-example [POLICY]\n"
		       "The TuCCompi paper's Fig. 4/5 program: computes pi with %d tasks on every CPU core and GPU\n"
		       "(under mpirun, of every node). POLICY: eq1, eq2, ms (default), ms-tail, or a StarPU policy.\n",
		       NTASKS);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--version"))
	{
		tool_print_version("tuccompi-example");
		return 0;
	}
	static double part[NTASKS];
	struct tuccompi_plugin plugin = { .name = "pi_slice", .cpu = slice_cpu, .result_size = sizeof(double),
					  .workspace_size = { STEPS * sizeof(double) }, .nworkspaces = 1 }; /* PARLLMK */
#ifdef TUCCOMPI_EXAMPLE_CUDA
	plugin.cuda = slice_gpu;
#endif
	struct tuccompi_taskset_desc desc = { .plugin = &plugin, .ntasks = NTASKS, .results = part };
	const struct tuccompi_policy *policy;
	tuccompi_taskset_t ts;

	if (tuccompi_init(&argc, &argv, NULL) < 0 ||                              /* M01 COMM */
	    !(policy = tuccompi_policy_by_name(argc > 1 ? argv[1] : "ms")) ||
	    tuccompi_set_mk(tuccompi_get_mk() > 2 ? tuccompi_get_mk() : 2) < 0 ||  /* M03 SETMK */
	    tuccompi_parallel(policy, &desc, &ts) < 0 ||                             /* M04 PARALLEL */
	    tuccompi_wait(ts) < 0)                                                   /* M05 SYN */
	{
		fprintf(stderr, "tuccompi-example: %s\n", tuccompi_last_error());
		return 1;
	}
	if (tuccompi_rank() == 0)
	{
		double pi = 0;
		for (int i = 0; i < NTASKS; i++)
			pi += part[i];
		printf("pi = %.12f (error %.1e), %d tasks under %s on %d rank(s)\n", pi, fabs(pi - M_PI), NTASKS,
		       policy->name, tuccompi_nranks());
	}
	tuccompi_taskset_destroy(ts);
	return tuccompi_finalize() < 0;                                              /* M07 ENDCOMM */
}
