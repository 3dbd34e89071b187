/* bench/latency: what the 1st layer's messages cost, against Open MPI's own on the same ranks, in
 * one run.
 *
 *  1. Open MPI's MPI_Barrier, timed before tuccompi_init (the baseline: the transport's floor).
 *  2. tuccompi_barrier(): a round trip through StarPU-MPI (every rank to rank 0 and back).
 *  3. A task set's fixed cost: PARALLEL and SYN of a set of one empty task per rank, under EQ1
 *     (no requests) and MS-TAIL (each rank asks the master for its task).
 * Each is the median of --reps runs after a warm-up, in microseconds, with its ratio to MPI_Barrier.
 * For the sets, every rank's own medians follow, of tuccompi_parallel() and of tuccompi_wait() (SYN)
 * apart, and its 90th percentile of the whole: where a set's time goes on each rank, without the
 * stderr lines of TUCCOMPI_END_LOG (which change the timing they measure).
 * A rank's CPU workers are what tuccompi_init gives it (STARPU_NCPU, the node split): the
 * progression thread's core is part of what is measured.
 *
 * Usage: mpirun -np N latency [--reps R] */
#include <mpi.h>
#include <tuccompi.h>

#include "bench.h"

static void task_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	*(uint64_t *)tuccompi_task_result(t) = tuccompi_task_id(t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *t, unsigned n)
{
	qsort(t, n, sizeof(double), cmp_double);
	return t[n / 2];
}

/* The @q-quantile of t[0..n), sorted by median() already. */
static double quantile(const double *t, unsigned n, double q)
{
	unsigned i = (unsigned)(q * n);
	return t[i < n ? i : n - 1];
}

int main(int argc, char **argv)
{
	bench_name = "latency";
	unsigned reps = 200;
	for (int i = 1; i < argc; i++)
	{
		if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = (unsigned)bench_uint("--reps", argv[++i], 1, 1000000);
		else
		{
			fprintf(stderr, "usage: latency [--reps R]   (under mpirun, 2 or more ranks)\n");
			return 2;
		}
	}
	int provided;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS ||
	    provided < MPI_THREAD_SERIALIZED)
		bench_die("MPI_Init_thread: MPI_THREAD_SERIALIZED not provided");
	double *t = calloc(reps + 1, sizeof(double));
	if (!t)
		bench_die("out of memory");
	for (unsigned r = 0; r <= reps; r++)
	{
		double t0 = MPI_Wtime();
		MPI_Barrier(MPI_COMM_WORLD);
		t[r] = MPI_Wtime() - t0;
	}
	double mpi_us = 1e6 * median(t + 1, reps);

	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	if (tuccompi_init(&argc, &argv, &conf) < 0)
		bench_die("%s", tuccompi_last_error());
	int root = tuccompi_rank() == 0, n = tuccompi_nranks();
	if (root)
		printf("%d rank(s), %d CPU unit(s) on rank 0; median of %u, microseconds\n  %-34s %10s %10s\n", n,
		       tuccompi_unit_count(TUCCOMPI_UNIT_CPU), reps, "what", "us", "vs MPI");
	if (root)
		printf("  %-34s %10.1f %10.2f\n", "MPI_Barrier (before init)", mpi_us, 1.0);
	for (unsigned r = 0; r <= reps; r++)
	{
		double t0 = bench_now();
		if (tuccompi_barrier() < 0)
			bench_die("%s", tuccompi_last_error());
		t[r] = bench_now() - t0;
	}
	double bar_us = 1e6 * median(t + 1, reps);
	if (root)
		printf("  %-34s %10.1f %10.2f\n", "tuccompi_barrier", bar_us, mpi_us > 0 ? bar_us / mpi_us : 0);

	uint64_t *res = calloc((size_t)n, sizeof(uint64_t));
	double *tpar = calloc(reps + 1, sizeof(double)), *tsyn = calloc(reps + 1, sizeof(double));
	int64_t *parts = calloc(3 * (size_t)n, sizeof(int64_t));
	if (!res || !tpar || !tsyn || !parts)
		bench_die("out of memory");
	struct tuccompi_plugin p = { .name = "latency_task", .cpu = task_cpu, .result_size = sizeof(uint64_t) };
	struct tuccompi_taskset_desc d = { .plugin = &p, .ntasks = (uint64_t)n, .results = res };
	static const char *policies[] = { "eq1", "ms-tail" };
	for (unsigned k = 0; k < sizeof(policies) / sizeof(policies[0]); k++)
	{
		const struct tuccompi_policy *pol = tuccompi_policy_by_name(policies[k]);
		if (!pol)
			bench_die("%s", tuccompi_last_error());
		for (unsigned r = 0; r <= reps; r++)
		{
			tuccompi_taskset_t ts;
			double t0 = bench_now();
			if (tuccompi_parallel(pol, &d, &ts) < 0)
				bench_die("%s", tuccompi_last_error());
			double t1 = bench_now();
			if (tuccompi_wait(ts) < 0)
				bench_die("%s", tuccompi_last_error());
			t[r] = bench_now() - t0;
			tpar[r] = t1 - t0;
			tsyn[r] = t[r] - tpar[r];
			tuccompi_taskset_destroy(ts);
			for (int i = 0; root && i < n; i++)
				if (res[i] != (uint64_t)i)
					bench_die("task %d's result is %llu", i, (unsigned long long)res[i]);
		}
		double us = 1e6 * median(t + 1, reps);
		char what[64];
		snprintf(what, sizeof(what), "a set of %d empty tasks, %s", n, policies[k]);
		if (root)
			printf("  %-34s %10.1f %10.2f\n", what, us, mpi_us > 0 ? us / mpi_us : 0);
		/* every rank's parts, through the library's own allreduce (MPI may not be called beside
		 * StarPU-MPI's thread) */
		int me = tuccompi_rank();
		for (int i = 0; i < 3 * n; i++)
			parts[i] = 0;
		parts[3 * me] = (int64_t)(1e6 * median(tpar + 1, reps));
		parts[3 * me + 1] = (int64_t)(1e6 * median(tsyn + 1, reps));
		parts[3 * me + 2] = (int64_t)(1e6 * quantile(t + 1, reps, 0.9));
		if (tuccompi_allreduce_i64(parts, (unsigned)(3 * n), TUCCOMPI_OP_SUM) < 0)
			bench_die("%s", tuccompi_last_error());
		for (int i = 0; root && i < n; i++)
			printf("    rank %-3d parallel %8lld  wait %8lld  whole set's 90th percentile %8lld\n", i,
			       (long long)parts[3 * i], (long long)parts[3 * i + 1], (long long)parts[3 * i + 2]);
	}
	free(parts);
	free(tpar);
	free(tsyn);
	free(res);
	free(t);
	int ret = tuccompi_finalize();
	MPI_Finalize();
	return ret < 0;
}
