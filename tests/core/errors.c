/* Mistakes of a programmer get a clear error (negative errno and a message saying how
 * to fix it), never a crash: calls before init, bad MK, bad plug-ins and task sets (results
 * without a result size, an input size without inputs, two plug-ins of one name), bad
 * environment values, bad ranges to tuccompi_memory_pin(). */
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>

#include "testutil.h"

static void nop(struct tuccompi_task *t, void *arg)
{
	(void)t;
	(void)arg;
}

static void square_nop(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	*(uint64_t *)tuccompi_task_result(t) = 0; /* other code than nop's */
}

int main(int argc, char **argv)
{
	struct tuccompi_conf conf;

	/* before init */
	ASSERT_EQ(tuccompi_set_mk(2), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "tuccompi_init() first");
	char buf[64];
	ASSERT_EQ(tuccompi_memory_pin(buf, sizeof(buf)), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "tuccompi_init() first");
	ASSERT_EQ(tuccompi_finalize(), -EINVAL);

	/* bad environment: every variable of the library refuses a value it does not take, naming it,
	 * before anything starts (lib/env.c); TUCCOMPI_END_LOG=false had turned the log on, and
	 * TUCCOMPI_MS_ADAPT_RATE=fast read as 0 */
	static const char *const bad_env[][3] = {
		{ "TUCCOMPI_MK", "many", "TUCCOMPI_MK='many'" },
		{ "TUCCOMPI_END_LOG", "false-ish", "TUCCOMPI_END_LOG='false-ish' is not on or off" },
		{ "TUCCOMPI_VERBOSE", "2", "TUCCOMPI_VERBOSE='2' is not on or off" },
		{ "TUCCOMPI_NODE_SPLIT", "none", "TUCCOMPI_NODE_SPLIT='none' is not on or off" },
		{ "TUCCOMPI_PEER_TIMEOUT", "-1", "TUCCOMPI_PEER_TIMEOUT='-1' is not a number from 0" },
		{ "TUCCOMPI_PEER_TIMEOUT", "10s", "TUCCOMPI_PEER_TIMEOUT='10s' is not a number" },
		{ "TUCCOMPI_MS_ADAPT_RATE", "fast", "TUCCOMPI_MS_ADAPT_RATE='fast' is not a number" },
		{ "TUCCOMPI_MS_FACTOR", "half", "TUCCOMPI_MS_FACTOR='half' is not a number" },
		{ "TUCCOMPI_TUNE", "best", "TUCCOMPI_TUNE='best' is not a tuning mode: write rules, empirical or cuda" },
		{ "TUCCOMPI_PIN_RESULTS", "64M", "TUCCOMPI_PIN_RESULTS='64M'" },
		{ "TUCCOMPI_PIN_SHARED", "-5", "TUCCOMPI_PIN_SHARED='-5'" },
		{ "TUCCOMPI_FAULT_INJECT", "gpu:1", "TUCCOMPI_FAULT_INJECT='gpu:1' is not a list of cpu:N" },
		{ "TUCCOMPI_FAULT_INJECT", "cpu:0", "TUCCOMPI_FAULT_INJECT='cpu:0'" },
		{ "TUCCOMPI_FAULT_INJECT", "cpu:2,ms", "TUCCOMPI_FAULT_INJECT='cpu:2,ms'" },
		{ "TUCCOMPI_FAULT_INJECT", "cpu:2x", "TUCCOMPI_FAULT_INJECT='cpu:2x'" },
		{ "TUCCOMPI_FAULT_INJECT", "cpu:2:later", "may add :transient, :repeat or :sticky" },
		{ "TUCCOMPI_FAULT_INJECT", "ms:2:sticky", "TUCCOMPI_FAULT_INJECT='ms:2:sticky'" },
		{ "TUCCOMPI_FAULT_INJECT", "cuda:1:", "TUCCOMPI_FAULT_INJECT='cuda:1:'" },
		{ "TUCCOMPI_RETRIES_UNIT", "-1", "TUCCOMPI_RETRIES_UNIT='-1' is not an integer in [0, 1000000]" },
		{ "TUCCOMPI_RETRIES_SET", "lots", "TUCCOMPI_RETRIES_SET='lots' is not an integer" },
	};
	for (unsigned i = 0; i < sizeof(bad_env) / sizeof(bad_env[0]); i++)
	{
		setenv(bad_env[i][0], bad_env[i][1], 1);
		tuccompi_conf_init(&conf);
		conf.use_mpi = 0;
		conf.quiet = 1;
		ASSERT_EQ(tuccompi_init(&argc, &argv, &conf), -EINVAL);
		ASSERT_STR_CONTAINS(tuccompi_last_error(), bad_env[i][2]);
		unsetenv(bad_env[i][0]);
	}
	tuccompi_conf_init(&conf);
	conf.use_mpi = 0;
	conf.quiet = 1;

	/* MK above what was started */
	conf.mk = 3;
	conf.mk_max = 2;
	ASSERT_EQ(tuccompi_init(&argc, &argv, &conf), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "mk_max");

	/* what they take, in every spelling the README gives (the run below starts with these) */
	setenv("TUCCOMPI_END_LOG", "Off", 1);
	setenv("TUCCOMPI_VERBOSE", "no", 1);
	setenv("TUCCOMPI_NODE_SPLIT", "TRUE", 1);
	setenv("TUCCOMPI_PEER_TIMEOUT", "2.5", 1);
	setenv("TUCCOMPI_MS_ADAPT_RATE", "1e3", 1);
	setenv("TUCCOMPI_TUNE", "rules", 1);
	setenv("TUCCOMPI_PIN_SHARED", "0", 1);
	setenv("TUCCOMPI_RETRIES_UNIT", "0", 1);
	setenv("TUCCOMPI_RETRIES_SET", "100", 1);
	setenv("TUCCOMPI_FAULT_INJECT", "cpu:9:repeat,cuda:2,cuda:3:sticky,cpu:4:transient,ms:7", 1);
	tuccompi_conf_init(&conf);
	conf.use_mpi = 0;
	conf.quiet = 1;
	conf.ncpus = 1;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	/* (taken; the sets below run without faults) */
	unsetenv("TUCCOMPI_FAULT_INJECT");
	unsetenv("TUCCOMPI_RETRIES_UNIT");
	unsetenv("TUCCOMPI_RETRIES_SET");
	ASSERT_EQ(tuccompi_set_mk(0), -EINVAL);
	ASSERT_EQ(tuccompi_set_mk(TUCCOMPI_MAX_MK + 1), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "mk_max");

	/* registering memory for GPUs: a bad range is refused; without a GPU there is nothing to do */
	ASSERT_EQ(tuccompi_memory_pin(NULL, 64), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "NULL address");
	ASSERT_EQ(tuccompi_memory_pin(buf, 0), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "0 bytes");
	size_t min;
	ASSERT_OK(tuccompi_pin_results_min(&min));
	ASSERT_EQ(min, (size_t)64 << 20);
	setenv("TUCCOMPI_PIN_RESULTS", "1000", 1);
	ASSERT_OK(tuccompi_pin_results_min(&min));
	ASSERT_EQ(min, 1000);
	setenv("TUCCOMPI_PIN_RESULTS", "64M", 1);
	ASSERT_EQ(tuccompi_pin_results_min(&min), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "TUCCOMPI_PIN_RESULTS='64M'");
	unsetenv("TUCCOMPI_PIN_RESULTS");
	ret = tuccompi_memory_pin(buf, sizeof(buf));
	ASSERT(tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0 ? ret == 1 : ret == 0);
	ASSERT_OK(tuccompi_memory_unpin(buf, sizeof(buf)));

	tuccompi_taskset_t ts;
	struct tuccompi_plugin empty = { .name = "empty" };
	struct tuccompi_taskset_desc desc = { .plugin = &empty, .ntasks = 4 };
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "neither a CPU nor a CUDA implementation");

	struct tuccompi_plugin noname = { .cpu = nop };
	desc.plugin = &noname;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "no name");

	struct tuccompi_plugin ok = { .name = "nop", .cpu = nop, .nworkspaces = 1 };
	desc.plugin = &ok;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "workspace 0 has size 0");

	ok.nworkspaces = 0;
	desc.nshared = 1;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "shared[0] is NULL");
	desc.nshared = 0;

	desc.root = 5;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "root rank 5");
	desc.root = 0;

	struct tuccompi_policy bad = { .name = "bad" };
	ASSERT_EQ(tuccompi_parallel(&bad, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "neither dynamic nor has a partition rule");
	struct tuccompi_policy badname = { .name = "badname", .partition = tuccompi_partition_eq1, .sched_name = "nope" };
	ASSERT_EQ(tuccompi_parallel(&badname, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "names no StarPU policy");

	/* the surprises a new user met: results with no result size, an input size without inputs, a
	 * second plug-in of a name already used with other code */
	uint64_t res[4];
	desc.plugin = &ok;
	desc.results = res;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "has result_size 0");
	desc.results = NULL;
	desc.input_size = 8;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "input_size 8 given without inputs");
	desc.input_size = 0;
	ASSERT_OK(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts)); /* "nop" is now ok's name */
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);
	struct tuccompi_plugin impostor = { .name = "nop", .cpu = square_nop };
	desc.plugin = &impostor;
	ASSERT_EQ(tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "plug-in name 'nop' is already used by a plug-in with other code");
	desc.plugin = &ok;

	/* a CUDA-only plug-in on a node without GPU */
	if (tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0)
	{
		struct tuccompi_plugin gpu_only = { .name = "gpu_only", .cuda = nop };
		desc.plugin = &gpu_only;
		ret = tuccompi_parallel(&tuccompi_policy_eq1, &desc, &ts);
		if (ret == 0)
			ret = tuccompi_wait(ts);
		ASSERT(ret < 0);
		printf("CUDA-only plug-in without GPU: %s\n", tuccompi_last_error());
	}

	/* and the library still works after all that; a success leaves no stale message */
	desc.plugin = &ok;
	ASSERT_OK(tuccompi_parallel(&tuccompi_policy_ms, &desc, &ts));
	ASSERT_EQ(strlen(tuccompi_last_error()), 0);
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);

	/* the policies' names as the header gives them */
	ASSERT(tuccompi_policy_by_name("ms-tail") == &tuccompi_policy_ms_tail);
	ASSERT(tuccompi_policy_by_name("ms_tail") == &tuccompi_policy_ms_tail);
	struct tuccompi_policy by_name = { .name = "mine", .partition = tuccompi_partition_eq1, .sched_name = "tuccompi-ms" };
	ASSERT_OK(tuccompi_parallel(&by_name, &desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	tuccompi_taskset_destroy(ts);

	int rank = tuccompi_rank();
	ASSERT_OK(tuccompi_finalize());
	ASSERT_EQ(tuccompi_rank(), rank); /* the process keeps its rank after ENDCOMM */
	printf("errors ok\n");
	return 0;
}
