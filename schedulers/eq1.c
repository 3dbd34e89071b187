/* EQ1 (TuCCompi's first equitable policy): the same number of tasks to every node,
 * then each node splits its share equally among its own computational units
 * (CPU cores and GPUs alike, whatever their speed). */
#include "sched.h"

#include <errno.h>

/* 1st layer: ranks that have a unit able to run the plug-in get N/R tasks each,
 * the first N mod R of them one more. A rank with no such unit gets none. */
int tuccompi_partition_eq1(const struct tuccompi_cluster *cluster, uint64_t ntasks, uint64_t *count, void *arg)
{
	(void)arg;
	uint64_t nodes = 0;
	for (int r = 0; r < cluster->nranks; r++)
	{
		const struct tuccompi_node_info *n = &cluster->nodes[r];
		count[r] = 0;
		nodes += (cluster->use_cpu && n->ncpu_units) || (cluster->use_cuda && n->ncuda_units);
	}
	if (nodes == 0)
		return -ENODEV;
	uint64_t k = 0;
	for (int r = 0; r < cluster->nranks; r++)
	{
		const struct tuccompi_node_info *n = &cluster->nodes[r];
		if ((cluster->use_cpu && n->ncpu_units) || (cluster->use_cuda && n->ncuda_units))
			count[r] = ntasks / nodes + (k++ < ntasks % nodes);
	}
	return 0;
}

/* 2nd layer: equal share per unit (schedulers/pieces.c). */
struct starpu_sched_policy tuccompi_sched_eq1 = {
	.init_sched = tuccompi_sched_init,
	.deinit_sched = tuccompi_sched_deinit,
	.add_workers = tuccompi_sched_workers_changed,
	.remove_workers = tuccompi_sched_workers_changed,
	.push_task = tuccompi_sched_push_equal,
	.pop_task = tuccompi_sched_pop_unit,
	.policy_name = "tuccompi-eq1",
	.policy_description = "TuCCompi EQ1: equal tasks per node, then equal per unit (CPU core or GPU)",
	.worker_type = STARPU_WORKER_LIST,
};

const struct tuccompi_policy tuccompi_policy_eq1 = {
	.name = "eq1",
	.description = "equal tasks per node, then equal per unit within the node",
	.partition = tuccompi_partition_eq1,
	.sched = &tuccompi_sched_eq1,
	.flags = TUCCOMPI_POLICY_UNIT_SHARES,
};
