/* The resume journal: a child process runs a task set with a journal and is killed (SIGKILL)
 * after some tasks finished; resuming runs only the tasks the journal does not hold and gives
 * every result right. Also: a journal of another run (other key) is refused with a clear
 * message; a journal with a corrupted record costs only recomputation, never a wrong result;
 * tuccompi_journal_remove() removes it. */
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <tuccompi.h>
#include <unistd.h>

#include "testutil.h"

#define N 400
#define KEY 0x5eedULL

static _Atomic int finished;
static int kill_after;

static void work_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	uint64_t id = tuccompi_task_id(t);
	uint64_t *r = tuccompi_task_result(t);
	r[0] = id;
	r[1] = id * id + 17;
	usleep(2000);
}

static void on_done(uint64_t id, const void *result, void *arg)
{
	(void)id;
	(void)result;
	(void)arg;
	if (atomic_fetch_add(&finished, 1) + 1 == kill_after)
		raise(SIGKILL); /* as kill -9 would, in the middle of the set */
}

static const struct tuccompi_plugin plugin = {
	.name = "test_journal",
	.cpu = work_cpu,
	.result_size = 2 * sizeof(uint64_t),
};

/* Run the set; returns tuccompi_wait's result; res gets the results. */
static int run_set(const char *journal, uint64_t key, int resume, uint64_t *res, uint64_t *resumed, uint64_t *ran)
{
	struct tuccompi_taskset_desc d = {
		.plugin = &plugin,
		.ntasks = N,
		.results = res,
		.on_done = on_done,
		.journal = journal,
		.journal_key = key,
		.resume = resume,
	};
	tuccompi_taskset_t ts;
	int ret = tuccompi_parallel(&tuccompi_policy_ms, &d, &ts);
	if (ret < 0)
		return ret;
	ret = tuccompi_wait(ts);
	struct tuccompi_taskset_stats st;
	if (ret == 0 && tuccompi_taskset_get_stats(ts, &st) == 0)
	{
		*resumed = st.resumed;
		*ran = st.tasks_per_rank[0];
	}
	tuccompi_taskset_destroy(ts);
	return ret;
}

static void start(void)
{
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	conf.ncpus = 2;
	conf.use_mpi = 0;
	int ret = tuccompi_init(NULL, NULL, &conf);
	if (ret == -ENODEV)
		exit(TEST_SKIP);
	ASSERT_OK(ret);
}

static void check(const uint64_t *res)
{
	for (uint64_t i = 0; i < N; i++)
		if (res[2 * i] != i || res[2 * i + 1] != i * i + 17)
			FAIL("result of task %llu is wrong after resuming", (unsigned long long)i);
}

int main(void)
{
	char dir[] = "/tmp/tuccompi-journal-XXXXXX";
	ASSERT(mkdtemp(dir));
	char journal[256];
	snprintf(journal, sizeof(journal), "%s/run", dir);
	static uint64_t res[2 * N];

	/* the child is killed after 120 tasks */
	pid_t pid = fork();
	ASSERT(pid >= 0);
	if (pid == 0)
	{
		kill_after = 120;
		start();
		uint64_t a, b;
		run_set(journal, KEY, 0, res, &a, &b);
		_exit(3); /* not reached */
	}
	int status;
	ASSERT(waitpid(pid, &status, 0) == pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == TEST_SKIP)
		return TEST_SKIP;
	ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	start();
	/* another run's journal is refused */
	uint64_t resumed = 0, ran = 0;
	ASSERT_EQ(run_set(journal, KEY + 1, 1, res, &resumed, &ran), -ESTALE);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "belongs to another run");

	/* resuming: only what is missing runs; every result right */
	memset(res, 0, sizeof(res));
	ASSERT_OK(run_set(journal, KEY, 1, res, &resumed, &ran));
	check(res);
	printf("resumed %llu tasks from the journal, ran %llu\n", (unsigned long long)resumed, (unsigned long long)ran);
	ASSERT(resumed >= 100 && resumed < N);
	ASSERT_EQ(resumed + ran, N);

	/* a journal holding everything: nothing runs */
	memset(res, 0, sizeof(res));
	ASSERT_OK(run_set(journal, KEY, 1, res, &resumed, &ran));
	check(res);
	ASSERT_EQ(resumed, N);
	ASSERT_EQ(ran, 0);

	/* corrupt one record in the middle of the file: the tasks from it on run again */
	char path[300];
	snprintf(path, sizeof(path), "%s.rank-0", journal);
	FILE *f = fopen(path, "r+b");
	ASSERT(f);
	ASSERT(fseek(f, 48 + 10 * (8 + 16 + 4) + 9, SEEK_SET) == 0);
	int c = fgetc(f);
	ASSERT(fseek(f, -1, SEEK_CUR) == 0);
	fputc(c ^ 0x5a, f);
	fclose(f);
	memset(res, 0, sizeof(res));
	ASSERT_OK(run_set(journal, KEY, 1, res, &resumed, &ran));
	check(res);
	ASSERT(ran > 0);
	printf("after a corrupted record: %llu resumed, %llu ran again\n", (unsigned long long)resumed,
	       (unsigned long long)ran);

	ASSERT_OK(tuccompi_journal_remove(journal));
	ASSERT(access(path, F_OK) != 0);
	ASSERT_OK(tuccompi_finalize());
	rmdir(dir);
	return 0;
}
