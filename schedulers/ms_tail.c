/* MS-TAIL: the master-slave policy that also watches the end of the task set. Units take
 * work on demand as in MS, except that a unit declines a task when the faster units would
 * finish everything that is left before it could finish that one task: at the end of a set,
 * a CPU core (0.5 s per SSSP) no longer takes a source the GPU (1 ms) would run at once.
 * Unlike MS, a unit may therefore be idle while tasks remain; MS keeps the paper's rule.
 * An example of a policy of one's own built from the pieces of schedulers/units.c. */
#include <time.h>

#include "units.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Would the units much faster than @u (at least twice, and able to run @t) empty the queue,
 * and what is still to come, before @u finishes one task? Only units that are faster count:
 * otherwise units of equal speed would each leave the last task to the other, and nobody
 * would run it; the fastest units never decline. Needs measured task times. */
static int faster_units_finish_first(struct _tuccompi_sched_units *su, int u, struct starpu_task *t)
{
	double mine = su->task_s[u], rate = 0;
	if (mine <= 0)
		return 0;
	for (int k = 0; k < su->nunits; k++)
	{
		if (k == u || su->task_s[k] <= 0 || 2 * su->task_s[k] > mine ||
		    !_tuccompi_sched_unit_can_run(&su->units[k], t))
			continue;
		rate += su->units[k].nworkers / su->task_s[k];
	}
	if (rate <= 0)
		return 0;
	double left = (double)su->ncentral + (double)__atomic_load_n(&su->more, __ATOMIC_RELAXED);
	return left / rate < mine;
}

static struct starpu_task *pop_task_ms_tail(unsigned sched_ctx_id)
{
	return _tuccompi_sched_pop_central(sched_ctx_id, faster_units_finish_first);
}

static void pre_exec_ms_tail(struct starpu_task *task, unsigned sched_ctx_id)
{
	(void)task;
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	int w = starpu_worker_get_id();
	if (w >= 0)
		su->started[w] = now_s();
}

static void post_exec_ms_tail(struct starpu_task *task, unsigned sched_ctx_id)
{
	(void)task;
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	int w = starpu_worker_get_id();
	if (w < 0 || su->worker_unit[w] < 0)
		return;
	double d = now_s() - su->started[w];
	int u = su->worker_unit[w];
	STARPU_PTHREAD_MUTEX_LOCK(&su->lock);
	su->task_s[u] = su->task_s[u] > 0 ? 0.8 * su->task_s[u] + 0.2 * d : d;
	STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
}

struct starpu_sched_policy tuccompi_sched_ms_tail = {
	.init_sched = _tuccompi_sched_init,
	.deinit_sched = _tuccompi_sched_deinit,
	.add_workers = _tuccompi_sched_workers_changed,
	.remove_workers = _tuccompi_sched_workers_changed,
	.push_task = _tuccompi_sched_push_central,
	.pop_task = pop_task_ms_tail,
	.pre_exec_hook = pre_exec_ms_tail,
	.post_exec_hook = post_exec_ms_tail,
	.policy_name = "tuccompi-ms-tail",
	.policy_description = "MS that leaves the last tasks to faster units when they would finish them first",
	.worker_type = STARPU_WORKER_LIST,
};

const struct tuccompi_policy tuccompi_policy_ms_tail = {
	.name = "ms-tail",
	.description = "master-slave; at the end of a set, slow units leave tasks that faster units would finish first",
	.dynamic = 1,
	.master = 0,
	.sched = &tuccompi_sched_ms_tail,
};
