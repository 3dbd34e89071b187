/* Task sets that reduce into one buffer (desc.reduce), with a plug-in of this test's own, under
 * EQ1, EQ2, MS and MS-TAIL, on however many ranks this runs (1 alone, 2 and 3 under
 * tests/core/reduce_mpi.sh):
 *  - the exact fixed-point type alone: from/value round trips, exact sums where doubles round,
 *    negative numbers, the range's ends;
 *  - integer-valued double sums (tuccompi_reduce_sum_f64) and counts (_i64) equal the known answer;
 *  - exact sums (tuccompi_reduce_sum_exact) of values that doubles round are the same bits as the
 *    task-id-order sum, whatever the policy, the batches and the number of ranks, on the root and
 *    (everywhere) on every rank;
 *  - errors: a size without a combine, a reduction with a journal, a task asking in a set without
 *    reduction, a job that fails after adding (the set fails on every rank, with that reason), and
 *    a job that fails before asking (moved to another unit: the sums stay right).
 * With a GPU, the same exact sums from a CUDA batch implementation (reduce_cuda.cu). */
#include "config.h"

#include <math.h>
#include <stdatomic.h>
#include <tuccompi.h>
#include <unistd.h>

#include "testutil.h"

#define NTASKS 211 /* not a multiple of the batch sizes */
#define NELEM 37

enum mode
{
	MODE_F64,   /* task i adds (i+1)(j+1) to element j: an integer sum, exact in doubles */
	MODE_I64,   /* task i adds 1 to element i % NELEM */
	MODE_EXACT, /* task i adds x(i, j) (below) to element j exactly */
	MODE_FAIL,  /* MODE_EXACT, and task 17 fails after asking for its buffer */
	MODE_NONE,  /* the set has no reduction: the task records what asking gives */
};

struct arg
{
	enum mode mode;
	_Atomic int null_seen;
};

#ifdef TUCCOMPI_HAVE_CUDA
void test_reduce_cuda(struct tuccompi_batch *b, void *arg);
#endif

/* Values that doubles round when summed, of both signs. */
static double x_of(uint64_t i, unsigned j)
{
	return (i % 3 == 1 ? -1.0 : 1.0) / (double)(i + j + 3);
}

static void add_task(struct tuccompi_task *t, struct arg *a)
{
	uint64_t i = tuccompi_task_id(t);
	void *buf = tuccompi_task_reduce_buffer(t);
	if (a->mode == MODE_NONE)
	{
		if (!buf && strstr(tuccompi_last_error(), "no reduction"))
			atomic_fetch_add(&a->null_seen, 1);
		return;
	}
	if (!buf)
	{
		tuccompi_task_fail(t, -ENOMEM, "no reduction buffer: %s", tuccompi_last_error());
		return;
	}
	if (a->mode == MODE_F64)
		for (unsigned j = 0; j < NELEM; j++)
			((double *)buf)[j] += (double)(i + 1) * (j + 1);
	else if (a->mode == MODE_I64)
		((int64_t *)buf)[i % NELEM] += 1;
	else
		for (unsigned j = 0; j < NELEM; j++)
			tuccompi_exact_add(&((struct tuccompi_exact *)buf)[j], x_of(i, j));
	if (a->mode == MODE_FAIL && i == 17)
		tuccompi_task_fail(t, -EIO, "task 17 gives up after adding");
}

static void one_cpu(struct tuccompi_task *t, void *arg)
{
	add_task(t, arg);
}

static void batch_cpu(struct tuccompi_batch *b, void *arg)
{
	for (unsigned i = 0; i < tuccompi_batch_size(b); i++)
		add_task(tuccompi_batch_task(b, i), arg);
	usleep(200); /* a batch costs something, so that units share the work */
}

/* The exact sums in task-id order, and as doubles. */
static void reference(struct tuccompi_exact *ref, double *approx)
{
	memset(ref, 0, NELEM * sizeof(*ref));
	for (unsigned j = 0; j < NELEM; j++)
	{
		long double s = 0;
		for (uint64_t i = 0; i < NTASKS; i++)
		{
			tuccompi_exact_add(&ref[j], x_of(i, j));
			s += x_of(i, j);
		}
		approx[j] = (double)s;
	}
}

