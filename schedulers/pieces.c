/* The pieces the schedulers of this folder are made of (include/tuccompi_sched.h): the units
 * of a scheduling context with a queue each, a central queue, and push/pop hooks over them.
 * They are public so that a user's own policy can be built from them. */
#include <stdlib.h>
#include <string.h>

#include "sched.h"

struct tuccompi_sched *tuccompi_sched_get(unsigned sched_ctx_id)
{
	return starpu_sched_ctx_get_policy_data(sched_ctx_id);
}

/* Regroup the context's workers into units (tuccompi_units_group, the library's one grouping). */
static void group(unsigned sched_ctx_id, struct tuccompi_sched *s)
{
	struct starpu_worker_collection *workers = starpu_sched_ctx_get_worker_collection(sched_ctx_id);
	struct starpu_sched_ctx_iterator it;
	int ids[STARPU_NMAXWORKERS], n = 0;
	workers->init_iterator(workers, &it);
	while (workers->has_next(workers, &it) && n < STARPU_NMAXWORKERS)
		ids[n++] = (int)workers->get_next(workers, &it);
	struct tuccompi_unit units[STARPU_NMAXWORKERS];
	s->nunits = tuccompi_units_group(ids, n, units, STARPU_NMAXWORKERS, s->worker_unit);
	for (int k = 0; k < s->nunits; k++)
	{
		s->units[k].u = units[k];
		starpu_task_list_init(&s->units[k].queue);
		s->units[k].assigned = 0;
	}
}

void tuccompi_sched_init(unsigned sched_ctx_id)
{
	struct tuccompi_sched *s = calloc(1, sizeof(*s));
	STARPU_ASSERT_MSG(s, "out of memory for the scheduler's unit table");
	STARPU_PTHREAD_MUTEX_INIT(&s->lock, NULL);
	starpu_task_list_init(&s->central);
	group(sched_ctx_id, s);
	starpu_sched_ctx_set_policy_data(sched_ctx_id, s);
}

void tuccompi_sched_deinit(unsigned sched_ctx_id)
{
	struct tuccompi_sched *s = tuccompi_sched_get(sched_ctx_id);
	STARPU_ASSERT_MSG(starpu_task_list_empty(&s->central), "scheduling context %u destroyed with tasks queued",
			  sched_ctx_id);
	for (int k = 0; k < s->nunits; k++)
		STARPU_ASSERT_MSG(starpu_task_list_empty(&s->units[k].queue),
				  "scheduling context %u destroyed with tasks still queued", sched_ctx_id);
	STARPU_PTHREAD_MUTEX_DESTROY(&s->lock);
	free(s);
}

void tuccompi_sched_workers_changed(unsigned sched_ctx_id, int *workerids, unsigned nworkers)
{
	(void)workerids;
	(void)nworkers;
	struct tuccompi_sched *s = tuccompi_sched_get(sched_ctx_id);
	STARPU_PTHREAD_MUTEX_LOCK(&s->lock);
	/* Park queued tasks, regroup, then hand each back to the same (kind, index) unit, or to
	 * the first unit that can run it. */
	struct starpu_task_list parked;
	starpu_task_list_init(&parked);
	struct tuccompi_unit old[STARPU_NMAXWORKERS];
	int *owner = NULL, nparked = 0, nold = s->nunits;
	for (int k = 0; k < nold; k++)
	{
		old[k] = s->units[k].u;
		for (struct starpu_task *t = starpu_task_list_begin(&s->units[k].queue);
		     t != starpu_task_list_end(&s->units[k].queue); t = starpu_task_list_next(t))
			nparked++;
	}
	owner = malloc((size_t)(nparked ? nparked : 1) * sizeof(int));
	STARPU_ASSERT_MSG(owner, "out of memory regrouping units");
	nparked = 0;
	for (int k = 0; k < nold; k++)
		while (!starpu_task_list_empty(&s->units[k].queue))
		{
			starpu_task_list_push_back(&parked, starpu_task_list_pop_front(&s->units[k].queue));
			owner[nparked++] = k;
		}
	group(sched_ctx_id, s);
	for (int i = 0; !starpu_task_list_empty(&parked); i++)
	{
		struct starpu_task *t = starpu_task_list_pop_front(&parked);
		int k;
		for (k = 0; k < s->nunits; k++)
			if (s->units[k].u.kind == old[owner[i]].kind && s->units[k].u.index == old[owner[i]].index)
				break;
		if (k == s->nunits || !tuccompi_sched_unit_can_run(&s->units[k], t))
			for (k = 0; k < s->nunits; k++)
				if (tuccompi_sched_unit_can_run(&s->units[k], t))
					break;
		STARPU_ASSERT_MSG(k < s->nunits, "a worker left the context and no remaining unit can run task %s",
				  starpu_task_get_name(t));
		starpu_task_list_push_back(&s->units[k].queue, t);
	}
	free(owner);
	STARPU_PTHREAD_MUTEX_UNLOCK(&s->lock);
}

int tuccompi_sched_unit_can_run(const struct tuccompi_sched_unit *su, struct starpu_task *task)
{
	/* All workers of a unit are alike: asking the first is enough. */
	return su->u.nworkers > 0 && starpu_worker_can_execute_task_first_impl((unsigned)su->u.workers[0], task, NULL);
}

