/* EQ2 (TuCCompi's second equitable policy): the task set is divided straight between
 * the computational units of the whole cluster, whatever their nature. */
#include "sched.h"

#include <errno.h>

static int eligible_units(const struct tuccompi_cluster *cluster, int r)
{
	const struct tuccompi_node_info *n = &cluster->nodes[r];
	return (cluster->use_cpu ? n->ncpu_units : 0) + (cluster->use_cuda ? n->ncuda_units : 0);
}

/* 1st layer: unit g of the cluster (ranks in order) gets N/U tasks, the first N mod U
 * units one more; a rank gets the sum over its units. Inside the rank the equal
 * round-robin of the units hands the same counts back out. */
int tuccompi_partition_eq2(const struct tuccompi_cluster *cluster, uint64_t ntasks, uint64_t *count, void *arg)
{
	(void)arg;
	uint64_t units = 0;
	for (int r = 0; r < cluster->nranks; r++)
		units += (uint64_t)eligible_units(cluster, r);
	if (units == 0)
		return -ENODEV;
	uint64_t g = 0;
	for (int r = 0; r < cluster->nranks; r++)
	{
		count[r] = 0;
		for (int u = eligible_units(cluster, r); u > 0; u--, g++)
			count[r] += ntasks / units + (g < ntasks % units);
	}
	return 0;
}

/* 2nd layer: equal share per unit (schedulers/pieces.c), as in EQ1. */
struct starpu_sched_policy tuccompi_sched_eq2 = {
	.init_sched = tuccompi_sched_init,
	.deinit_sched = tuccompi_sched_deinit,
	.add_workers = tuccompi_sched_workers_changed,
	.remove_workers = tuccompi_sched_workers_changed,
	.push_task = tuccompi_sched_push_equal,
	.pop_task = tuccompi_sched_pop_unit,
	.policy_name = "tuccompi-eq2",
	.policy_description = "TuCCompi EQ2: equal tasks per unit of the whole cluster",
	.worker_type = STARPU_WORKER_LIST,
};

const struct tuccompi_policy tuccompi_policy_eq2 = {
	.name = "eq2",
	.description = "equal tasks per unit (CPU core or GPU) over the whole cluster",
	.partition = tuccompi_partition_eq2,
	.sched = &tuccompi_sched_eq2,
	.flags = TUCCOMPI_POLICY_UNIT_SHARES,
};
