/* MS-TAIL's end-of-set rule between ranks (TUCCOMPI_POLICY_RANK_TAIL), on 2 ranks: rank 0 has one CPU
 * worker whose tasks take FAST_US, rank 1 has TEST_NCPU workers (rank_tail.sh: 16) whose tasks take
 * SLOW_US (both sleep, so the test also holds on an oversubscribed 2-core machine). With several
 * workers, and the adaptive pack on for every rank (rank_tail.sh: TUCCOMPI_MS_ADAPT_RATE=0), rank 1's
 * share of the rest is large enough for the master's adaptive pack to grant it tasks: the stop must
 * win over it. Once rank 0 would start everything left before rank 1 finishes
 * one task -- the last W = (rank 0's rate) x SLOW_US positions of the set -- the master must stop
 * handing rank 1 tasks. Checked on the positions (here the task ids) rank 1 ran: none of the last
 * W/2, with W from the rate rank 0 actually reached in this run (so a slow machine narrows the
 * window instead of failing the test). Without the rule rank 1's last position falls anywhere in
 * the window, so each run has about even odds of catching it; MS-TAIL runs REPS times. MS (no
 * rule) runs once for comparison, unchecked. Also: every task once, results back, rank 1 took
 * part.
 * Then the same with rank 0's worker running batches of BATCH0 tasks (BATCH_US each): its jobs
 * (BATCH0 x BATCH_US = 32 ms) are not twice shorter than rank 1's single tasks (60 ms), but its
 * tasks are 120 times shorter, as a GPU's batch of 512 sources against a CPU core's one. The master
 * must judge the ranks' speed per task: judged per job, rank 1 counted as no slower and took tasks
 * to the end (R-MAT 20 with the dial engine on two ranks of the H200 node, docs/apsp.md). */
#include <stdlib.h>
#include <time.h>
#include <tuccompi.h>
#include <unistd.h>

#include "testutil.h"

#define FAST_US 1000
#define SLOW_US 60000
#define NTASKS 1000
#define REPS 3
#define BATCH0 64
#define BATCH_US 500

struct result
{
	uint64_t id;
	int32_t rank;
	double t1;
};

static void probe_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	struct result *r = tuccompi_task_result(t);
	usleep(tuccompi_rank() == 1 ? SLOW_US : FAST_US);
	r->id = tuccompi_task_id(t);
	r->rank = tuccompi_rank();
	r->t1 = test_now();
}

static const struct tuccompi_plugin probe = {
	.name = "test_rank_tail",
	.cpu = probe_cpu,
	.result_size = sizeof(struct result),
};

/* A batch: on rank 0 BATCH_US per task, on rank 1 SLOW_US (its batches hold one task). */
static void probe_cpu_batch(struct tuccompi_batch *b, void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < tuccompi_batch_size(b); i++)
	{
		struct tuccompi_task *t = tuccompi_batch_task(b, i);
		struct result *r = tuccompi_task_result(t);
		usleep(tuccompi_rank() == 1 ? SLOW_US : BATCH_US);
		r->id = tuccompi_task_id(t);
		r->rank = tuccompi_rank();
		r->t1 = test_now();
	}
}

static const struct tuccompi_plugin probe_batched = {
	.name = "test_rank_tail_batched",
	.cpu_batch = probe_cpu_batch,
	.batch_max = { [TUCCOMPI_UNIT_CPU] = BATCH0 },
	.result_size = sizeof(struct result),
};

/* Runs the set under @pol (with @batched, rank 0 in batches of BATCH0); on rank 0, checks every
 * result and, with @check, that rank 1 ran none of the last W/2 positions. */
static void run(const struct tuccompi_policy *pol, struct result *res, int check, int batched)
{
	struct tuccompi_taskset_desc desc = { .plugin = &probe, .ntasks = NTASKS, .results = res, .root = 0 };
	if (batched)
	{
		desc.plugin = &probe_batched;
		desc.batch[TUCCOMPI_UNIT_CPU] = tuccompi_rank() == 0 ? BATCH0 : 1;
	}
	tuccompi_taskset_t ts;
	memset(res, 0xff, NTASKS * sizeof(*res));
	ASSERT_OK(tuccompi_parallel(pol, &desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	if (tuccompi_rank() == 0)
	{
		long long last = -1, n0 = 0, n1 = 0;
		double t_first = 0, t_last = 0;
		for (uint64_t i = 0; i < NTASKS; i++)
		{
			if (res[i].id != i || (res[i].rank != 0 && res[i].rank != 1))
				FAIL("%s: result %llu: id %llu rank %d (lost or wrong)", pol->name, (unsigned long long)i,
				     (unsigned long long)res[i].id, res[i].rank);
			ASSERT_EQ(tuccompi_taskset_task_rank(ts, i), res[i].rank);
			if (res[i].rank == 1)
				last = (long long)i, n1++;
			else
			{
				if (!n0++ || res[i].t1 < t_first)
					t_first = res[i].t1;
				if (res[i].t1 > t_last)
					t_last = res[i].t1;
			}
		}
		double rate0 = t_last > t_first ? (double)(n0 - 1) / (t_last - t_first) : 0;
		long long half = (long long)(0.5 * rate0 * SLOW_US * 1e-6);
		printf("%s%s: rank 0 %.0f tasks/s; rank 1 ran %lld tasks, the last at position %lld of %d (window %lld)\n",
		       pol->name, batched ? " (rank 0 in batches)" : "", rate0, n1, last, NTASKS, 2 * half);
		if (check)
		{
			if (last < 0)
				FAIL("%s: rank 1 ran nothing; it should work until the end of the set draws near", pol->name);
			if (last >= NTASKS - half)
				FAIL("%s%s: rank 1 (%d us per task) was given position %lld of %d, when rank 0 (%.0f tasks/s) "
				     "would have started the last %lld before it finished one",
				     pol->name, batched ? " (rank 0 in batches)" : "", SLOW_US, last, NTASKS, rate0, 2 * half);
		}
	}
	tuccompi_taskset_destroy(ts);
}

int main(int argc, char **argv)
{
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	const char *nc = getenv("TEST_NCPU"); /* rank_tail.sh: rank 1 has 4 CPU workers */
	conf.ncpus = nc ? atoi(nc) : 1;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	if (tuccompi_nranks() != 2)
	{
		fprintf(stderr, "rank_tail: run on 2 ranks (tests/sched/rank_tail.sh)\n");
		tuccompi_finalize();
		return TEST_SKIP;
	}
	struct result *res = calloc(NTASKS, sizeof(*res));
	ASSERT(res);
	for (int batched = 0; batched < 2; batched++)
	{
		for (int rep = 0; rep < REPS; rep++)
			run(&tuccompi_policy_ms_tail, res, 1, batched);
		run(&tuccompi_policy_ms, res, 0, batched); /* the comparison: no rule */
	}
	free(res);
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
