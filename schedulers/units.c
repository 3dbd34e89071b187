/* Computational units of a StarPU scheduling context, as TuCCompi counts them:
 * every CPU worker is a unit; the stream workers of one CUDA device together are one
 * unit (the GPU), which runs MK tasks at once. */
#include "units.h"

#include <stdlib.h>
#include <string.h>

static void group(unsigned sched_ctx_id, struct _tuccompi_sched_units *su)
{
	struct starpu_worker_collection *workers = starpu_sched_ctx_get_worker_collection(sched_ctx_id);
	struct starpu_sched_ctx_iterator it;

	su->nunits = 0;
	for (int w = 0; w < STARPU_NMAXWORKERS; w++)
		su->worker_unit[w] = -1;
	workers->init_iterator(workers, &it);
	while (workers->has_next(workers, &it))
	{
		int w = (int)workers->get_next(workers, &it);
		enum starpu_worker_archtype type = starpu_worker_get_type(w);
		int devid = type == STARPU_CPU_WORKER ? starpu_worker_get_bindid(w) : starpu_worker_get_devid(w);
		int k = su->nunits;
		if (type != STARPU_CPU_WORKER)
			for (k = 0; k < su->nunits; k++)
				if (su->units[k].type == type && su->units[k].devid == devid)
					break;
		struct _tuccompi_sched_unit *u = &su->units[k];
		if (k == su->nunits)
		{
			u->type = type;
			u->devid = devid;
			u->nworkers = 0;
			starpu_task_list_init(&u->queue);
			u->nqueued = 0;
			su->nunits++;
		}
		if (u->nworkers < TUCCOMPI_MAX_MK)
		{
			u->workers[u->nworkers++] = w;
			su->worker_unit[w] = k;
		}
	}
}

struct _tuccompi_sched_units *_tuccompi_sched_units_create(unsigned sched_ctx_id)
{
	struct _tuccompi_sched_units *su = calloc(1, sizeof(*su));
	STARPU_ASSERT_MSG(su, "out of memory for the scheduler's unit table");
	STARPU_PTHREAD_MUTEX_INIT(&su->lock, NULL);
	group(sched_ctx_id, su);
	starpu_sched_ctx_set_policy_data(sched_ctx_id, su);
	return su;
}

void _tuccompi_sched_units_rebuild(unsigned sched_ctx_id)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	STARPU_PTHREAD_MUTEX_LOCK(&su->lock);
	/* Keep queued tasks: park them, regroup, then hand them back to the same
	 * (type, devid) unit, or to the first unit that can run them. */
	struct starpu_task_list parked;
	starpu_task_list_init(&parked);
	for (int k = 0; k < su->nunits; k++)
		while (!starpu_task_list_empty(&su->units[k].queue))
			starpu_task_list_push_back(&parked, starpu_task_list_pop_front(&su->units[k].queue));
	group(sched_ctx_id, su);
	while (!starpu_task_list_empty(&parked))
	{
		struct starpu_task *t = starpu_task_list_pop_front(&parked);
		int k;
		for (k = 0; k < su->nunits; k++)
			if (_tuccompi_sched_unit_can_run(&su->units[k], t))
				break;
		STARPU_ASSERT_MSG(k < su->nunits, "a worker left the context and no remaining unit can run task %s",
				  starpu_task_get_name(t));
		starpu_task_list_push_back(&su->units[k].queue, t);
		su->units[k].nqueued++;
	}
	STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
}

void _tuccompi_sched_units_destroy(unsigned sched_ctx_id)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	for (int k = 0; k < su->nunits; k++)
		STARPU_ASSERT_MSG(starpu_task_list_empty(&su->units[k].queue),
				  "scheduling context %u destroyed with tasks still queued", sched_ctx_id);
	STARPU_PTHREAD_MUTEX_DESTROY(&su->lock);
	free(su);
}

int _tuccompi_sched_unit_can_run(const struct _tuccompi_sched_unit *u, struct starpu_task *task)
{
	/* All workers of a unit are alike: asking the first is enough. */
	return u->nworkers > 0 && starpu_worker_can_execute_task_first_impl((unsigned)u->workers[0], task, NULL);
}

void _tuccompi_sched_unit_wake(const struct _tuccompi_sched_unit *u)
{
	for (int i = 0; i < u->nworkers; i++)
		starpu_wake_worker_relax_light(u->workers[i]);
}

