/* MS (TuCCompi's master-slave policy), inside a node: units take work when they are
 * idle, so faster units do more. A GPU unit runs MK tasks at once: each of its MK
 * stream workers takes the next task as soon as its own is done, which keeps the
 * GPU's pack full instead of waiting for the slowest of the pack. Across nodes the
 * library's master rank hands out packs of task ids (lib/ms_ranks.c). */
#include "sched.h"

static struct starpu_task *pop_task_ms(unsigned sched_ctx_id)
{
	return tuccompi_sched_pop_central(sched_ctx_id, NULL);
}

struct starpu_sched_policy tuccompi_sched_ms = {
	.init_sched = tuccompi_sched_init,
	.deinit_sched = tuccompi_sched_deinit,
	.add_workers = tuccompi_sched_workers_changed,
	.remove_workers = tuccompi_sched_workers_changed,
	.push_task = tuccompi_sched_push_central,
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