/* pop_task runs with the worker's own scheduling mutex held: let pushers reach this worker
 * while it waits for the policy's lock, as StarPU's own policies do. */
static void lock_for_pop(struct tuccompi_sched *s)
{
	starpu_worker_relax_on();
	STARPU_PTHREAD_MUTEX_LOCK(&s->lock);
	starpu_worker_relax_off();
}

/* Waking wakes a single sleeping worker able to run the pushed task, as StarPU's eager does, and
 * the others find queued work at their next pop (waking every worker of every able unit costs
 * every push a wake-up per worker, most of them for nothing). */

int tuccompi_sched_push_equal(struct starpu_task *task)
{
	struct tuccompi_sched *s = tuccompi_sched_get(task->sched_ctx);
	unsigned weight = tuccompi_sched_task_weight(task);
	STARPU_PTHREAD_MUTEX_LOCK(&s->lock);
	int chosen = -1;
	for (int k = 0; k < s->nunits; k++)
		if ((chosen < 0 || s->units[k].assigned < s->units[chosen].assigned) &&
		    tuccompi_sched_unit_can_run(&s->units[k], task))
			chosen = k;
	if (chosen < 0)
	{
		STARPU_PTHREAD_MUTEX_UNLOCK(&s->lock);
		return -ENODEV;
	}
	struct tuccompi_sched_unit *su = &s->units[chosen];
	starpu_task_list_push_back(&su->queue, task);
	su->assigned += weight ? weight : 1;
	starpu_push_task_end(task);
	/* The task may run and be freed once the lock is released: wake from a copy. */
	struct tuccompi_unit u = su->u;
	STARPU_PTHREAD_MUTEX_UNLOCK(&s->lock);
	for (int i = 0; i < u.nworkers; i++)
		if (starpu_wake_worker_relax_light(u.workers[i]))
			break;
	return 0;
}

struct starpu_task *tuccompi_sched_pop_unit(unsigned sched_ctx_id)
{
	struct tuccompi_sched *s = tuccompi_sched_get(sched_ctx_id);
	int w = starpu_worker_get_id_check();
	int k = s->worker_unit[w];
	if (k < 0)
		return NULL;
	struct tuccompi_sched_unit *su = &s->units[k];
#ifdef STARPU_NON_BLOCKING_DRIVERS
	/* Racy peek, as StarPU's own policies do: a worker that misses a task pushed right now
	 * is woken by the push. */
	if (starpu_task_list_empty(&su->queue))
		return NULL;
#endif
	struct starpu_task *task = NULL;
	lock_for_pop(s);
	if (!starpu_task_list_empty(&su->queue))
		task = starpu_task_list_pop_front(&su->queue);
	STARPU_PTHREAD_MUTEX_UNLOCK(&s->lock);
	return task;
}

int tuccompi_sched_push_central(struct starpu_task *task)
{
	struct tuccompi_sched *s = tuccompi_sched_get(task->sched_ctx);
	/* Which workers may take it is decided before the task is visible: once the lock is
	 * released a worker may take it, run it and free it. */
	int cand[STARPU_NMAXWORKERS], ncand = 0;
	STARPU_PTHREAD_MUTEX_LOCK(&s->lock);
	for (int k = 0; k < s->nunits; k++)
		if (tuccompi_sched_unit_can_run(&s->units[k], task))
			for (int i = 0; i < s->units[k].u.nworkers; i++)
				cand[ncand++] = s->units[k].u.workers[i];
	starpu_task_list_push_back(&s->central, task);
	s->ncentral++;
	starpu_push_task_end(task);
	STARPU_PTHREAD_MUTEX_UNLOCK(&s->lock);
	for (int i = 0; i < ncand; i++)
		if (starpu_wake_worker_relax_light(cand[i]))
			break;
	return 0;
}

struct starpu_task *tuccompi_sched_pop_central(unsigned sched_ctx_id, tuccompi_sched_decline_func decline)
{
	struct tuccompi_sched *s = tuccompi_sched_get(sched_ctx_id);
	int w = starpu_worker_get_id_check();
#ifdef STARPU_NON_BLOCKING_DRIVERS
	if (starpu_task_list_empty(&s->central))
		return NULL;
#endif
	struct starpu_task *task = NULL;
	lock_for_pop(s);
	int u = s->worker_unit[w];
	/* Oldest task this worker can run (a CPU-only task is left for a CPU core). */
	for (struct starpu_task *t = starpu_task_list_begin(&s->central); t != starpu_task_list_end(&s->central);
	     t = starpu_task_list_next(t))
		if (starpu_worker_can_execute_task_first_impl((unsigned)w, t, NULL))
		{
			if (decline && u >= 0 && decline(s, u, t))
				break;
			starpu_task_list_erase(&s->central, t);
			s->ncentral--;
			task = t;
			break;
		}
	STARPU_PTHREAD_MUTEX_UNLOCK(&s->lock);
	if (task && u >= 0)
		__atomic_add_fetch(&s->units[u].assigned, 1, __ATOMIC_RELAXED);
	return task;
}
