/* No rank left waiting: a mistake or failure on one rank ends PARALLEL or SYN with an error on every
 * rank, within seconds, each naming the rank and the reason (tests/core/rank_errors.sh runs it on 2
 * and 3 ranks under every policy).
 *
 *   rank_errors agreed POLICY     on each rank in turn: a NULL plug-in, a policy whose master is out
 *                                 of range, a different task count, a different plug-in name, a
 *                                 journal that cannot be opened, results that do not fit in memory
 *                                 (RLIMIT_AS on that rank). Every rank's tuccompi_parallel() fails with
 *                                 the same message; a good set then runs and its results are right.
 *   rank_errors nullwait POLICY   the last rank calls tuccompi_wait(NULL) while the others wait for the
 *                                 set: every rank's SYN fails naming it; the layer is stopped, so
 *                                 tuccompi_finalize() fails too (it says to end the process).
 *   rank_errors order POLICY      two sets in flight; the last rank waits for them in the other order.
 *   rank_errors finalize POLICY   the last rank skips a PARALLEL and calls tuccompi_finalize().
 * Each rank prints "rank R ok: <the error>" once it saw what it should. The stopped-layer modes end
 * with exit status 3 after a pause (so that mpirun does not kill a rank before it has spoken). */
#include <sys/resource.h>
#include <sys/stat.h>
#include <tuccompi.h>
#include <unistd.h>

#include "testutil.h"

#define N 40
#define LIMIT_S 10.0

static void square_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	uint64_t id = tuccompi_task_id(t);
	*(uint64_t *)tuccompi_task_result(t) = id * id + 1;
	usleep(200);
}

static struct tuccompi_plugin square = { .name = "square", .cpu = square_cpu, .result_size = sizeof(uint64_t) };

static int rank, nranks;

/* The call failed, quickly, and the message names @who and says @what. */
static void expect_error(int ret, double t0, const char *who, const char *what)
{
	double took = tuccompi_wtime() - t0;
	if (ret >= 0)
		FAIL("rank %d: the call succeeded; expected an error about %s (%s)", rank, who, what);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), who);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), what);
	if (took > LIMIT_S)
		FAIL("rank %d: the error came after %.1f s", rank, took);
	printf("rank %d ok (%.2f s): %s\n", rank, took, tuccompi_last_error());
	fflush(stdout);
}

/* A good set: every result right. */
static void good_set(const struct tuccompi_policy *pol)
{
	uint64_t res[N];
	memset(res, 0, sizeof(res));
	struct tuccompi_taskset_desc d = { .plugin = &square, .ntasks = N, .results = res };
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(pol, &d, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);
	if (rank == 0)
		for (uint64_t i = 0; i < N; i++)
			ASSERT_EQ(res[i], i * i + 1);
}

