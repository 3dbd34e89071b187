/* bench/overhead: what the runtime itself costs.
 *
 *  1. Per-task cost (us) of EQ1, EQ2, MS and MS-TAIL against StarPU's own eager and lws,
 *     for tasks that spin 0 (empty), 1, 10, 100 and 1000 us, same run, same workers: wall time /
 *     tasks, and the ratio to EQ1 measured in the same run (MS's cost against the static
 *     policies is what the adaptive packs are for).
 *  2. With several ranks (mpirun), the share of the run spent in cross-rank messages
 *     (MS requests, result gathering) as the library counts it, and MS requests in all.
 *  3. The efficiency of each policy: the ideal time (tasks x duration / every rank's CPU units)
 *     over the measured one.
 * Each (duration, policy) runs --reps times after a warm-up; the median is reported. The task
 * count per duration is sized for about --work-s seconds (default 0.3) of work on this rank's
 * workers (at most --tasks). --sleep: tasks sleep instead of spinning, so that ranks sharing few
 * cores (hosts emulated on one machine: bench/hosts.sh) measure the runtime, not the contention
 * for cores. bench/overhead.sh runs it on 1, 2 and 4 ranks.
 *
 * Usage: overhead [--tasks N] [--task-us LIST] [--reps R] [--policies a,b,c] [--csv FILE] [--sleep]
 *                 [--work-s S] */
#include <inttypes.h>
#include <sys/prctl.h>
#include <time.h>
#include <tuccompi.h>

#include "bench.h"

static unsigned spin_us;
static int sleep_tasks;

