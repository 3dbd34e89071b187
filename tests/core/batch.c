/* Task batches with a plug-in that is not the SSSP one, under EQ1, EQ2, MS and MS-TAIL, on
 * however many ranks this runs (1 alone, 2 under tests/core/batch_mpi.sh):
 *  - every task runs exactly once and its own result reaches the root;
 *  - on_done is called once per task (not per batch), on the rank that ran it;
 *  - no batch exceeds the set's batch size (desc.batch) nor the plug-in's batch_max, and the
 *    sizes add up to the tasks (a count that is not a multiple forces a partial batch);
 *  - EQ1/EQ2 still count tasks: a unit's share is within one batch of the equal share;
 *  - the statistics count tasks, not batches.
 * With a GPU, the same through a CUDA batch implementation (batch_cuda.cu). */
#include "config.h"

#include <stdatomic.h>
#include <tuccompi.h>
#include <unistd.h>

#include "testutil.h"

#define NTASKS 203 /* not a multiple of any batch size used */
#define CPU_MAX 8

#ifdef TUCCOMPI_HAVE_CUDA
void test_batch_cuda(struct tuccompi_batch *b, void *arg);
#endif

struct result
{
	uint64_t id, value;
	int32_t rank, batch;
};

static _Atomic unsigned largest, nbatches, ncalls_single;
static _Atomic unsigned done_count[NTASKS];

static uint64_t expected(uint64_t id, uint64_t in)
{
	return in * 3 + id * id;
}

static void one_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	struct result *r = tuccompi_task_result(t);
	r->id = tuccompi_task_id(t);
	r->value = expected(r->id, *(const uint64_t *)tuccompi_task_input(t));
	r->rank = tuccompi_rank();
	r->batch = 1;
	atomic_fetch_add(&ncalls_single, 1);
}

static void batch_cpu(struct tuccompi_batch *b, void *arg)
{
	(void)arg;
	unsigned n = tuccompi_batch_size(b);
	ASSERT(n >= 1);
	ASSERT(tuccompi_batch_task(b, n) == NULL);
	unsigned prev = atomic_load(&largest);
	while (n > prev && !atomic_compare_exchange_weak(&largest, &prev, n))
		;
	atomic_fetch_add(&nbatches, 1);
	for (unsigned i = 0; i < n; i++)
	{
		struct tuccompi_task *t = tuccompi_batch_task(b, i);
		ASSERT_EQ(tuccompi_task_unit_kind(t), TUCCOMPI_UNIT_CPU);
		struct result *r = tuccompi_task_result(t);
		r->id = tuccompi_task_id(t);
		r->value = expected(r->id, *(const uint64_t *)tuccompi_task_input(t));
		r->rank = tuccompi_rank();
		r->batch = (int32_t)n;
	}
	usleep(300); /* a batch costs something, so that units share the work */
}

static void on_done(uint64_t id, const void *result, void *arg)
{
	(void)arg;
	const struct result *r = result;
	ASSERT_EQ(r->id, id);
	atomic_fetch_add(&done_count[id], 1);
}