void _tuccompi_sched_init(unsigned sched_ctx_id)
{
	struct _tuccompi_sched_units *su = _tuccompi_sched_units_create(sched_ctx_id);
	starpu_task_list_init(&su->central);
}

void _tuccompi_sched_deinit(unsigned sched_ctx_id)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	STARPU_ASSERT_MSG(starpu_task_list_empty(&su->central), "scheduling context %u destroyed with tasks queued",
			  sched_ctx_id);
	_tuccompi_sched_units_destroy(sched_ctx_id);
}

void _tuccompi_sched_workers_changed(unsigned sched_ctx_id, int *workerids, unsigned nworkers)
{
	(void)workerids;
	(void)nworkers;
	_tuccompi_sched_units_rebuild(sched_ctx_id);
}

/* pop_task runs with the worker's own scheduling mutex held: let pushers reach this worker
 * while it waits for the policy's lock, as StarPU's own policies do. */
static void lock_for_pop(struct _tuccompi_sched_units *su)
{
	starpu_worker_relax_on();
	STARPU_PTHREAD_MUTEX_LOCK(&su->lock);
	starpu_worker_relax_off();
}

int _tuccompi_sched_push_equal(struct starpu_task *task)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(task->sched_ctx);
	STARPU_PTHREAD_MUTEX_LOCK(&su->lock);
	int chosen = -1;
	for (int i = 0; i < su->nunits; i++)
	{
		int k = (int)((su->next + (unsigned)i) % (unsigned)su->nunits);
		if (_tuccompi_sched_unit_can_run(&su->units[k], task))
		{
			chosen = k;
			break;
		}
	}
	if (chosen < 0)
	{
		STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
		return -ENODEV;
	}
	su->next = (unsigned)chosen + 1;
	struct _tuccompi_sched_unit *u = &su->units[chosen];
	starpu_task_list_push_back(&u->queue, task);
	u->nqueued++;
	starpu_push_task_end(task);
	STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
	_tuccompi_sched_unit_wake(u);
	return 0;
}

struct starpu_task *_tuccompi_sched_pop_unit(unsigned sched_ctx_id)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	int w = starpu_worker_get_id_check();
	int k = su->worker_unit[w];
	if (k < 0)
		return NULL;
	struct _tuccompi_sched_unit *u = &su->units[k];
#ifdef STARPU_NON_BLOCKING_DRIVERS
	/* Racy peek, as StarPU's own policies do: a worker that misses a task
	 * pushed right now is woken by the push. */
	if (starpu_task_list_empty(&u->queue))
		return NULL;
#endif
	struct starpu_task *task = NULL;
	lock_for_pop(su);
	if (!starpu_task_list_empty(&u->queue))
	{
		task = starpu_task_list_pop_front(&u->queue);
		u->nqueued--;
	}
	STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
	return task;
}

void _tuccompi_sched_set_more(unsigned sched_ctx_id, unsigned long more)
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	if (su)
		__atomic_store_n(&su->more, more, __ATOMIC_RELAXED);
}

int _tuccompi_sched_push_central(struct starpu_task *task)
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

struct starpu_task *_tuccompi_sched_pop_central(unsigned sched_ctx_id,
						int (*decline)(struct _tuccompi_sched_units *, int, struct starpu_task *))
{
	struct _tuccompi_sched_units *su = starpu_sched_ctx_get_policy_data(sched_ctx_id);
	int w = starpu_worker_get_id_check();
#ifdef STARPU_NON_BLOCKING_DRIVERS
	if (starpu_task_list_empty(&su->central))
		return NULL;
#endif
	struct starpu_task *task = NULL;
	lock_for_pop(su);
	int u = su->worker_unit[w];
	/* Oldest task this worker can run (a CPU-only task is left for a CPU core). */
	for (struct starpu_task *t = starpu_task_list_begin(&su->central); t != starpu_task_list_end(&su->central);
	     t = starpu_task_list_next(t))
		if (starpu_worker_can_execute_task_first_impl((unsigned)w, t, NULL))
		{
			if (decline && u >= 0 && decline(su, u, t))
				break;
			starpu_task_list_erase(&su->central, t);
			su->ncentral--;
			task = t;
			break;
		}
	STARPU_PTHREAD_MUTEX_UNLOCK(&su->lock);
	return task;
}
