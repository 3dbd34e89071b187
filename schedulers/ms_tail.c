/* MS-TAIL: the master-slave policy that also watches the end of the task set. Units take
 * work on demand as in MS, except that a unit declines a job when the faster units would
 * finish everything that is left before it could finish that job (its batch): at the end of a
 * set, a CPU core no longer takes tasks that a GPU many times faster would run at once.
 * Unlike MS, a unit may therefore be idle while tasks remain; MS keeps the paper's rule.
 * Across ranks the same rule runs on the MS master (TUCCOMPI_POLICY_RANK_TAIL, lib/ms_ranks.c): a rank
 * whose fastest kind of unit is at least twice slower per task than other ranks' stops being given
 * tasks when those ranks would start everything left before it finished one job.
 * Built from the public pieces of <tuccompi_sched.h>, like a user's own policy would be; it
 * asks the library (TUCCOMPI_POLICY_HEARS_REMAINING) how many tasks are still to start. */
#include <stdlib.h>
#include <string.h>

#include "sched.h"

/* Per unit: running means of the seconds one of its workers needs per task and of the tasks
 * its jobs carry; per worker: when its current job began. */
struct tail_data
{
	double task_s[STARPU_NMAXWORKERS];
	double job_tasks[STARPU_NMAXWORKERS];
	double started[STARPU_NMAXWORKERS];
	/* whose tasks they measure: each task set has a codelet of its own, and a context serves
	 * one set after another (timings of another set's tasks misled the rule) */
	const struct starpu_codelet *cl;
};

/* Would the units much faster than @u (at least twice, and able to run @t) start everything
 * that is left before @u finishes the job it would take (a batch: the tasks its jobs carry, at
 * most what is left)? Taking it helps only if it ends before they would finish without it.
 * Judging one task instead would let a slow unit take a whole batch that the faster units would
 * have finished with everything else before it, and the set would wait for it. Only faster
 * units count: otherwise units of equal speed would each leave the last task to the other, and
 * nobody would run it; the fastest units never decline. Needs measured task times. */
static int faster_units_finish_first(struct tuccompi_sched *s, int u, struct starpu_task *t)
{
	struct tail_data *d = s->policy_data;
	double mine = d->task_s[u], rate = 0;
	if (mine <= 0 || t->cl != d->cl)
		return 0;
	double left = (double)tuccompi_sched_remaining(t->sched_ctx);
	double job = d->job_tasks[u] > 1 ? d->job_tasks[u] : 1;
	if (job > left)
		job = left > 1 ? left : 1;
	for (int k = 0; k < s->nunits; k++)
	{
		if (k == u || d->task_s[k] <= 0 || 2 * d->task_s[k] > mine || !tuccompi_sched_unit_can_run(&s->units[k], t))
			continue;
		rate += s->units[k].u.nworkers / d->task_s[k];
	}
	if (rate <= 0)
		return 0;
	return left / rate < job * mine;
}

static struct starpu_task *pop_task_ms_tail(unsigned sched_ctx_id)
{
	return tuccompi_sched_pop_central(sched_ctx_id, faster_units_finish_first);
}

static void init_ms_tail(unsigned sched_ctx_id)
{
	tuccompi_sched_init(sched_ctx_id);
	struct tail_data *d = calloc(1, sizeof(*d));
	STARPU_ASSERT_MSG(d, "out of memory for MS-TAIL's timings");
	tuccompi_sched_get(sched_ctx_id)->policy_data = d;
}

static void deinit_ms_tail(unsigned sched_ctx_id)
{
	free(tuccompi_sched_get(sched_ctx_id)->policy_data);
	tuccompi_sched_deinit(sched_ctx_id);
}

static void pre_exec_ms_tail(struct starpu_task *task, unsigned sched_ctx_id)
{
	(void)task;
	struct tail_data *d = tuccompi_sched_get(sched_ctx_id)->policy_data;
	int w = starpu_worker_get_id();
	if (w >= 0)
		d->started[w] = tuccompi_wtime();
}

static void post_exec_ms_tail(struct starpu_task *task, unsigned sched_ctx_id)
{
	struct tuccompi_sched *s = tuccompi_sched_get(sched_ctx_id);
	struct tail_data *d = s->policy_data;
	int w = starpu_worker_get_id();
	if (w < 0 || s->worker_unit[w] < 0)
		return;
	/* A batch carries several tasks (known once it has run): time per task. */
	unsigned weight = tuccompi_sched_task_weight(task);
	if (weight == 0)
		return;
	double per_task = (tuccompi_wtime() - d->started[w]) / weight;
	int u = s->worker_unit[w];
	STARPU_PTHREAD_MUTEX_LOCK(&s->lock);
	if (task->cl != d->cl)
	{
		/* the first job of another task set */
		memset(d->task_s, 0, sizeof(d->task_s));
		memset(d->job_tasks, 0, sizeof(d->job_tasks));
		d->cl = task->cl;
	}
	d->task_s[u] = d->task_s[u] > 0 ? 0.8 * d->task_s[u] + 0.2 * per_task : per_task;
	d->job_tasks[u] = d->job_tasks[u] > 0 ? 0.8 * d->job_tasks[u] + 0.2 * weight : weight;
	STARPU_PTHREAD_MUTEX_UNLOCK(&s->lock);
}

struct starpu_sched_policy tuccompi_sched_ms_tail = {
	.init_sched = init_ms_tail,
	.deinit_sched = deinit_ms_tail,
	.add_workers = tuccompi_sched_workers_changed,
	.remove_workers = tuccompi_sched_workers_changed,
	.push_task = tuccompi_sched_push_central,
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
	.flags = TUCCOMPI_POLICY_HEARS_REMAINING | TUCCOMPI_POLICY_RANK_TAIL,
};
