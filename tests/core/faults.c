/* Failures during a task set, on however many ranks this runs (tests/core/faults_mpi.sh runs 2);
 * faults are injected on rank 0 only (every rank would lose units; tests/core/codelet_cpu_cuda has
 * a GPU's):
 *  1. a transient fault (TUCCOMPI_FAULT_INJECT=cpu:3) is run again on its own unit: every result
 *     right, no unit taken out (the set at full strength), the statistics count the re-run task,
 *     under MS; under EQ1 (cpu:2) every unit still runs its equal share;
 *  2. a job that fails at every run (cpu:2:repeat) takes its unit out for the set once its retries
 *     (TUCCOMPI_RETRIES_UNIT=1) are spent, saying so; its tasks run elsewhere, every result right;
 *     the next set has the unit again;
 *  3. with the rank's retries spent (TUCCOMPI_RETRIES_SET=0), a transient fault takes the unit out
 *     for the set, saying so;
 *  4. a sticky fault (cpu:3:sticky) takes its unit out for the rest of the run, saying so: the next
 *     set has one CPU unit less;
 *  5. ranks that describe different task sets all fail with the same message (no hang);
 *  6. with FAULTS_MS_INJECT=1 (faults_mpi.sh sets TUCCOMPI_FAULT_INJECT=ms:2 on rank 1): an
 *     error on rank 1's MS feeder thread reaches tuccompi_wait() on every rank, with its message;
 *  7. a plug-in that fails on every unit fails the set with its message once no unit is left. */
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

/* One set of ok_cpu under @pol with @inject (and @env=@value) set on rank 0, its warnings in *warned
 * (rank 0; malloc'd): every result right on the root; its statistics in @st. */
static void faulty_set(const struct tuccompi_policy *pol, const char *inject, const char *env, const char *value,
		       struct tuccompi_taskset_stats *st, tuccompi_taskset_t *ts, char **warned)
{
	const struct tuccompi_plugin ok = { .name = "test_ok", .cpu = ok_cpu, .result_size = sizeof(uint64_t) };
	uint64_t res[N];
	memset(res, 0, sizeof(res));
	int rank = tuccompi_rank(), saved = -1;
	FILE *f = NULL;
	if (rank == 0)
	{
		setenv("TUCCOMPI_FAULT_INJECT", inject, 1);
		if (env)
			setenv(env, value, 1);
		f = test_stderr_begin(&saved);
	}
	ASSERT_OK(run(pol, &ok, N, res, st, ts));
	if (rank == 0)
	{
		*warned = test_stderr_end(f, saved);
		unsetenv("TUCCOMPI_FAULT_INJECT");
		if (env)
			unsetenv(env);
		for (int i = 0; i < N; i++)
			ASSERT_EQ(res[i], (uint64_t)i * 5 + 1);
	}
	else
		*warned = NULL;
}

