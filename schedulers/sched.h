/* The interface between the library's core (lib/) and its schedulers (this folder).
 *
 *   core -> schedulers: the public tuccompi_policy structs each file ends with (lib/policy.c's
 *                       table; the core reads their fields and flags, never their names) and
 *                       the public pieces of <tuccompi_sched.h> (units, queues, hooks);
 *   schedulers -> core: tuccompi_units_group() and tuccompi_sched_task_weight(), public too.
 *
 * A policy tells the core what it needs through tuccompi_policy::flags, never by identity. */
#ifndef TUCCOMPI_SCHEDULERS_SCHED_H
#define TUCCOMPI_SCHEDULERS_SCHED_H

#include <starpu.h>
#include <tuccompi.h>
#include <tuccompi_sched.h>

#define TUCCOMPI_SCHED_INTERNAL __attribute__((visibility("hidden")))

/* The StarPU policies of this folder, one per file. */
extern TUCCOMPI_SCHED_INTERNAL struct starpu_sched_policy tuccompi_sched_eq1, tuccompi_sched_eq2, tuccompi_sched_ms,
	tuccompi_sched_ms_tail;

#endif
