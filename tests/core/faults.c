/* Failures during a task set, on however many ranks this runs (tests/core/faults_mpi.sh runs 2):
 *  1. a job failed by TUCCOMPI_FAULT_INJECT=cpu:3 (set here) is run again elsewhere: every
 *     result is right, the failed unit is taken out (one CPU unit less), the statistics
 *     count the re-run tasks, under MS and EQ1;
 *  2. ranks that describe different task sets all fail with the same message (no hang);
 *  3. with FAULTS_MS_INJECT=1 (faults_mpi.sh sets TUCCOMPI_FAULT_INJECT=ms:2 on rank 1): an
 *     error on rank 1's MS feeder thread reaches tuccompi_wait() on every rank, with its message;
 *  4. a plug-in that fails on every unit fails the set with its message once no unit is left. */
#include <stdatomic.h>
#include <tuccompi.h>
#include <unistd.h>

#include "testutil.h"

#define N 61

static void ok_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	*(uint64_t *)tuccompi_task_result(t) = tuccompi_task_id(t) * 5 + 1;
	usleep(500);
}

static void broken_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	tuccompi_task_fail(t, -EIO, "the plug-in cannot do task %llu", (unsigned long long)tuccompi_task_id(t));
}

static int run(const struct tuccompi_policy *pol, const struct tuccompi_plugin *p, uint64_t n, uint64_t *res,
	       struct tuccompi_taskset_stats *st_out, tuccompi_taskset_t *out)
{
	struct tuccompi_taskset_desc d = { .plugin = p, .ntasks = n, .results = res };
	int ret = tuccompi_parallel(pol, &d, out);
	if (ret < 0)
		return ret;
	ret = tuccompi_wait(*out);
	if (ret == 0 && st_out)
		ASSERT_OK(tuccompi_taskset_get_stats(*out, st_out));
	return ret;
}

int main(int argc, char **argv)
{
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	conf.ncpus = 3;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	int rank = tuccompi_rank(), nranks = tuccompi_nranks();
	uint64_t res[N];
	struct tuccompi_taskset_stats st;
	tuccompi_taskset_t ts;
	struct tuccompi_plugin ok = { .name = "test_ok", .cpu = ok_cpu, .result_size = sizeof(uint64_t) };

	/* 1. the 3rd CPU job of the set fails (on rank 0 only: every rank would lose a unit) */
	if (rank == 0)
		setenv("TUCCOMPI_FAULT_INJECT", "cpu:3", 1);
	int cpus_before = tuccompi_unit_count(TUCCOMPI_UNIT_CPU);
	memset(res, 0, sizeof(res));
	ASSERT_OK(run(&tuccompi_policy_ms, &ok, N, res, &st, &ts));
	if (rank == 0)
	{
		for (int i = 0; i < N; i++)
			ASSERT_EQ(res[i], (uint64_t)i * 5 + 1);
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), cpus_before - 1);
		ASSERT_EQ(st.retried, 1);
		printf("1. a failed job ran again elsewhere; %d CPU units left\n", cpus_before - 1);
	}
	tuccompi_taskset_destroy(ts);
	unsetenv("TUCCOMPI_FAULT_INJECT");
	memset(res, 0, sizeof(res));
	ASSERT_OK(run(&tuccompi_policy_eq1, &ok, N, &res[0], &st, &ts));
	if (rank == 0)
	{
		for (int i = 0; i < N; i++)
			ASSERT_EQ(res[i], (uint64_t)i * 5 + 1);
		printf("1. EQ1 after the failure: every result right\n");
	}
	tuccompi_taskset_destroy(ts);

	/* 2. */
	if (nranks > 1)
	{
		ret = run(&tuccompi_policy_eq1, &ok, N + (uint64_t)rank, res, NULL, &ts);
		ASSERT_EQ(ret, -EINVAL);
		ASSERT_STR_CONTAINS(tuccompi_last_error(), "different descriptions");
		printf("2. rank %d: mismatch refused: %s\n", rank, tuccompi_last_error());
	}

	/* 3. */
	if (getenv("FAULTS_MS_INJECT") && nranks > 1)
	{
		if (rank == 1)
			setenv("TUCCOMPI_FAULT_INJECT", "ms:2", 1);
		ret = run(&tuccompi_policy_ms, &ok, 4 * N, NULL, NULL, &ts);
		ASSERT(ret < 0);
		ASSERT_STR_CONTAINS(tuccompi_last_error(), "rank 1");
		ASSERT_STR_CONTAINS(tuccompi_last_error(), "fault injected");
		printf("3. rank %d: the feeder's error arrived: %s\n", rank, tuccompi_last_error());
		tuccompi_taskset_destroy(ts);
		unsetenv("TUCCOMPI_FAULT_INJECT");
	}

	/* 4. (last: it takes every unit of the node out) */
	struct tuccompi_plugin broken = { .name = "test_broken", .cpu = broken_cpu, .result_size = sizeof(uint64_t) };
	ret = run(&tuccompi_policy_ms, &broken, 5, NULL, NULL, &ts);
	ASSERT(ret < 0);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "the plug-in cannot do task");
	printf("4. rank %d: %s\n", rank, tuccompi_last_error());
	tuccompi_taskset_destroy(ts);

	ASSERT_OK(tuccompi_finalize());
	return 0;
}