static void run(const struct tuccompi_policy *pol, const struct tuccompi_plugin *p, unsigned batch_cpu_size,
		const uint64_t *inputs, struct result *res, int root)
{
	memset(res, 0, NTASKS * sizeof(*res));
	for (int i = 0; i < NTASKS; i++)
		atomic_store(&done_count[i], 0);
	atomic_store(&largest, 0);
	atomic_store(&nbatches, 0);
	struct tuccompi_taskset_desc d = {
		.plugin = p,
		.ntasks = NTASKS,
		.inputs = inputs,
		.input_size = sizeof(uint64_t),
		.results = res,
		.on_done = on_done,
		.batch = { batch_cpu_size, 0 },
	};
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(pol, &d, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	unsigned limit = batch_cpu_size ? batch_cpu_size : CPU_MAX;
	if (atomic_load(&largest) > limit)
		FAIL("%s: a batch of %u tasks, the limit is %u", pol->name, atomic_load(&largest), limit);
	/* on_done once per task run here; every task once over all ranks */
	int64_t counts[NTASKS];
	for (int i = 0; i < NTASKS; i++)
	{
		counts[i] = atomic_load(&done_count[i]);
		ASSERT(counts[i] <= 1);
	}
	ASSERT_OK(tuccompi_allreduce_i64(counts, NTASKS, TUCCOMPI_OP_SUM));
	for (int i = 0; i < NTASKS; i++)
		if (counts[i] != 1)
			FAIL("%s: on_done ran %lld times for task %d", pol->name, (long long)counts[i], i);
	struct tuccompi_taskset_stats st;
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	uint64_t sum = 0;
	for (int u = 0; u < st.nunits; u++)
		sum += st.units[u].ntasks;
	ASSERT_EQ(sum, NTASKS);
	if (root)
	{
		for (int i = 0; i < NTASKS; i++)
		{
			if (res[i].id != (uint64_t)i || res[i].value != expected((uint64_t)i, inputs[i]))
				FAIL("%s: task %d has result id %llu value %llu", pol->name, i, (unsigned long long)res[i].id,
				     (unsigned long long)res[i].value);
			ASSERT_EQ(tuccompi_taskset_task_rank(ts, (uint64_t)i), res[i].rank);
		}
		/* EQ: a unit's tasks within one batch of its equal share */
		if ((pol->flags & TUCCOMPI_POLICY_UNIT_SHARES) && p->cpu_batch)
			for (int u = 0; u < st.nunits; u++)
			{
				int r = st.units[u].rank, nu = 0;
				uint64_t base = pol == &tuccompi_policy_eq1 ? st.tasks_per_rank[r] : NTASKS;
				for (int v = 0; v < st.nunits; v++)
					nu += (pol == &tuccompi_policy_eq2 || st.units[v].rank == r) &&
					      st.units[v].kind == TUCCOMPI_UNIT_CPU;
				if (st.units[u].kind != TUCCOMPI_UNIT_CPU || !nu)
					continue;
				double share = (double)base / nu;
				if (st.units[u].ntasks + limit < share || st.units[u].ntasks > share + limit)
					FAIL("%s: unit %d ran %llu tasks, equal share %.1f +- %u", pol->name, u,
					     (unsigned long long)st.units[u].ntasks, share, limit);
			}
		printf("%s, batch %u: ok (largest batch %u on rank 0)\n", pol->name, limit, atomic_load(&largest));
	}
	tuccompi_taskset_destroy(ts);
}

int main(int argc, char **argv)
{
	TEST_INIT(&argc, &argv, 3);
	int root = tuccompi_rank() == 0;
	uint64_t inputs[NTASKS];
	for (int i = 0; i < NTASKS; i++)
		inputs[i] = (uint64_t)(i * 7 + 1);
	struct result *res = calloc(NTASKS, sizeof(*res));

	struct tuccompi_plugin p = {
		.name = "test_batch",
		.cpu = one_cpu,
		.cpu_batch = batch_cpu,
		.batch_max = { CPU_MAX, 0 },
		.result_size = sizeof(struct result),
	};
	const struct tuccompi_policy *pols[] = { &tuccompi_policy_eq1, &tuccompi_policy_eq2, &tuccompi_policy_ms,
						 &tuccompi_policy_ms_tail };
	for (unsigned i = 0; i < 4; i++)
	{
		run(pols[i], &p, 5, inputs, res, root);
		run(pols[i], &p, 0, inputs, res, root);
	}
	ASSERT_EQ(atomic_load(&ncalls_single), 0); /* the batch implementation is preferred */

	/* a batch size above the plug-in's largest is capped, a bad batch_max refused */
	run(&tuccompi_policy_ms, &p, 1000, inputs, res, root);
	struct tuccompi_plugin bad = p;
	bad.batch_max[TUCCOMPI_UNIT_CPU] = 0;
	struct tuccompi_taskset_desc d = { .plugin = &bad, .ntasks = 3 };
	tuccompi_taskset_t ts;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_ms, &d, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "batch_max");

#ifdef TUCCOMPI_HAVE_CUDA
	/* every rank takes part where any rank has a GPU (a set is collective): on a node of one GPU
	 * and two ranks, the rank without one runs none of these tasks */
	int64_t gpus = tuccompi_unit_count(TUCCOMPI_UNIT_CUDA);
	ASSERT_OK(tuccompi_allreduce_i64(&gpus, 1, TUCCOMPI_OP_MAX));
	if (gpus > 0)
	{
		struct tuccompi_plugin g = p;
		g.cpu = NULL;
		g.cpu_batch = NULL;
		g.cuda_batch = test_batch_cuda;
		g.batch_max[TUCCOMPI_UNIT_CUDA] = 32;
		run(&tuccompi_policy_ms, &g, 0, inputs, res, root);
		run(&tuccompi_policy_eq1, &g, 0, inputs, res, root);
		if (root)
			printf("CUDA batches ok\n");
	}
#endif
	free(res);
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
