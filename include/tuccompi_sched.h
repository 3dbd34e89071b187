/*
 * Building blocks for StarPU scheduling policies of one's own, the ones EQ1, EQ2, MS and
 * MS-TAIL are made of (schedulers/ in the source tree; examples/cpu_last.c is a policy
 * built from them against the installed headers).
 *
 * TuCCompi counts computational units, not StarPU workers: every CPU worker is a unit, and
 * the stream workers of one GPU together are one unit running MK tasks at once. The pieces:
 *
 *   - tuccompi_units_group(): StarPU workers -> units (the one grouping the library uses);
 *   - struct tuccompi_sched: the units of a scheduling context, a FIFO queue per unit and a
 *     central queue, attached as the context's policy data by tuccompi_sched_init();
 *   - push/pop hooks: "equal" (each task to the unit with the fewest tasks so far, counted in
 *     the library's tasks, so batches weigh what they carry) and "central" (any unit takes the
 *     oldest task it can run, unless the policy's decline function says it should leave it);
 *   - what the library tells a policy: tuccompi_sched_task_weight() and, for policies whose
 *     tuccompi_policy::flags has TUCCOMPI_POLICY_HEARS_REMAINING, struct tuccompi_sched::remaining.
 *
 * A policy struct fills struct starpu_sched_policy with these hooks (or its own) and
 * sets .worker_type = STARPU_WORKER_LIST. Read include/starpu_scheduler.h for the contract
 * of each StarPU hook.
 */
#ifndef TUCCOMPI_SCHED_H
#define TUCCOMPI_SCHED_H

#include <starpu.h>
#include <tuccompi.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A computational unit: a CPU worker, or the stream workers of one GPU. */
struct tuccompi_unit
{
	enum tuccompi_unit_kind kind;
	int index;                    /**< CPU: the worker's bind id; CUDA: the device id */
	int nworkers;                 /**< CPU: 1; CUDA: its stream workers in the set grouped */
	int workers[TUCCOMPI_MAX_MK]; /**< StarPU worker ids */
};

/** Group @p nworkers StarPU workers into units (workers of other kinds are left out), at
 *  most @p max_units; @p worker_unit (STARPU_NMAXWORKERS entries, may be NULL) gets each
 *  worker's unit index or -1. Returns the number of units. */
TUCCOMPI_API int tuccompi_units_group(const int *workers, int nworkers, struct tuccompi_unit *units, int max_units,
				      int *worker_unit);

/** A unit of a scheduling context, with its queue. */
struct tuccompi_sched_unit
{
	struct tuccompi_unit u;
	struct starpu_task_list queue; /**< tasks given to this unit, FIFO */
	uint64_t assigned;             /**< tasks (by weight) given to it so far */
};

/** Tasks of the current task set of scheduling context @p sched_ctx_id not started yet: this rank's
 *  own plus, for dynamic policies, what the master still has. The library keeps it up to date for
 *  policies with TUCCOMPI_POLICY_HEARS_REMAINING (what it knows of a context, behind this getter: a
 *  policy's own data is the policy's); cheap enough for every pop. */
TUCCOMPI_API unsigned long tuccompi_sched_remaining(unsigned sched_ctx_id);

/** The policy data of a context run by these pieces. Fields are read under @c lock. */
struct tuccompi_sched
{
	starpu_pthread_mutex_t lock;
	struct starpu_task_list central; /**< "central" policies: one queue for every unit */
	unsigned long ncentral;
	int nunits;
	struct tuccompi_sched_unit units[STARPU_NMAXWORKERS];
	int worker_unit[STARPU_NMAXWORKERS]; /**< -1: the worker is not in this context */
	void *policy_data;                   /**< free for the policy built on top */
};

/** The struct tuccompi_sched of a context (NULL if the context is not run by these pieces). */
TUCCOMPI_API struct tuccompi_sched *tuccompi_sched_get(unsigned sched_ctx_id);

/* StarPU hooks, usable as they are in a struct starpu_sched_policy. */
TUCCOMPI_API void tuccompi_sched_init(unsigned sched_ctx_id);
TUCCOMPI_API void tuccompi_sched_deinit(unsigned sched_ctx_id);
/** add_workers / remove_workers: regroup the units; queued tasks stay with their unit when it
 *  survives, else go to the first unit that can run them. */
TUCCOMPI_API void tuccompi_sched_workers_changed(unsigned sched_ctx_id, int *workerids, unsigned nworkers);
/** Push to the unit able to run the task that has been given the fewest tasks so far (ties:
 *  in turn); wakes that unit's workers. */
TUCCOMPI_API int tuccompi_sched_push_equal(struct starpu_task *task);
/** Pop the oldest task of the calling worker's unit. */
TUCCOMPI_API struct starpu_task *tuccompi_sched_pop_unit(unsigned sched_ctx_id);
/** Push to the central queue; wakes one idle worker of each unit able to run it (a worker
 *  that is busy finds the task at its next pop). */
TUCCOMPI_API int tuccompi_sched_push_central(struct starpu_task *task);

/** Asked by tuccompi_sched_pop_central() before worker unit @p unit takes @p task (lock held):
 *  nonzero leaves the task to other units. */
typedef int (*tuccompi_sched_decline_func)(struct tuccompi_sched *s, int unit, struct starpu_task *task);
/** Pop the oldest task of the central queue the calling worker can run, unless @p decline
 *  (may be NULL) says no. */
TUCCOMPI_API struct starpu_task *tuccompi_sched_pop_central(unsigned sched_ctx_id, tuccompi_sched_decline_func decline);

/** Can unit @p su run @p task (asks StarPU about its first worker)? */
TUCCOMPI_API int tuccompi_sched_unit_can_run(const struct tuccompi_sched_unit *su, struct starpu_task *task);

/** How many of the library's tasks a StarPU task carries: the size of a batch whose tasks are
 *  chosen at submission, 0 for a batch that takes its tasks when it starts (until it has run),
 *  1 for any task not made by the library. */
TUCCOMPI_API unsigned tuccompi_sched_task_weight(const struct starpu_task *task);

#ifdef __cplusplus
}
#endif

#endif /* TUCCOMPI_SCHED_H */