static void agreed(const struct tuccompi_policy *pol, const char *dir)
{
	char who[32];
	for (int bad = 0; bad < nranks; bad++)
	{
		snprintf(who, sizeof(who), "rank %d: ", bad);
		tuccompi_taskset_t ts;
		double t0;

		/* a NULL plug-in */
		struct tuccompi_taskset_desc d = { .plugin = rank == bad ? NULL : &square, .ntasks = N };
		t0 = tuccompi_wtime();
		expect_error(tuccompi_parallel(pol, &d, &ts), t0, who, "desc->plugin is NULL");

		/* a dynamic policy whose master does not exist */
		struct tuccompi_policy p2 = *pol;
		p2.dynamic = 1;
		p2.partition = NULL;
		if (rank == bad)
			p2.master = nranks;
		d.plugin = &square;
		t0 = tuccompi_wtime();
		char what[128];
		snprintf(what, sizeof(what), "master rank %d out of [0, %d)", nranks, nranks);
		expect_error(tuccompi_parallel(&p2, &d, &ts), t0, who, what);

		/* descriptions that differ: the field and the rank */
		if (bad > 0)
		{
			d.ntasks = rank == bad ? N + 1 : N;
			t0 = tuccompi_wtime();
			snprintf(what, sizeof(what), "rank %d passes ntasks = %d where rank 0 passes %d", bad, N + 1, N);
			expect_error(tuccompi_parallel(pol, &d, &ts), t0, "different descriptions", what);
			d.ntasks = N;
			struct tuccompi_plugin other = square;
			other.name = "square2";
			d.plugin = rank == bad ? &other : &square;
			t0 = tuccompi_wtime();
			snprintf(what, sizeof(what), "rank %d passes the plug-in \"square2\" where rank 0 passes \"square\"", bad);
			expect_error(tuccompi_parallel(pol, &d, &ts), t0, "different descriptions", what);
			d.plugin = &square;
		}

		/* a journal that cannot be opened on one rank (its file's name is taken by a folder) */
		char journal[512], blocker[600];
		snprintf(journal, sizeof(journal), "%s/j-%d", dir, bad);
		snprintf(blocker, sizeof(blocker), "%s.rank-%d", journal, bad);
		if (rank == bad)
			ASSERT(mkdir(blocker, 0777) == 0 || errno == EEXIST);
		ASSERT_OK(tuccompi_barrier());
		d.journal = journal;
		t0 = tuccompi_wtime();
		expect_error(tuccompi_parallel(pol, &d, &ts), t0, who, "cannot open journal");
		d.journal = NULL;
		if (rank == bad)
			rmdir(blocker);

		/* results that do not fit in this rank's memory (results are kept per rank) */
		struct rlimit old, lim;
		getrlimit(RLIMIT_AS, &old);
		if (rank == bad)
		{
			/* room for 1 GiB more than this process maps now */
			long pages = 0;
			FILE *f = fopen("/proc/self/statm", "r");
			ASSERT(f && fscanf(f, "%ld", &pages) == 1);
			fclose(f);
			lim = old;
			lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
			ASSERT(setrlimit(RLIMIT_AS, &lim) == 0);
		}
		struct tuccompi_plugin big = square;
		big.result_size = 1024;
		d.plugin = &big;
		d.ntasks = (uint64_t)2 << 20; /* 2 GiB of results */
		t0 = tuccompi_wtime();
		int ret = tuccompi_parallel(pol, &d, &ts);
		if (rank == bad)
			ASSERT(setrlimit(RLIMIT_AS, &old) == 0);
		expect_error(ret, t0, who, "out of memory");
		d.plugin = &square;
		d.ntasks = N;

		/* the layer is still up: a good set runs */
		good_set(pol);
	}
}

int main(int argc, char **argv)
{
	if (argc < 3)
	{
		fprintf(stderr, "usage: %s agreed|nullwait|order|finalize POLICY [DIR]\n", argv[0]);
		return 2;
	}
	const char *mode = argv[1];
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	conf.ncpus = 2;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	rank = tuccompi_rank();
	nranks = tuccompi_nranks();
	const struct tuccompi_policy *pol = tuccompi_policy_by_name(argv[2]);
	ASSERT(pol);
	int last = nranks - 1;
	char who[48];
	snprintf(who, sizeof(who), "rank %d", last);
	struct tuccompi_taskset_desc d = { .plugin = &square, .ntasks = N };
	tuccompi_taskset_t a, b;

	if (!strcmp(mode, "agreed"))
	{
		agreed(pol, argc > 3 ? argv[3] : ".");
		ASSERT_OK(tuccompi_finalize());
		printf("rank %d done\n", rank);
		return 0;
	}
	double t0;
	if (!strcmp(mode, "nullwait"))
	{
		ASSERT_OK(tuccompi_parallel(pol, &d, &a));
		t0 = tuccompi_wtime();
		ret = tuccompi_wait(rank == last ? NULL : a);
		expect_error(ret, t0, who, "called tuccompi_wait() with a NULL task set");
	}
	else if (!strcmp(mode, "order"))
	{
		ASSERT_OK(tuccompi_parallel(pol, &d, &a));
		ASSERT_OK(tuccompi_parallel(pol, &d, &b));
		t0 = tuccompi_wtime();
		ret = tuccompi_wait(rank == last ? b : a);
		expect_error(ret, t0, "rank ", "start and wait for its task sets in the same order");
	}
	else if (!strcmp(mode, "finalize"))
	{
		t0 = tuccompi_wtime();
		if (rank == last)
			ret = tuccompi_finalize();
		else
			ret = tuccompi_parallel(pol, &d, &a);
		expect_error(ret, t0, who, "called tuccompi_finalize() where rank 0 called tuccompi_parallel()");
		if (rank == last)
		{
			sleep(2);
			return 3;
		}
	}
	else
		FAIL("unknown mode %s", mode);
	/* the layer has stopped: finalize says so instead of hanging */
	t0 = tuccompi_wtime();
	ret = tuccompi_finalize();
	expect_error(ret, t0, "tuccompi_finalize", "1st layer had stopped");
	sleep(2);
	return 3;
}
