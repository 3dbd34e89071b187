/* A scheduling policy of one's own, built from the pieces of <tuccompi_sched.h> (the ones the
 * library's EQ1, EQ2, MS and MS-TAIL are made of), using only installed headers.
 *
 * "cpu-last": one queue for every unit, as MS, but a CPU core leaves a task to the GPUs while
 * they could start it at once (fewer tasks are queued than the GPUs have idle-or-soon-idle
 * stream workers). On a machine without a GPU it behaves as MS.
 *
 * Build (installed library):
 *   cc cpu_last.c $(pkg-config --cflags --libs tuccompi-starpu) -o cpu_last
 * Run: ./cpu_last [NTASKS]            (or under mpirun: ranks ask rank 0 for work, as MS) */
#include <stdio.h>
#include <stdlib.h>
#include <tuccompi.h>
#include <tuccompi_sched.h>

/* Called with the policy's lock held, before unit @unit takes @task. */
static int cpu_leaves_it(struct tuccompi_sched *s, int unit, struct starpu_task *task)
{
	if (s->units[unit].u.kind != TUCCOMPI_UNIT_CPU)
		return 0;
	unsigned long gpu_workers = 0;
	for (int k = 0; k < s->nunits; k++)
		if (s->units[k].u.kind == TUCCOMPI_UNIT_CUDA && tuccompi_sched_unit_can_run(&s->units[k], task))
			gpu_workers += (unsigned long)s->units[k].u.nworkers;
	return s->ncentral <= gpu_workers;
}

static struct starpu_task *pop_cpu_last(unsigned sched_ctx_id)
{
	return tuccompi_sched_pop_central(sched_ctx_id, cpu_leaves_it);
}

static struct starpu_sched_policy cpu_last_sched = {
	.init_sched = tuccompi_sched_init,
	.deinit_sched = tuccompi_sched_deinit,
	.add_workers = tuccompi_sched_workers_changed,
	.remove_workers = tuccompi_sched_workers_changed,
	.push_task = tuccompi_sched_push_central,
	.pop_task = pop_cpu_last,
	.policy_name = "cpu-last",
	.policy_description = "MS, but CPU cores leave tasks the GPUs could start at once",
	.worker_type = STARPU_WORKER_LIST,
};

static const struct tuccompi_policy cpu_last = {
	.name = "cpu-last",
	.description = "central queue; CPU cores leave tasks to idle GPUs",
	.dynamic = 1, /* ranks ask rank 0 for work, as MS */
	.master = 0,
	.sched = &cpu_last_sched,
};

/* The task: a sum whose result is easy to check. */
static void sum_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	uint64_t id = tuccompi_task_id(t), s = 0;
	for (uint64_t i = 0; i <= id; i++)
		s += i;
	*(uint64_t *)tuccompi_task_result(t) = s;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
	if (tuccompi_init(&argc, &argv, NULL) < 0)
	{
		fprintf(stderr, "cpu_last: %s\n", tuccompi_last_error());
		return 1;
	}
	struct tuccompi_plugin p = { .name = "example_sum", .cpu = sum_cpu, .result_size = sizeof(uint64_t) };
	uint64_t *res = calloc(n ? n : 1, sizeof(uint64_t));
	struct tuccompi_taskset_desc d = { .plugin = &p, .ntasks = n, .results = res };
	tuccompi_taskset_t ts;
	int ret = tuccompi_parallel(&cpu_last, &d, &ts);
	if (ret == 0)
		ret = tuccompi_wait(ts);
	if (ret < 0)
	{
		fprintf(stderr, "cpu_last: %s\n", tuccompi_last_error());
		tuccompi_finalize();
		return 1;
	}
	int bad = 0;
	if (tuccompi_rank() == 0)
	{
		for (uint64_t i = 0; i < n; i++)
			bad += res[i] != i * (i + 1) / 2;
		tuccompi_taskset_print_summary(ts, stdout);
		printf("%llu tasks under the policy 'cpu-last': %s\n", (unsigned long long)n, bad ? "WRONG RESULTS" : "all right");
	}
	tuccompi_taskset_destroy(ts);
	free(res);
	tuccompi_finalize();
	return bad ? 1 : 0;
}