static void check_exact_type(void)
{
	/* round trips, both signs, the range's ends */
	const double vals[] = { 0.0, 1.0, 0.1, -2.5, 0x1p-76, -0x1p-76, 0x1.fffffffffffffp62, 12345.678, 3e-20 };
	for (unsigned k = 0; k < sizeof(vals) / sizeof(vals[0]); k++)
	{
		struct tuccompi_exact e = tuccompi_exact_from(vals[k]);
		if (tuccompi_exact_value(&e) != vals[k])
			FAIL("exact round trip of %a gives %a", vals[k], tuccompi_exact_value(&e));
	}
	/* below 2^-128: gone; in between: truncated toward zero */
	struct tuccompi_exact e = tuccompi_exact_from(0x1p-130);
	ASSERT(tuccompi_exact_value(&e) == 0.0);
	e = tuccompi_exact_from(0x1.8p-128 + 0x1p-180);
	ASSERT(tuccompi_exact_value(&e) == 0x1p-128);
	/* ten times the double nearest 0.1 is 1 + 5.55e-17, whose nearest double is 1; a double sum says
	 * 0.9999999999999999 */
	struct tuccompi_exact s = { { 0, 0, 0 } };
	double d = 0;
	for (int k = 0; k < 10; k++)
	{
		tuccompi_exact_add(&s, 0.1);
		d += 0.1;
	}
	ASSERT(tuccompi_exact_value(&s) == 1.0);
	ASSERT(d != 1.0);
	/* order does not matter: 1e16 + 1 - 1e16 */
	struct tuccompi_exact a = { { 0, 0, 0 } }, b = { { 0, 0, 0 } };
	tuccompi_exact_add(&a, 1e16);
	tuccompi_exact_add(&a, 1.0);
	tuccompi_exact_add(&a, -1e16);
	tuccompi_exact_add(&b, -1e16);
	tuccompi_exact_add(&b, 1e16);
	tuccompi_exact_add(&b, 1.0);
	ASSERT(tuccompi_exact_value(&a) == 1.0);
	ASSERT(!memcmp(&a, &b, sizeof(a)));
	/* a negative total */
	struct tuccompi_exact n = { { 0, 0, 0 } };
	tuccompi_exact_add(&n, 0.25);
	tuccompi_exact_add(&n, -3.0);
	ASSERT(tuccompi_exact_value(&n) == -2.75);
	/* combine = add */
	struct tuccompi_exact c = tuccompi_exact_from(0.1);
	tuccompi_exact_combine(&c, &a);
	ASSERT(tuccompi_exact_value(&c) == 1.1);
}

static tuccompi_taskset_t start(const struct tuccompi_policy *pol, const struct tuccompi_plugin *p, struct arg *a,
				unsigned batch, void *result, size_t size, tuccompi_reduce_func combine, int everywhere)
{
	struct tuccompi_taskset_desc d = {
		.plugin = p,
		.ntasks = NTASKS,
		.arg = a,
		.batch = { batch, 0 },
		.reduce = { .size = size, .combine = combine, .result = result, .everywhere = everywhere },
	};
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(pol, &d, &ts));
	return ts;
}

static void run_policy(const struct tuccompi_policy *pol, const struct tuccompi_plugin *p, unsigned batch, int root,
		       const struct tuccompi_exact *ref, const double *approx)
{
	struct arg a = { MODE_F64, 0 };
	double f[NELEM];
	memset(f, 0xff, sizeof(f));
	tuccompi_taskset_t ts = start(pol, p, &a, batch, f, sizeof(f), tuccompi_reduce_sum_f64, 0);
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);
	for (unsigned j = 0; root && j < NELEM; j++)
		if (f[j] != (double)(j + 1) * NTASKS * (NTASKS + 1) / 2)
			FAIL("%s: f64 element %u is %.17g, want %.17g", pol->name, j, f[j],
			     (double)(j + 1) * NTASKS * (NTASKS + 1) / 2);

	a.mode = MODE_I64;
	int64_t c[NELEM];
	ts = start(pol, p, &a, batch, c, sizeof(c), tuccompi_reduce_sum_i64, 0);
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);
	for (unsigned j = 0; root && j < NELEM; j++)
		ASSERT_EQ(c[j], NTASKS / NELEM + (j < NTASKS % NELEM));

	a.mode = MODE_EXACT;
	struct tuccompi_exact e[NELEM];
	memset(e, 0xff, sizeof(e));
	ts = start(pol, p, &a, batch, e, sizeof(e), tuccompi_reduce_sum_exact, 1);
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);
	for (unsigned j = 0; j < NELEM; j++)
	{
		if (memcmp(&e[j], &ref[j], sizeof(e[j])))
			FAIL("%s, rank %d: exact element %u is %.17g, the task-order sum %.17g (other bits)", pol->name,
			     tuccompi_rank(), j, tuccompi_exact_value(&e[j]), tuccompi_exact_value(&ref[j]));
		double v = tuccompi_exact_value(&e[j]);
		if (fabs(v - approx[j]) > 1e-14 * fabs(approx[j]))
			FAIL("%s: exact element %u is %.17g, the long double sum %.17g", pol->name, j, v, approx[j]);
	}
	if (root)
		printf("%s, batch %u: f64, i64 and exact sums ok\n", pol->name, batch);
}

