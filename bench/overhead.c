/* bench/overhead: what the runtime itself costs.
 *
 *  1. Per-task cost (us) of EQ1, EQ2 and MS against StarPU's own eager, lws and dmda,
 *     on empty tasks and on short tasks (a fixed spin of --short-us), same run, same
 *     workers: wall time / tasks, and the ratio to eager measured in the same run.
 *  2. With several ranks (mpirun), the share of the run spent in cross-rank messages
 *     (MS requests, result gathering) as the library counts it.
 *
 * Usage: overhead [--tasks N] [--short-us U] [--reps R] [--policies a,b,c] [--csv FILE] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tuccompi.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned spin_us;

static void task_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	if (spin_us)
	{
		double end = now() + spin_us * 1e-6;
		while (now() < end)
			;
	}
	*(uint64_t *)tuccompi_task_result(t) = tuccompi_task_id(t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	uint64_t ntasks = 20000;
	unsigned short_us = 100, reps = 5;
	const char *policies = "eager,lws,dmda,eq1,eq2,ms", *csv = NULL;
	for (int i = 1; i < argc; i++)
	{
		if (!strcmp(argv[i], "--tasks") && i + 1 < argc)
			ntasks = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--short-us") && i + 1 < argc)
			short_us = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--policies") && i + 1 < argc)
			policies = argv[++i];
		else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
			csv = argv[++i];
		else
		{
			fprintf(stderr, "usage: overhead [--tasks N] [--short-us U] [--reps R] [--policies a,b] [--csv F]\n");
			return 2;
		}
	}
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	if (tuccompi_init(&argc, &argv, &conf) < 0)
	{
		fprintf(stderr, "overhead: %s\n", tuccompi_last_error());
		return 1;
	}
	int root = tuccompi_rank() == 0;
	uint64_t *res = calloc(ntasks, sizeof(uint64_t));
	struct tuccompi_plugin p = { .name = "overhead_task", .cpu = task_cpu, .result_size = sizeof(uint64_t) };
	struct tuccompi_taskset_desc d = { .plugin = &p, .ntasks = ntasks, .results = res };
	FILE *out = csv && root ? fopen(csv, "w") : NULL;
	if (out)
		fprintf(out, "policy,task_us,ranks,cpu_units,tasks,median_s,us_per_task,ratio_to_eager,comm_share\n");
	if (root)
		printf("%llu tasks, %d rank(s), %d CPU unit(s) on rank 0, median of %u runs\n", (unsigned long long)ntasks,
		       tuccompi_nranks(), tuccompi_unit_count(TUCCOMPI_UNIT_CPU), reps);
	for (int pass = 0; pass < 2; pass++)
	{
		spin_us = pass ? short_us : 0;
		double eager_us = 0;
		if (root)
			printf("\n%s tasks:\n  %-8s %12s %14s %10s %12s\n", pass ? "short" : "empty", "policy", "median s",
			       "us per task", "vs eager", "comm share");
		char *list = strdup(policies), *save = NULL;
		for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
		{
			const struct tuccompi_policy *pol = tuccompi_policy_by_name(name);
			if (!pol)
			{
				fprintf(stderr, "overhead: %s\n", tuccompi_last_error());
				return 2;
			}
			double *t = calloc(reps + 1, sizeof(double)), comm = 0;
			for (unsigned r = 0; r <= reps; r++) /* run 0 warms up (and calibrates dmda) */
			{
				tuccompi_taskset_t ts;
				double t0 = now();
				if (tuccompi_parallel(pol, &d, &ts) < 0 || tuccompi_wait(ts) < 0)
				{
					fprintf(stderr, "overhead: %s\n", tuccompi_last_error());
					return 1;
				}
				double el = now() - t0;
				struct tuccompi_taskset_stats st;
				tuccompi_taskset_get_stats(ts, &st);
				if (r)
				{
					t[r - 1] = el;
					comm += st.comm_s / el;
				}
				tuccompi_taskset_destroy(ts);
			}
			qsort(t, reps, sizeof(double), cmp_double);
			double med = t[reps / 2], us = 1e6 * med / (double)ntasks;
			if (!strcmp(name, "eager"))
				eager_us = us;
			double ratio = eager_us > 0 ? us / eager_us : 0;
			if (root)
			{
				printf("  %-8s %12.4f %14.3f %10.2f %11.3f%%\n", name, med, us, ratio, 100 * comm / reps);
				if (out)
					fprintf(out, "%s,%u,%d,%d,%llu,%.6f,%.4f,%.4f,%.6f\n", name, spin_us, tuccompi_nranks(),
						tuccompi_unit_count(TUCCOMPI_UNIT_CPU), (unsigned long long)ntasks, med, us, ratio,
						comm / reps);
			}
			free(t);
		}
		free(list);
	}
	if (out)
		fclose(out);
	free(res);
	return tuccompi_finalize() < 0;
}
