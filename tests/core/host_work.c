/* tuccompi_host_work_begin()/_end(): between them the node's workers sleep. Asserted without a
 * clock's verdict on speed: a task submitted during host work has not run when the work ends, however
 * long it waited, and runs after; the process's CPU time over a paused sleep of 300 ms stays under
 * half of it (two polling workers would take about 600 ms; the unpaused figure is printed, not
 * asserted). Calls nest; before tuccompi_init() and after tuccompi_finalize() they do nothing; a
 * finalize with host work left open ends it and returns. */
#include <starpu.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "config.h"
#include <tuccompi.h>

#include "testutil.h"

static atomic_int ran;

static void mark(void *buffers[], void *arg)
{
	(void)buffers;
	(void)arg;
	atomic_fetch_add(&ran, 1);
}

static struct starpu_codelet cl = { .cpu_funcs = { mark }, .nbuffers = 0, .name = "host_work_mark" };

static double cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* the process's CPU seconds over a sleep of @p s */
static double cpu_over_sleep(double s)
{
	double c0 = cpu_seconds();
	usleep((useconds_t)(s * 1e6));
	return cpu_seconds() - c0;
}

static void submit(void)
{
	struct starpu_task *t = starpu_task_create();
	t->cl = &cl;
	ASSERT_OK(starpu_task_submit(t));
}

int main(int argc, char **argv)
{
	tuccompi_host_work_begin(); /* before the runtime: nothing */
	tuccompi_host_work_end();
	tuccompi_host_work_end(); /* an end without a begin: nothing */

	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.ncpus = 2;
	conf.ncuda = 0;
	conf.use_mpi = 0;
	conf.quiet = 1;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);

	/* a task submitted during host work waits for its end, nested or not */
	tuccompi_host_work_begin();
	tuccompi_host_work_begin();
	submit();
	usleep(100000);
	tuccompi_host_work_end();
	usleep(100000);
	ASSERT_EQ(atomic_load(&ran), 0);
	double paused = cpu_over_sleep(0.3);
	tuccompi_host_work_end();
	starpu_task_wait_for_all();
	ASSERT_EQ(atomic_load(&ran), 1);
	double polling = cpu_over_sleep(0.3);
	printf("CPU seconds over a 0.3 s sleep: %.3f with the workers asleep, %.3f with them polling\n", paused, polling);
	if (paused >= 0.15)
		FAIL("the workers took %.3f CPU seconds over 0.3 s of host work: they did not sleep", paused);

	/* tasks run as before once host work ends */
	for (int i = 0; i < 8; i++)
		submit();
	starpu_task_wait_for_all();
	ASSERT_EQ(atomic_load(&ran), 9);

	/* host work left open at the end: finalize ends it (StarPU refuses to stop paused) */
	tuccompi_host_work_begin();
	ASSERT_OK(tuccompi_finalize());
	tuccompi_host_work_begin(); /* after the runtime: nothing */
	tuccompi_host_work_end();
	printf("host_work: all checks passed\n");
	return 0;
}
