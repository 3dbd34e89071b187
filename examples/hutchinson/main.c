/* main.c: a program with a CUDA plug-in, the one to copy (examples/README.md says how to build it).
 *
 * It estimates the trace of a symmetric matrix by Hutchinson's method (hutchinson.h): rank 0 makes
 * the matrix (a real program would read it), broadcasts it, every rank shares it with its units
 * (copied once to each GPU), and each of the many tasks multiplies it by a random probe vector of
 * its own, on whichever CPU core or GPU runs it (kernel.cu for the GPUs). Rank 0 gets every result
 * back and checks it; the exit status is 0 only when every result is right.
 *
 *   hutchinson [--n N] [--tasks T] [--units all|cpu|gpu] [--mk MK] [--policy P] [--summary]
 *   mpirun -n 2 ./hutchinson ...          (every rank takes part; rank 0 prints) */
#include <tuccompi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hutchinson.h"

/* Built without kernel.o (cc -DHUTCHINSON_CPU_ONLY main.c ...), the plug-in has no CUDA code and
 * GPUs get none of its tasks. */
#ifndef HUTCHINSON_CPU_ONLY
void hutchinson_cuda(struct tuccompi_task *task, void *arg); /* kernel.cu */
#endif

/* The plug-in's CPU function: one task on one core. Its shared buffer and workspaces are host
 * memory here; the workspace is the probe vector's room (not zeroed: probe_cpu writes all of it). */
static void hutchinson_cpu(struct tuccompi_task *t, void *arg)
{
	const struct hut_args *a = arg;
	probe_cpu(tuccompi_task_shared(t, 0), a->n, tuccompi_task_id(t), tuccompi_task_workspace(t, 0),
		  tuccompi_task_result(t));
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: hutchinson [--n N] [--tasks T] [--units all|cpu|gpu] [--mk MK] [--policy P] [--summary]\n"
		   "Estimates the trace of an N x N matrix (default 512) from T random probes (default 2048),\n"
		   "one task each, on the units asked (default all: every CPU core and GPU), MK tasks at once\n"
		   "per GPU (default 4), under policy P (eq1, eq2, ms (default), ms-tail, or a StarPU policy).\n");
}

/* A number option's value, within [lo, hi]; a bad one ends the program with a line saying so. */
static unsigned long long number(const char *opt, const char *s, unsigned long long lo, unsigned long long hi)
{
	char *end;
	errno = 0;
	unsigned long long v = s ? strtoull(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || v < lo || v > hi || s[0] == '-')
	{
		fprintf(stderr, "hutchinson: %s takes a whole number from %llu to %llu, not '%s'\n", opt, lo, hi,
			s ? s : "(nothing)");
		exit(2);
	}
	return v;
}

/* A failed call: say why, and end every rank. */
static void fail(const char *what, int err)
{
	const char *why = tuccompi_last_error();
	fprintf(stderr, "hutchinson: %s: %s\n", what, why[0] ? why : tuccompi_strerror(err));
	tuccompi_abort(1);
}