static void task_cpu(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	if (spin_us && sleep_tasks)
	{
		/* a timer slack of 1 us (Linux's default is 50): a 100 us task sleeps about 100 us */
		static __thread int slack_set;
		if (!slack_set)
			slack_set = prctl(PR_SET_TIMERSLACK, 1000UL) == 0;
		struct timespec ts = { (time_t)(spin_us / 1000000), (long)(spin_us % 1000000) * 1000 };
		nanosleep(&ts, NULL);
	}
	else if (spin_us)
	{
		double end = bench_now() + spin_us * 1e-6;
		while (bench_now() < end)
			;
	}
	*(uint64_t *)tuccompi_task_result(t) = tuccompi_task_id(t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	bench_name = "overhead";
	uint64_t maxtasks = 20000;
	unsigned reps = 5;
	const char *policies = "eq1,eq2,ms,ms-tail,eager,lws", *csv = NULL, *durations = "0,1,10,100,1000";
	double work_s = 0.3;
	for (int i = 1; i < argc; i++)
	{
		if (!strcmp(argv[i], "--tasks") && i + 1 < argc)
			maxtasks = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--task-us") && i + 1 < argc)
			durations = argv[++i];
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--policies") && i + 1 < argc)
			policies = argv[++i];
		else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
			csv = argv[++i];
		else if (!strcmp(argv[i], "--sleep"))
			sleep_tasks = 1;
		else if (!strcmp(argv[i], "--work-s") && i + 1 < argc)
			work_s = atof(argv[++i]);
		else
		{
			fprintf(stderr, "usage: overhead [--tasks N] [--task-us LIST] [--reps R] [--policies a,b] [--csv F] "
					"[--sleep] [--work-s S]\n");
			return 2;
		}
	}
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	if (tuccompi_init(&argc, &argv, &conf) < 0)
		bench_die("%s", tuccompi_last_error());
	int root = tuccompi_rank() == 0;
	int workers = tuccompi_unit_count(TUCCOMPI_UNIT_CPU);
	uint64_t *res = calloc(maxtasks, sizeof(uint64_t));
	struct tuccompi_plugin p = { .name = "overhead_task", .cpu = task_cpu, .result_size = sizeof(uint64_t) };
	int64_t all_units = workers;
	tuccompi_allreduce_i64(&all_units, 1, TUCCOMPI_OP_SUM);
	FILE *out = csv && root ? fopen(csv, "w") : NULL;
	if (out)
		fprintf(out, "policy,task_us,ranks,cpu_units,tasks,median_s,us_per_task,ratio_to_eq1,comm_share,requests,"
			     "mode,efficiency\n");
	const char *mode = sleep_tasks ? "sleep" : "spin";
	if (root)
		printf("%d rank(s), %d CPU unit(s) on rank 0, %lld in all, tasks %s, median of %u runs\n", tuccompi_nranks(),
		       workers, (long long)all_units, sleep_tasks ? "sleep" : "spin", reps);
	char *dlist = strdup(durations), *dsave = NULL;
	for (char *dur = strtok_r(dlist, ",", &dsave); dur; dur = strtok_r(NULL, ",", &dsave))
	{
		spin_us = (unsigned)atoi(dur);
		/* about 0.3 s of work for this rank's workers, the same count on every rank */
		double per = spin_us > 5 ? spin_us : 5;
		uint64_t ntasks = (uint64_t)(work_s * 1e6 * (workers > 0 ? workers : 1) * tuccompi_nranks() / per);
		int64_t agreed = (int64_t)ntasks;
		tuccompi_allreduce_i64(&agreed, 1, TUCCOMPI_OP_MIN);
		ntasks = (uint64_t)agreed;
		if (ntasks > maxtasks)
			ntasks = maxtasks;
		if (ntasks < 500)
			ntasks = 500 < maxtasks ? 500 : maxtasks;
		struct tuccompi_taskset_desc d = { .plugin = &p, .ntasks = ntasks, .results = res };
		double eq1_us = 0;
		if (root)
			printf("\n%u us tasks, %llu tasks:\n  %-8s %12s %14s %10s %12s %9s %11s\n", spin_us,
			       (unsigned long long)ntasks, "policy", "median s", "us per task", "vs eq1", "comm share",
			       "requests", "efficiency");
		char *list = strdup(policies), *save = NULL;
		for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
		{
			const struct tuccompi_policy *pol = tuccompi_policy_by_name(name);
			if (!pol)
				bench_die("%s", tuccompi_last_error());
			double *t = calloc(reps + 1, sizeof(double)), comm = 0;
			uint64_t requests = 0;
			for (unsigned r = 0; r <= reps; r++) /* run 0 warms up */
			{
				tuccompi_taskset_t ts;
				double t0 = bench_now();
				if (tuccompi_parallel(pol, &d, &ts) < 0 || tuccompi_wait(ts) < 0)
					bench_die("%s", tuccompi_last_error());
				double el = bench_now() - t0;
				struct tuccompi_taskset_stats st;
				tuccompi_taskset_get_stats(ts, &st);
				if (r)
				{
					t[r - 1] = el;
					/* the largest share over the ranks */
					double worst = 0;
					for (int k = 0; k < tuccompi_nranks(); k++)
						if (st.wall_s_per_rank[k] > 0 && st.comm_s_per_rank[k] / st.wall_s_per_rank[k] > worst)
							worst = st.comm_s_per_rank[k] / st.wall_s_per_rank[k];
					comm += worst;
					for (int k = 0; k < tuccompi_nranks(); k++)
						requests += st.requests_per_rank ? st.requests_per_rank[k] : 0;
				}
				tuccompi_taskset_destroy(ts);
			}
			qsort(t, reps, sizeof(double), cmp_double);
			double med = t[reps / 2], us = 1e6 * med / (double)ntasks;
			if (!strcmp(name, "eq1"))
				eq1_us = us;
			double ratio = eq1_us > 0 ? us / eq1_us : 0;
			double ideal = (double)ntasks * spin_us * 1e-6 / (double)(all_units > 0 ? all_units : 1);
			double eff = med > 0 ? ideal / med : 0;
			if (root)
			{
				printf("  %-8s %12.4f %14.3f %10.2f %11.3f%% %9.1f %11.3f\n", name, med, us, ratio, 100 * comm / reps,
				       (double)requests / reps, eff);
				if (out)
					fprintf(out, "%s,%u,%d,%d,%llu,%.6f,%.4f,%.4f,%.6f,%.1f,%s,%.4f\n", name, spin_us,
						tuccompi_nranks(), workers, (unsigned long long)ntasks, med, us, ratio, comm / reps,
						(double)requests / reps, mode, eff);
			}
			free(t);
		}
		free(list);
	}
	free(dlist);
	if (out)
		fclose(out);
	free(res);
	return tuccompi_finalize() < 0;
}