/* Tasks the CPU units of rank 0 ran in a set. */
static void rank0_cpu_tasks(const struct tuccompi_taskset_stats *st, uint64_t *min, uint64_t *max, int *n)
{
	*min = UINT64_MAX;
	*max = 0;
	*n = 0;
	for (int u = 0; u < st->nunits; u++)
		if (st->units[u].rank == 0 && st->units[u].kind == TUCCOMPI_UNIT_CPU)
		{
			uint64_t t = st->units[u].ntasks;
			*min = t < *min ? t : *min;
			*max = t > *max ? t : *max;
			(*n)++;
		}
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
	char *warned;
	const int cpus = tuccompi_unit_count(TUCCOMPI_UNIT_CPU);
	struct tuccompi_plugin ok = { .name = "test_ok", .cpu = ok_cpu, .result_size = sizeof(uint64_t) };

	/* 1. transient: run again on the same unit */
	faulty_set(&tuccompi_policy_ms, "cpu:3", NULL, NULL, &st, &ts, &warned);
	if (rank == 0)
	{
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), cpus);
		ASSERT_EQ(st.retried, 1);
		ASSERT(!strstr(warned, "taken out"));
		printf("1. MS: a transient fault ran again on its unit; %d CPU units, every result right\n", cpus);
	}
	free(warned);
	tuccompi_taskset_destroy(ts);
	faulty_set(&tuccompi_policy_eq1, "cpu:2", NULL, NULL, &st, &ts, &warned);
	if (rank == 0)
	{
		uint64_t lo, hi;
		int n;
		rank0_cpu_tasks(&st, &lo, &hi, &n);
		ASSERT_EQ(n, cpus);
		ASSERT(hi - lo <= 1); /* every unit its equal share: none lost */
		ASSERT_EQ(st.retried, 1);
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), cpus);
		printf("1. EQ1: a transient fault ran again; every unit ran its share (%llu-%llu tasks)\n",
		       (unsigned long long)lo, (unsigned long long)hi);
	}
	free(warned);
	tuccompi_taskset_destroy(ts);

	/* 2. repeated failures: out for the set, back at the next */
	faulty_set(&tuccompi_policy_ms, "cpu:2:repeat", "TUCCOMPI_RETRIES_UNIT", "1", &st, &ts, &warned);
	if (rank == 0)
	{
		ASSERT_STR_CONTAINS(warned, "repeated failures: more than TUCCOMPI_RETRIES_UNIT=1 in this set");
		ASSERT_STR_CONTAINS(warned, "tried again at the next");
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), cpus - 1);
		ASSERT_EQ(st.retried, 2); /* once on its unit, once elsewhere */
		printf("2. repeated failures took the unit out for the set; every result right\n");
	}
	free(warned);
	tuccompi_taskset_destroy(ts);
	memset(res, 0, sizeof(res));
	ASSERT_OK(run(&tuccompi_policy_eq1, &ok, N, res, &st, &ts));
	if (rank == 0)
	{
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), cpus);
		uint64_t lo, hi;
		int n;
		rank0_cpu_tasks(&st, &lo, &hi, &n);
		ASSERT(lo > 0);
		for (int i = 0; i < N; i++)
			ASSERT_EQ(res[i], (uint64_t)i * 5 + 1);
		printf("2. the next set has every unit again (%d), each ran tasks\n", cpus);
	}
	tuccompi_taskset_destroy(ts);

	/* 3. the rank's retries spent */
	faulty_set(&tuccompi_policy_ms, "cpu:3", "TUCCOMPI_RETRIES_SET", "0", &st, &ts, &warned);
	if (rank == 0)
	{
		ASSERT_STR_CONTAINS(warned, "the rank's retries for this set are spent (TUCCOMPI_RETRIES_SET=0)");
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), cpus - 1);
		printf("3. retries spent: the unit is out for the set\n");
	}
	free(warned);
	tuccompi_taskset_destroy(ts);

	/* 4. sticky: out for the run */
	faulty_set(&tuccompi_policy_ms, "cpu:3:sticky", NULL, NULL, &st, &ts, &warned);
	if (rank == 0)
	{
		ASSERT_STR_CONTAINS(warned, "a sticky failure: its fault was injected as sticky");
		ASSERT_STR_CONTAINS(warned, "taken out for the rest of the run");
		ASSERT_EQ(st.retried, 1);
	}
	free(warned);
	tuccompi_taskset_destroy(ts);
	memset(res, 0, sizeof(res));
	ASSERT_OK(run(&tuccompi_policy_eq1, &ok, N, res, &st, &ts));
	if (rank == 0)
	{
		ASSERT_EQ(tuccompi_unit_count(TUCCOMPI_UNIT_CPU), cpus - 1);
		for (int i = 0; i < N; i++)
			ASSERT_EQ(res[i], (uint64_t)i * 5 + 1);
		printf("4. a sticky fault took the unit out for the run: %d CPU units left\n", cpus - 1);
	}
	tuccompi_taskset_destroy(ts);

	/* 5. */
	if (nranks > 1)
	{
		ret = run(&tuccompi_policy_eq1, &ok, N + (uint64_t)rank, res, NULL, &ts);
		ASSERT_EQ(ret, -EINVAL);
		ASSERT_STR_CONTAINS(tuccompi_last_error(), "different descriptions");
		printf("5. rank %d: mismatch refused: %s\n", rank, tuccompi_last_error());
	}

	/* 6. */
	if (getenv("FAULTS_MS_INJECT") && nranks > 1)
	{
		if (rank == 1)
			setenv("TUCCOMPI_FAULT_INJECT", "ms:2", 1);
		ret = run(&tuccompi_policy_ms, &ok, 4 * N, NULL, NULL, &ts);
		ASSERT(ret < 0);
		ASSERT_STR_CONTAINS(tuccompi_last_error(), "rank 1");
		ASSERT_STR_CONTAINS(tuccompi_last_error(), "fault injected");
		printf("6. rank %d: the feeder's error arrived: %s\n", rank, tuccompi_last_error());
		tuccompi_taskset_destroy(ts);
		unsetenv("TUCCOMPI_FAULT_INJECT");
	}

	/* 7. (last: it takes every unit of the node out) */
	struct tuccompi_plugin broken = { .name = "test_broken", .cpu = broken_cpu, .result_size = sizeof(uint64_t) };
	ret = run(&tuccompi_policy_ms, &broken, 5, NULL, NULL, &ts);
	ASSERT(ret < 0);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "the plug-in cannot do task");
	printf("7. rank %d: %s\n", rank, tuccompi_last_error());
	tuccompi_taskset_destroy(ts);

	ASSERT_OK(tuccompi_finalize());
	return 0;
}