static void check_errors(const struct tuccompi_plugin *p, int root)
{
	struct arg a = { MODE_F64, 0 };
	double f[NELEM];
	tuccompi_taskset_t ts;
	struct tuccompi_taskset_desc d = { .plugin = p, .ntasks = 5, .arg = &a, .reduce = { .size = sizeof(f), .result = f } };
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_ms, &d, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "without a combine function");
	d.reduce.combine = tuccompi_reduce_sum_f64;
	d.journal = "reduce-test.journal";
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_ms, &d, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "cannot be resumed from a journal");

	/* asking in a set without reduction: NULL, and why */
	a.mode = MODE_NONE;
	ts = start(&tuccompi_policy_eq1, p, &a, 0, NULL, 0, NULL, 0);
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);
	int64_t seen = atomic_load(&a.null_seen);
	ASSERT_OK(tuccompi_allreduce_i64(&seen, 1, TUCCOMPI_OP_SUM));
	ASSERT_EQ(seen, NTASKS);

	/* a job that fails after adding fails the set, on every rank */
	a.mode = MODE_FAIL;
	struct tuccompi_exact e[NELEM];
	ts = start(&tuccompi_policy_ms, p, &a, 0, e, sizeof(e), tuccompi_reduce_sum_exact, 0);
	int ret = tuccompi_wait(ts);
	ASSERT(ret < 0);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "after adding into its reduction buffer");
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "task 17 gives up after adding");
	tuccompi_taskset_destroy(ts);
	if (root)
		printf("errors ok\n");
}

/* A job that fails before its tasks ran (an injected fault, transient: it runs again on its unit;
 * sticky: it moves to another) is counted once; the sums stay exact. Only ranks with two CPU units or
 * more inject (a sticky fault takes its unit out for good). */
static void check_moved_job(const struct tuccompi_plugin *p, const struct tuccompi_exact *ref)
{
	if (tuccompi_unit_count(TUCCOMPI_UNIT_CPU) >= 2)
		setenv("TUCCOMPI_FAULT_INJECT", "cpu:3,cpu:6:sticky", 1);
	struct arg a = { MODE_EXACT, 0 };
	struct tuccompi_exact e[NELEM];
	tuccompi_taskset_t ts = start(&tuccompi_policy_ms, p, &a, 2, e, sizeof(e), tuccompi_reduce_sum_exact, 1);
	ASSERT_OK(tuccompi_wait(ts));
	struct tuccompi_taskset_stats st;
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	tuccompi_taskset_destroy(ts);
	unsetenv("TUCCOMPI_FAULT_INJECT");
	ASSERT(!memcmp(e, ref, sizeof(e)));
	if (tuccompi_rank() == 0)
		printf("a job moved after an injected fault: sums ok\n");
}

int main(int argc, char **argv)
{
	check_exact_type();
	TEST_INIT(&argc, &argv, 3);
	int root = tuccompi_rank() == 0;
	struct tuccompi_exact ref[NELEM];
	double approx[NELEM];
	reference(ref, approx);

	struct tuccompi_plugin single = { .name = "test_reduce", .cpu = one_cpu };
	struct tuccompi_plugin batched = {
		.name = "test_reduce_batch", .cpu_batch = batch_cpu, .batch_max = { 6, 0 },
	};
	const struct tuccompi_policy *pols[] = { &tuccompi_policy_eq1, &tuccompi_policy_eq2, &tuccompi_policy_ms,
						 &tuccompi_policy_ms_tail };
	for (unsigned i = 0; i < 4; i++)
	{
		run_policy(pols[i], &single, 0, root, ref, approx);
		run_policy(pols[i], &batched, 4, root, ref, approx);
	}
	check_errors(&single, root);
#ifdef TUCCOMPI_HAVE_CUDA
	/* every rank takes part where any rank has a GPU (a set is collective): on a node of one GPU
	 * and two ranks, the rank without one runs none of these tasks */
	int64_t gpus = tuccompi_unit_count(TUCCOMPI_UNIT_CUDA);
	ASSERT_OK(tuccompi_allreduce_i64(&gpus, 1, TUCCOMPI_OP_MAX));
	if (gpus > 0)
	{
		/* GPUs and CPU cores together, then GPUs alone */
		struct tuccompi_plugin g = batched;
		g.cuda_batch = test_reduce_cuda;
		g.batch_max[TUCCOMPI_UNIT_CUDA] = 16;
		run_policy(&tuccompi_policy_ms, &g, 4, root, ref, approx);
		g.cpu_batch = NULL;
		run_policy(&tuccompi_policy_eq1, &g, 4, root, ref, approx);
		if (root)
			printf("CUDA reductions ok\n");
	}
#endif
	check_moved_job(&batched, ref);
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
