/* hello.c: a complete libtuccompi-starpu program, the README's sample.
 * Task i adds up the integers 1 .. 1000+i on whichever CPU core runs it; rank 0 gets every
 * result back and checks it against n(n+1)/2.
 *   cc hello.c $(pkg-config --cflags --libs tuccompi-starpu) -o hello
 *   ./hello [POLICY]             mpirun -n 2 ./hello [POLICY]      (POLICY: eq1, eq2, ms, ms-tail) */
#include <tuccompi.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NTASKS 1000

/* The plug-in: one task, on a CPU core. */
static void sum_cpu(struct tuccompi_task *task, void *arg)
{
	(void)arg;
	uint64_t n = 1000 + tuccompi_task_id(task), sum = 0;
	for (uint64_t k = 1; k <= n; k++)
		sum += k;
	*(uint64_t *)tuccompi_task_result(task) = sum;
}

/* A failed call: say why, and end every rank. */
static void fail(const char *what, int err)
{
	const char *why = tuccompi_last_error();
	fprintf(stderr, "hello: %s: %s\n", what, why[0] ? why : tuccompi_strerror(err));
	tuccompi_abort(1);
}

int main(int argc, char **argv)
{
	int ret = tuccompi_init(&argc, &argv, NULL); /* COMM */
	if (ret < 0)
	{
		fprintf(stderr, "hello: %s\n", tuccompi_last_error());
		return 1;
	}
	const struct tuccompi_policy *policy = tuccompi_policy_by_name(argc > 1 ? argv[1] : "ms");
	if (!policy)
		fail("policy", -EINVAL);

	struct tuccompi_plugin plugin = { .name = "hello_sum", .cpu = sum_cpu, .result_size = sizeof(uint64_t) };
	uint64_t *results = calloc(NTASKS, sizeof(uint64_t));
	if (!results)
		fail("results", -ENOMEM);
	struct tuccompi_taskset_desc desc = { .plugin = &plugin, .ntasks = NTASKS, .results = results, .root = 0 };
	tuccompi_taskset_t ts;
	if ((ret = tuccompi_parallel(policy, &desc, &ts)) < 0) /* PARALLEL */
		fail("tuccompi_parallel", ret);
	if ((ret = tuccompi_wait(ts)) < 0) /* SYN */
		fail("tuccompi_wait", ret);
	tuccompi_taskset_destroy(ts);

	int wrong = 0;
	if (tuccompi_rank() == 0)
	{
		for (uint64_t i = 0; i < NTASKS; i++)
		{
			uint64_t n = 1000 + i;
			if (results[i] != n * (n + 1) / 2)
				wrong++;
		}
		printf("hello: %d tasks on %d rank(s) under %s: %s\n", NTASKS, tuccompi_nranks(), policy->name,
		       wrong ? "WRONG RESULTS" : "all results correct");
	}
	free(results);
	if ((ret = tuccompi_finalize()) < 0) /* ENDCOMM */
	{
		fprintf(stderr, "hello: %s\n", tuccompi_last_error());
		return 1;
	}
	return wrong ? 1 : 0;
}