int main(int argc, char **argv)
{
	uint32_t n = 512;
	uint64_t ntasks = 2048;
	int mk = 4, summary = 0;
	const char *units = "all", *policy_name = "ms";
	for (int i = 1; i < argc; i++)
	{
		const char *o = argv[i], *v;
		if (!strcmp(o, "-h") || !strcmp(o, "--help"))
		{
			usage(stdout);
			return 0;
		}
		if (!strcmp(o, "--summary"))
		{
			summary = 1;
			continue;
		}
		v = i + 1 < argc ? argv[++i] : NULL;
		if (!strcmp(o, "--n"))
			n = (uint32_t)number(o, v, 1, 1u << 16);
		else if (!strcmp(o, "--tasks"))
			ntasks = number(o, v, 1, 1ull << 32);
		else if (!strcmp(o, "--mk"))
			mk = (int)number(o, v, 1, TUCCOMPI_MAX_MK);
		else if (!strcmp(o, "--policy") && v)
			policy_name = v;
		else if (!strcmp(o, "--units") && v && (!strcmp(v, "all") || !strcmp(v, "cpu") || !strcmp(v, "gpu")))
			units = v;
		else
		{
			if (!strcmp(o, "--units") || !strcmp(o, "--policy"))
				fprintf(stderr, "hutchinson: %s takes %s, not '%s'\n", o,
					o[2] == 'u' ? "all, cpu or gpu" : "a policy name", v ? v : "(nothing)");
			else
				fprintf(stderr, "hutchinson: unknown option '%s' (--help lists the options)\n", o);
			return 2;
		}
	}

	/* COMM: the units asked for. ncpus = 0: no CPU worker (GPUs only); ncuda = 0: no GPU. */
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.mk = mk;
	if (!strcmp(units, "gpu"))
		conf.ncpus = 0;
	if (!strcmp(units, "cpu"))
		conf.ncuda = 0;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret < 0)
	{
		if (ret == -ENODEV && !strcmp(units, "gpu"))
			fprintf(stderr, "hutchinson: no GPU found (--units gpu): use --units all or cpu\n");
		else
			fprintf(stderr, "hutchinson: %s\n", tuccompi_last_error());
		return 1;
	}
	const struct tuccompi_policy *policy = tuccompi_policy_by_name(policy_name);
	if (!policy)
		fail("--policy", -EINVAL);

	/* The shared matrix: made on rank 0, sent to every rank, then registered on each (read-only for
	 * the tasks; copied once to each GPU that runs one of them). */
	size_t bytes = (size_t)n * n * sizeof(double);
	double *A = malloc(bytes), *w = malloc(n * sizeof(double)), *x = malloc(n * sizeof(double));
	struct probe_result *results = tuccompi_rank() == 0 ? malloc(ntasks * sizeof(*results)) : NULL;
	if (!A || !w || !x || (tuccompi_rank() == 0 && !results))
		fail("memory", -ENOMEM);
	if (tuccompi_rank() == 0)
		for (uint32_t r = 0; r < n; r++)
			for (uint32_t c = 0; c < n; c++)
				A[(size_t)r * n + c] = matrix_entry(r, c);
	if ((ret = tuccompi_bcast(A, bytes, 0)) < 0)
		fail("tuccompi_bcast", ret);
	tuccompi_shared_t shared;
	if ((ret = tuccompi_shared_register(&shared, A, bytes)) < 0)
		fail("tuccompi_shared_register", ret);

	/* The plug-in: a CPU and a CUDA function, a 16-byte result, two workspaces per task in the
	 * memory of the unit that runs it. One size each for every kind of unit: the CPU function uses
	 * the first only, the CUDA one both. */
	struct tuccompi_plugin plugin = {
		.name = "hutchinson",
		.cpu = hutchinson_cpu,
#ifndef HUTCHINSON_CPU_ONLY
		.cuda = hutchinson_cuda,
#endif
		.result_size = sizeof(struct probe_result),
		.workspace_size = { n * sizeof(double), 2 * sizeof(double) },
		.nworkspaces = 2,
	};
	struct hut_args args = { .n = n };
	struct tuccompi_taskset_desc desc = {
		.plugin = &plugin, .ntasks = ntasks, .arg = &args, .shared = { shared }, .nshared = 1,
		.results = results, .root = 0,
	};
	tuccompi_taskset_t ts;
	double t0 = tuccompi_wtime();
	if ((ret = tuccompi_parallel(policy, &desc, &ts)) < 0) /* PARALLEL */
		fail("tuccompi_parallel", ret);
	if ((ret = tuccompi_wait(ts)) < 0) /* SYN: every result is on rank 0 */
		fail("tuccompi_wait", ret);
	double secs = tuccompi_wtime() - t0;
	if (summary)
		tuccompi_taskset_print_summary(ts, stdout);
	tuccompi_taskset_destroy(ts);
	tuccompi_shared_unregister(shared);

	uint64_t wrong = 0;
	if (tuccompi_rank() == 0)
	{
		double trace;
		wrong = probe_check(A, n, results, ntasks, 8, w, x, &trace);
		printf("hutchinson: %llu probes of a %u x %u matrix on %d rank(s) (%s units, MK %d, %s): "
		       "%.1f tasks/s; trace %.4g (exact %u): %s\n",
		       (unsigned long long)ntasks, n, n, tuccompi_nranks(), units, tuccompi_get_mk(), policy->name,
		       (double)ntasks / secs, trace, n, wrong ? "WRONG RESULTS" : "all results correct");
		if (wrong)
			fprintf(stderr, "hutchinson: %llu of %llu results are wrong\n", (unsigned long long)wrong,
				(unsigned long long)ntasks);
	}
	free(A);
	free(w);
	free(x);
	free(results);
	if ((ret = tuccompi_finalize()) < 0) /* ENDCOMM */
	{
		fprintf(stderr, "hutchinson: %s\n", tuccompi_last_error());
		return 1;
	}
	return wrong ? 1 : 0;
}
