/* The three policies and a user policy, on however many ranks this runs (1 alone,
 * 2 or 4 under mpirun, ranks of different worker counts):
 *  - every task id runs exactly once and its result reaches the root;
 *  - EQ1: equal tasks per node (+-1), then equal per unit within the node (+-1), also in
 *    batches on a set smaller than the units' batches;
 *  - EQ2: equal tasks per unit over the whole cluster (+-1);
 *  - MS: units made 4x slower on purpose get fewer tasks than the others, every unit
 *    works, and no unit goes idle while tasks remain;
 *  - MS-TAIL with batches: a slow unit does not take a batch at the end that the fast units
 *    would outrun (it judges the batch, with this set's timings, not another's);
 *  - two sets in flight at once (MS, EQ1), waited for one after the other, both complete;
 *  - a user policy (own partition rule + StarPU's eager) sends its tasks where it says.
 * Tasks sleep instead of computing (a fake cost), so the test also holds on an
 * oversubscribed 2-core machine. */
#include <starpu.h>
#include <time.h>
#include <tuccompi.h>
#include <unistd.h>

#include "testutil.h"

#define TASK_US 3000 /* a fast unit's task */
#define SLOW 4       /* slow units take SLOW times longer */

struct result
{
	uint64_t id;
	uint64_t check;
	int32_t rank;
	int32_t worker;
	double t0, t1;
};

/* Slow units: CPU workers with an odd bind id, on every rank (a unit's index in the
 * statistics is that bind id). */
static int is_slow(int bindid)
{
	return bindid % 2 == 1;
}

/* One task: @us microseconds on a fast unit, SLOW times that on a slow one. */
static void probe_task(struct tuccompi_task *t, unsigned us)
{
	struct result *r = tuccompi_task_result(t);
	r->t0 = test_now();
	int w = tuccompi_task_worker(t);
	usleep(is_slow(starpu_worker_get_bindid(w)) ? SLOW * us : us);
	r->id = tuccompi_task_id(t);
	r->check = r->id * r->id + 7;
	r->rank = tuccompi_rank();
	r->worker = w;
	r->t1 = test_now();
}

static void probe_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	probe_task(t, TASK_US);
}

static const struct tuccompi_plugin probe = {
	.name = "test_probe",
	.cpu = probe_cpu,
	.result_size = sizeof(struct result),
};

/* Batches of TAIL_BATCH tasks of TAIL_US (slow units: SLOW times longer), for MS-TAIL's end. */
#define TAIL_BATCH 8
#define TAIL_US 20000

static void probe_batch(struct tuccompi_batch *b, void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < tuccompi_batch_size(b); i++)
		probe_task(tuccompi_batch_task(b, i), TAIL_US);
}

static const struct tuccompi_plugin probe_batches = {
	.name = "test_probe_batches",
	.cpu_batch = probe_batch,
	.batch_max = { TAIL_BATCH, 0 },
	.result_size = sizeof(struct result),
};

/* All tasks to the last rank (a distribution rule of the user's). */
static int all_to_last(const struct tuccompi_cluster *c, uint64_t ntasks, uint64_t *count, void *arg)
{
	(void)arg;
	for (int r = 0; r < c->nranks; r++)
		count[r] = r == c->nranks - 1 ? ntasks : 0;
	return 0;
}

static void check_results(tuccompi_taskset_t ts, const struct result *res, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
	{
		if (res[i].id != i || res[i].check != i * i + 7)
			FAIL("result %llu: id %llu check %llu (lost or wrong result)", (unsigned long long)i,
			     (unsigned long long)res[i].id, (unsigned long long)res[i].check);
		ASSERT_EQ(tuccompi_taskset_task_rank(ts, i), res[i].rank);
	}
}

static void expect_share(uint64_t got, uint64_t total, uint64_t parts, const char *what, int idx)
{
	uint64_t lo = total / parts, hi = lo + (total % parts != 0);
	if (got < lo || got > hi)
		FAIL("%s %d got %llu tasks, equal share is %llu..%llu", what, idx, (unsigned long long)got,
		     (unsigned long long)lo, (unsigned long long)hi);
}

