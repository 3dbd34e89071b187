/* MS (TuCCompi's master-slave policy), inside a node: units take work when they are
 * idle, so faster units do more. A GPU unit runs MK tasks at once: each of its MK
 * stream workers takes the next task as soon as its own is done, which keeps the
 * GPU's pack full instead of waiting for the slowest of the pack. Across nodes the
 * library's master rank hands out packs of task ids (lib/comm.c). */
#include "units.h"

static int push_task_ms(struct starpu_task *task)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(task->sched_ctx);
	/* Which units to wake is decided before the task is visible: once the lock is
	 * released a worker may take it, run it and free it. */
	char wake[STARPU_NMAXWORKERS];
	STARPU_PTHREAD_MUTEX_LOCK(&su->lock);
	int nunits = su->nunits;
	for (int k = 0; k < nunits; k++)
		wake[k] = (char)_tuccompi_sched_unit_can_run(&su->units[k], task);
	starpu_task_list_push_back(&su->central, task);
	su->ncentral++;
	starpu_push_task_end(task);
	STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
	for (int k = 0; k < nunits; k++)
		if (wake[k])
			_tuccompi_sched_unit_wake(&su->units[k]);
	return 0;
}

static struct starpu_task *pop_task_ms(unsigned sched_ctx_id)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	int w = starpu_worker_get_id_check();
#ifdef STARPU_NON_BLOCKING_DRIVERS
	if (starpu_task_list_empty(&su->central))
		return NULL;
#endif
	struct starpu_task *task = NULL;
	starpu_worker_relax_on();
	STARPU_PTHREAD_MUTEX_LOCK(&su->lock);
	starpu_worker_relax_off();
	/* Oldest task this worker can run (a CPU-only task is left for a CPU core). */
	for (struct starpu_task *t = starpu_task_list_begin(&su->central); t != starpu_task_list_end(&su->central);
	     t = starpu_task_list_next(t))
		if (starpu_worker_can_execute_task_first_impl((unsigned)w, t, NULL))
		{
			starpu_task_list_erase(&su->central, t);
			su->ncentral--;
			task = t;
			break;
		}
	STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
	return task;
}

struct starpu_sched_policy tuccompi_sched_ms = {
	.init_sched = _tuccompi_sched_init,
	.deinit_sched = _tuccompi_sched_deinit,
	.add_workers = _tuccompi_sched_workers_changed,
	.remove_workers = _tuccompi_sched_workers_changed,
	.push_task = push_task_ms,
	.pop_task = pop_task_ms,
	.policy_name = "tuccompi-ms",
	.policy_description = "TuCCompi MS: idle units take work on demand (a GPU keeps MK tasks in flight)",
	.worker_type = STARPU_WORKER_LIST,
};

const struct tuccompi_policy tuccompi_policy_ms = {
	.name = "ms",
	.description = "master-slave: idle units ask for work (MK tasks per GPU, 1 per CPU core); ranks ask the master",
	.dynamic = 1,
	.master = 0,
	.sched = &tuccompi_sched_ms,
};
