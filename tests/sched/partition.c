/* The 1st-layer rules of EQ1 and EQ2 on uneven clusters, without starting StarPU:
 * exact counts per rank, sums, ranks without a usable unit, CPU-only plug-ins; the policies by name. */
#include <errno.h>
#include <tuccompi.h>

#include "testutil.h"

static uint64_t sum(const uint64_t *c, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++)
		s += c[i];
	return s;
}

int main(void)
{
	/* rank 0: 15 cores + 1 GPU; rank 1: 4 cores; rank 2: GPU only; rank 3: 2 cores */
	struct tuccompi_node_info nodes[] = { { 15, 1, 4 }, { 4, 0, 1 }, { 0, 1, 4 }, { 2, 0, 1 } };
	struct tuccompi_cluster c = { .nranks = 4, .nodes = nodes, .use_cpu = 1, .use_cuda = 1 };
	uint64_t count[4];

	/* EQ1: same per node */
	ASSERT_OK(tuccompi_partition_eq1(&c, 1003, count, NULL));
	ASSERT_EQ(count[0], 251);
	ASSERT_EQ(count[1], 251);
	ASSERT_EQ(count[2], 251);
	ASSERT_EQ(count[3], 250);

	/* EQ2: units 16, 4, 1, 2 = 23; 1003 = 23*43 + 14: the first 14 units get 44 */
	ASSERT_OK(tuccompi_partition_eq2(&c, 1003, count, NULL));
	ASSERT_EQ(count[0], 14 * 44 + 2 * 43);
	ASSERT_EQ(count[1], 4 * 43);
	ASSERT_EQ(count[2], 43);
	ASSERT_EQ(count[3], 2 * 43);
	ASSERT_EQ(sum(count, 4), 1003);

	/* A CPU-only plug-in: the GPU-only rank gets nothing under both rules. */
	c.use_cuda = 0;
	ASSERT_OK(tuccompi_partition_eq1(&c, 10, count, NULL));
	ASSERT_EQ(count[2], 0);
	ASSERT_EQ(count[0] + count[1] + count[3], 10);
	ASSERT_EQ(count[0], 4);
	ASSERT_EQ(count[3], 3);
	ASSERT_OK(tuccompi_partition_eq2(&c, 21, count, NULL));
	ASSERT_EQ(count[0], 15);
	ASSERT_EQ(count[1], 4);
	ASSERT_EQ(count[2], 0);
	ASSERT_EQ(count[3], 2);

	/* Fewer tasks than units. */
	c.use_cuda = 1;
	ASSERT_OK(tuccompi_partition_eq2(&c, 3, count, NULL));
	ASSERT_EQ(count[0], 3);
	ASSERT_EQ(sum(count, 4), 3);
	ASSERT_OK(tuccompi_partition_eq1(&c, 0, count, NULL));
	ASSERT_EQ(sum(count, 4), 0);

	/* Nobody can run it. */
	struct tuccompi_node_info gpu_only[] = { { 0, 1, 4 } };
	struct tuccompi_cluster c2 = { .nranks = 1, .nodes = gpu_only, .use_cpu = 1, .use_cuda = 0 };
	ASSERT_EQ(tuccompi_partition_eq1(&c2, 5, count, NULL), -ENODEV);
	ASSERT_EQ(tuccompi_partition_eq2(&c2, 5, count, NULL), -ENODEV);

	/* Names. */
	ASSERT(tuccompi_policy_by_name("EQ1") == &tuccompi_policy_eq1);
	ASSERT(tuccompi_policy_by_name("ms") == &tuccompi_policy_ms);
	ASSERT(tuccompi_policy_by_name("dmda") != NULL);
	ASSERT(tuccompi_policy_by_name("no-such-policy") == NULL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "unknown policy 'no-such-policy'");
	/* the message lists the library's table, as it always did */
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "use eq1, eq2, ms, ms-tail, or a StarPU policy:");
	/* a name in any case, with '_' for '-' (the C name's spelling), and nothing looser */
	ASSERT(tuccompi_policy_by_name("ms-tail") == &tuccompi_policy_ms_tail);
	ASSERT(tuccompi_policy_by_name("MS_Tail") == &tuccompi_policy_ms_tail);
	ASSERT(tuccompi_policy_by_name("ms-tai") == NULL);
	ASSERT(tuccompi_policy_by_name("ms-tail-") == NULL);
	ASSERT(tuccompi_sched_policy("tuccompi-ms") != NULL);
	ASSERT(tuccompi_sched_policy("tuccompi-ms-tail") == tuccompi_policy_ms_tail.sched);
	ASSERT(tuccompi_sched_policy("eager") == NULL);
	printf("partition rules ok\n");
	return 0;
}