/* A set of n tasks of @plugin (batches of @batch on CPU cores; 0: the plug-in's) under @pol, waited for. */
static tuccompi_taskset_t run_plugin(const struct tuccompi_policy *pol, const struct tuccompi_plugin *plugin,
				     unsigned batch, uint64_t n, struct result *res)
{
	struct tuccompi_taskset_desc desc = { .plugin = plugin, .ntasks = n, .results = res, .root = 0, .batch = { batch, 0 } };
	tuccompi_taskset_t ts;
	memset(res, 0xff, n * sizeof(*res));
	ASSERT_OK(tuccompi_parallel(pol, &desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	return ts;
}

static tuccompi_taskset_t run(const struct tuccompi_policy *pol, uint64_t n, struct result *res)
{
	return run_plugin(pol, &probe, 0, n, res);
}

int main(int argc, char **argv)
{
	TEST_INIT(&argc, &argv, 3);
	int rank = tuccompi_rank(), nranks = tuccompi_nranks();
	int root = rank == 0;
	uint64_t n = 24 * (uint64_t)nranks * 3 + 5; /* not a multiple of anything */
	struct result *res = calloc(n, sizeof(*res));
	struct tuccompi_taskset_stats st;

	/* ---------------- EQ1 */
	tuccompi_taskset_t ts = run(&tuccompi_policy_eq1, n, res);
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	if (root)
	{
		check_results(ts, res, n);
		for (int r = 0; r < nranks; r++)
		{
			expect_share(st.tasks_per_rank[r], n, (uint64_t)nranks, "EQ1 rank", r);
			int nu = 0;
			for (int u = 0; u < st.nunits; u++)
				nu += st.units[u].rank == r && st.units[u].kind == TUCCOMPI_UNIT_CPU;
			for (int u = 0; u < st.nunits; u++)
				if (st.units[u].rank == r && st.units[u].kind == TUCCOMPI_UNIT_CPU)
					expect_share(st.units[u].ntasks, st.tasks_per_rank[r], (uint64_t)nu, "EQ1 unit", u);
				else if (st.units[u].kind != TUCCOMPI_UNIT_CPU)
					ASSERT_EQ(st.units[u].ntasks, 0); /* the probe has no CUDA code */
		}
		printf("EQ1 ok: %llu tasks over %d ranks, %d units\n", (unsigned long long)n, nranks, st.nunits);
	}
	tuccompi_taskset_destroy(ts);

	/* ---------------- EQ2 */
	ts = run(&tuccompi_policy_eq2, n, res);
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	if (root)
	{
		check_results(ts, res, n);
		int ncpu_units = 0;
		for (int u = 0; u < st.nunits; u++)
			ncpu_units += st.units[u].kind == TUCCOMPI_UNIT_CPU;
		for (int u = 0; u < st.nunits; u++)
			if (st.units[u].kind == TUCCOMPI_UNIT_CPU)
				expect_share(st.units[u].ntasks, n, (uint64_t)ncpu_units, "EQ2 unit", u);
			else
				ASSERT_EQ(st.units[u].ntasks, 0);
		printf("EQ2 ok\n");
	}
	tuccompi_taskset_destroy(ts);

	/* ---------------- MS */
	ts = run(&tuccompi_policy_ms, n, res);
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	if (root)
	{
		check_results(ts, res, n);
		double fast_sum = 0, slow_sum = 0;
		int nfast = 0, nslow = 0;
		double last_start = 0;
		for (uint64_t i = 0; i < n; i++)
			if (res[i].t0 > last_start)
				last_start = res[i].t0;
		for (int u = 0; u < st.nunits; u++)
		{
			const struct tuccompi_unit_stats *us = &st.units[u];
			if (us->kind != TUCCOMPI_UNIT_CPU)
			{
				ASSERT_EQ(us->ntasks, 0);
				continue;
			}
			if (us->ntasks == 0)
			{
				tuccompi_taskset_print_summary(ts, stderr); /* every rank and unit, before failing */
				FAIL("MS: unit %d (rank %d CPU %d) ran no task", u, us->rank, us->index);
			}
			if (is_slow(us->index))
			{
				slow_sum += (double)us->ntasks;
				nslow++;
			}
			else
			{
				fast_sum += (double)us->ntasks;
				nfast++;
			}
		}
		/* No unit idle while tasks remain: every worker's last task ends after the
		 * last task of the set started, minus one slow task and scheduling slack. The
		 * slack grows with the threads per core of the node (the ranks' workers, and each
		 * rank's main and MPI threads): 4 ranks of 8 workers on CI's 2 cores under the
		 * sanitizers once left a worker 0.41 s without the CPU, and its next ask late. */
		long ncores = sysconf(_SC_NPROCESSORS_ONLN);
		double threads = (double)st.nunits + 2.0 * nranks;
		double per_core = ncores > 0 && threads > 2.0 * (double)ncores ? threads / (2.0 * (double)ncores) : 1.0;
		for (int r = 0; r < nranks; r++)
			for (int w = 0; w < STARPU_NMAXWORKERS; w++)
			{
				double last_end = -1;
				for (uint64_t i = 0; i < n; i++)
					if (res[i].rank == r && res[i].worker == w && res[i].t1 > last_end)
						last_end = res[i].t1;
				if (last_end < 0)
					continue;
				double slack = SLOW * TASK_US * 1e-6 + 0.25 * per_core;
				if (last_end < last_start - slack)
				{
					tuccompi_taskset_print_summary(ts, stderr); /* every rank and unit, before failing */
					FAIL("MS: rank %d worker %d went idle %.3f s before the last task started", r, w,
					     last_start - last_end);
				}
			}
		printf("MS: fast units %.1f tasks on average, slow units %.1f\n", nfast ? fast_sum / nfast : 0,
		       nslow ? slow_sum / nslow : 0);
		if (nfast && nslow && !(fast_sum / nfast > 1.5 * (slow_sum / nslow)))
			FAIL("MS: fast units (%.1f tasks) should do clearly more than %dx slower ones (%.1f)",
			     fast_sum / nfast, SLOW, slow_sum / nslow);
		printf("MS ok\n");
	}
	tuccompi_taskset_destroy(ts);

	/* ---------------- MS-TAIL: every task once, results back (it may leave slow units idle) */
	ts = run(&tuccompi_policy_ms_tail, n, res);
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	if (root)
	{
		check_results(ts, res, n);
		uint64_t sum = 0;
		for (int r = 0; r < nranks; r++)
			sum += st.tasks_per_rank[r];
		ASSERT_EQ(sum, n);
		printf("MS-TAIL ok\n");
	}
	tuccompi_taskset_destroy(ts);

	/* ---------------- MS-TAIL with batches, one rank: a slow unit declines a batch the fast ones
	 * would outrun (judging one task let it take a batch of TAIL_BATCH slow tasks at the end,
	 * and the set waited up to TAIL_BATCH - 1 slow tasks for it) */
	if (nranks == 1)
	{
		/* 110 tasks: two fast units (20 ms a task) and a slow one (80 ms), batches of 8: when the
		 * slow unit's first batch ends (0.64 s), 20-40 tasks are left, which the fast units run in
		 * 0.1-0.2 s; a second slow batch would end 0.64 s later */
		uint64_t nb = 110;
		struct result *rb = calloc(nb, sizeof(*rb));
		ASSERT(rb != NULL);
		ts = run_plugin(&tuccompi_policy_ms_tail, &probe_batches, TAIL_BATCH, nb, rb);
		check_results(ts, rb, nb);
		double end_fast = 0, end_slow = 0;
		for (uint64_t i = 0; i < nb; i++)
		{
			double *e = is_slow(starpu_worker_get_bindid(rb[i].worker)) ? &end_slow : &end_fast;
			if (rb[i].t1 > *e)
				*e = rb[i].t1;
		}
		/* a slow unit may end after the fast ones by less than two of its tasks */
		double over = end_slow - end_fast, limit = 2 * SLOW * TAIL_US * 1e-6;
		printf("MS-TAIL with batches: the slow units ended %.3f s after the fast ones (limit %.3f)\n", over, limit);
		if (end_fast > 0 && end_slow > 0 && over > limit)
			FAIL("MS-TAIL: a slow unit ended %.3f s after the fast ones (a batch of slow tasks taken at the end)", over);
		tuccompi_taskset_destroy(ts);
		free(rb);
	}

	/* ---------------- EQ1 with batches on a small set: fewer tasks than units x batch still go to
	 * every unit in equal shares (jobs of the batch's size left units without any) */
	{
		uint64_t nb = (uint64_t)nranks * (2 * 3 + 1); /* about 2 per unit of 3 */
		struct result *rb = calloc(nb, sizeof(*rb));
		ASSERT(rb != NULL);
		ts = run_plugin(&tuccompi_policy_eq1, &probe_batches, TAIL_BATCH, nb, rb);
		ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
		if (root)
		{
			check_results(ts, rb, nb);
			for (int r = 0; r < nranks; r++)
			{
				int nu = 0;
				for (int u = 0; u < st.nunits; u++)
					nu += st.units[u].rank == r && st.units[u].kind == TUCCOMPI_UNIT_CPU;
				for (int u = 0; u < st.nunits; u++)
					if (st.units[u].rank == r && st.units[u].kind == TUCCOMPI_UNIT_CPU)
						expect_share(st.units[u].ntasks, st.tasks_per_rank[r], (uint64_t)nu, "EQ1 batched unit", u);
			}
			printf("EQ1 with batches of %u ok: %llu tasks, every unit an equal share\n", TAIL_BATCH,
			       (unsigned long long)nb);
		}
		tuccompi_taskset_destroy(ts);
		free(rb);
	}

	/* ---------------- two sets in flight at once (MS and EQ1), waited for in order: the
	 * first set's SYN must not pause StarPU's workers (lib/syn.c), and the other set, still
	 * running, must go on afterwards */
	{
		struct result *res2 = malloc(n * sizeof(*res2));
		ASSERT(res2 != NULL);
		memset(res, 0xff, n * sizeof(*res));
		memset(res2, 0xff, n * sizeof(*res2));
		struct tuccompi_taskset_desc d1 = { .plugin = &probe, .ntasks = n, .results = res, .root = 0 };
		struct tuccompi_taskset_desc d2 = { .plugin = &probe, .ntasks = n, .results = res2, .root = 0 };
		tuccompi_taskset_t a, b;
		ASSERT_OK(tuccompi_parallel(&tuccompi_policy_ms, &d1, &a));
		ASSERT_OK(tuccompi_parallel(&tuccompi_policy_eq1, &d2, &b));
		ASSERT_OK(tuccompi_wait(a));
		ASSERT_OK(tuccompi_wait(b));
		if (root)
		{
			check_results(a, res, n);
			check_results(b, res2, n);
			printf("two sets in flight ok\n");
		}
		tuccompi_taskset_destroy(a);
		tuccompi_taskset_destroy(b);
		free(res2);
	}

	/* ---------------- a user policy */
	struct tuccompi_policy mine = {
		.name = "all-to-last",
		.description = "every task on the last rank, StarPU's eager inside",
		.partition = all_to_last,
		.sched_name = "eager",
	};
	ts = run(&mine, n, res);
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	if (root)
	{
		check_results(ts, res, n);
		for (int r = 0; r < nranks; r++)
			ASSERT_EQ(st.tasks_per_rank[r], r == nranks - 1 ? n : 0);
		/* SYN tells waiting from communication: the ranks without a task waited for the last
		 * one nearly the whole set (0.45 s of tasks at least), the last one hardly at all */
		for (int r = 0; r < nranks - 1; r++)
			if (!(st.wait_s_per_rank[r] >= 0.5 * st.wall_s_per_rank[r] && st.wait_s_per_rank[r] > 0.2))
			{
				tuccompi_taskset_print_summary(ts, stderr); /* every rank and unit, before failing */
				FAIL("rank %d ran no task of 'all-to-last' but waited %.3f s of its %.3f s", r,
				     st.wait_s_per_rank[r], st.wall_s_per_rank[r]);
			}
		if (nranks > 1 && st.wait_s_per_rank[nranks - 1] > 0.1 * st.wall_s_per_rank[nranks - 1])
			FAIL("the last rank ran every task of 'all-to-last' but waited %.3f s of its %.3f s",
			     st.wait_s_per_rank[nranks - 1], st.wall_s_per_rank[nranks - 1]);
		printf("user policy ok\n");
	}
	tuccompi_taskset_destroy(ts);

	free(res);
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
