/* What the schedulers of this folder share: the computational units of a scheduling
 * context (a CPU core, or a GPU whose stream workers form one unit) and a task queue
 * per unit. Internal to libtuccompi-starpu. */
#ifndef TUCCOMPI_SCHED_UNITS_H
#define TUCCOMPI_SCHED_UNITS_H

#include <starpu.h>
#include <tuccompi.h>

struct _tuccompi_sched_unit
{
	enum starpu_worker_archtype type;
	int devid;                        /* CUDA device, or the CPU worker's bind id */
	int nworkers;
	int workers[TUCCOMPI_MAX_MK];
	struct starpu_task_list queue;    /* tasks assigned to this unit, FIFO */
	unsigned long nqueued;
};

struct _tuccompi_sched_units
{
	starpu_pthread_mutex_t lock;
	unsigned next;                        /* equal share: unit of the next task */
	struct starpu_task_list central;      /* on-demand policies: one queue for all */
	unsigned long ncentral;
	unsigned long more;                   /* tasks still to come from elsewhere (MS master) */
	double task_s[STARPU_NMAXWORKERS];    /* per unit: running mean of its task times */
	double started[STARPU_NMAXWORKERS];   /* per worker: when its current task began */
	int nunits;
	struct _tuccompi_sched_unit units[STARPU_NMAXWORKERS];
	int worker_unit[STARPU_NMAXWORKERS]; /* -1: worker not in this context */
};

/* Allocate, group the context's workers into units, attach as policy data. */
__attribute__((visibility("hidden"))) struct _tuccompi_sched_units *_tuccompi_sched_units_create(unsigned sched_ctx_id);
/* Regroup after workers came or went (queued tasks follow their unit when it survives). */
__attribute__((visibility("hidden"))) void _tuccompi_sched_units_rebuild(unsigned sched_ctx_id);
__attribute__((visibility("hidden"))) void _tuccompi_sched_units_destroy(unsigned sched_ctx_id);
/* Can some worker of unit u run the task? */
__attribute__((visibility("hidden"))) int _tuccompi_sched_unit_can_run(const struct _tuccompi_sched_unit *u,
									struct starpu_task *task);
/* Wake every worker of a unit (a GPU unit's MK stream workers may all take work). */
__attribute__((visibility("hidden"))) void _tuccompi_sched_unit_wake(const struct _tuccompi_sched_unit *u);

/* StarPU hooks shared by the policies of this folder. */
__attribute__((visibility("hidden"))) void _tuccompi_sched_init(unsigned sched_ctx_id);
__attribute__((visibility("hidden"))) void _tuccompi_sched_deinit(unsigned sched_ctx_id);
__attribute__((visibility("hidden"))) void _tuccompi_sched_workers_changed(unsigned sched_ctx_id, int *workerids,
									   unsigned nworkers);
/* Equal share: the k-th task pushed goes to the k-th unit able to run it, in turn. */
__attribute__((visibility("hidden"))) int _tuccompi_sched_push_equal(struct starpu_task *task);
/* One queue for all units: push wakes the units that can run the task; a worker takes the
 * oldest task it can run, unless @decline (may be NULL) says its unit should leave it. */
__attribute__((visibility("hidden"))) int _tuccompi_sched_push_central(struct starpu_task *task);
__attribute__((visibility("hidden"))) struct starpu_task *
_tuccompi_sched_pop_central(unsigned sched_ctx_id,
			    int (*decline)(struct _tuccompi_sched_units *su, int unit, struct starpu_task *task));
/* A worker takes the oldest task of its own unit. */
__attribute__((visibility("hidden"))) struct starpu_task *_tuccompi_sched_pop_unit(unsigned sched_ctx_id);

#endif
