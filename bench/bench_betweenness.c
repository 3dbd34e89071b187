/* bench/bench_betweenness: betweenness (the brandes engine, --betweenness) against distances alone
 * (the batched engine) on the same graph, sources, units and MK, in one run of the runtime.
 *
 * Loads or generates a graph, starts the runtime on the units asked, draws K sources, then for each
 * of the two plans: one warm-up task set (min(K, 256) sources: StarPU's first copies of the graph,
 * CUDA's start), then --reps task sets of the K sources, timed from PARALLEL to the end of SYN
 * (the betweenness sums combined on the root included). Prints each plan's median time and rate
 * (sources per second), the ratio betweenness / distances (the goal on a GPU: 0.4 or more), and the
 * tasks each kind of unit ran. --check N: the sums of the first N sources from a task set on these
 * units must have the same bits as the CPU code's (sssp_brandes_cpu, source by source, summed
 * exactly): a GPU's check at scale. --csv FILE appends one line per plan.
 *
 *   bench_betweenness --gen random:1049088 --sources 4096 --units gpu --reps 3
 *   bench_betweenness --gen rmat:20 --sources 2048 --units all --check 64 --csv bc.csv
 *   bench_betweenness road.gr --sources 1024 --units gpu --mk 4
 *
 * Options: --gen SPEC or a graph file; --seed S (1; the graph's and the sources'); --sources K
 * (1024); --units cpu|gpu|all (all); --mk N (the engines' own: 1 on shallow graphs, 4 on deep
 * ones); --policy P (ms-tail); --reps R (3); --check N (0); --csv FILE. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "batched/batch_gpu.h"
#include "bench.h"
#include "brandes/brandes.h"
#include "sssp.h"

struct opts
{
	const char *file, *gen, *units, *policy, *csv;
	uint64_t seed, k, reps, check, mk;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* A plan for the units asked, with the GPU's memory fitted (MK). */
static struct sssp_plan *make_plan(const struct sssp_graph *view, const struct opts *o, int betweenness, uint64_t k,
				   int *mk)
{
	struct sssp_options so = {
		.engine = SSSP_ENGINE_BATCHED,
		.cpu = strcmp(o->units, "gpu") != 0,
		.cuda = strcmp(o->units, "cpu") != 0,
		.nsources = k,
		.betweenness = betweenness,
	};
	struct sssp_plan *p;
	char why[512];
	if (sssp_plan_create(view, &so, &p, why, sizeof(why)) < 0)
		bench_die("%s", why);
	uint64_t total = 0;
	if (sssp_plan_uses_cuda(p) && tuccompi_unit_memory(TUCCOMPI_UNIT_CUDA, &total, NULL) < 0)
		total = 0;
	struct sssp_gpu_fit fit;
	if (sssp_plan_fit_gpu(p, (int)o->mk, 4, total / 10 * 9, 0, &fit) < 0)
		bench_die("the graph needs %.1f GB of GPU memory, the GPU has %.1f GB", fit.need / 1e9, total / 1e9);
	*mk = fit.mk;
	return p;
}

/* One task set of the plan over src[0..k): its wall time; the sums into @p bc when not NULL. */
static double run_set(struct sssp_plan *p, int mk, const uint32_t *src, uint64_t k, const char *policy,
		      struct tuccompi_exact *bc, uint64_t *on_gpu)
{
	if (mk > 0)
		tuccompi_set_mk(mk);
	struct sssp_summary *res = calloc(k, sizeof(*res));
	struct sssp_args args = { .betweenness = bc };
	struct tuccompi_taskset_desc desc = { .results = res };
	if (!res || sssp_plan_taskset(p, src, k, &args, &desc) < 0)
		bench_die("task set of %" PRIu64 " sources: %s", k, res ? tuccompi_last_error() : "out of memory");
	const struct tuccompi_policy *pol = tuccompi_policy_by_name(policy);
	if (!pol)
		bench_die("--policy: %s", tuccompi_last_error());
	tuccompi_taskset_t ts;
	double t0 = bench_now();
	if (tuccompi_parallel(pol, &desc, &ts) < 0 || tuccompi_wait(ts) < 0)
		bench_die("%s", tuccompi_last_error());
	double t = bench_now() - t0;
	struct tuccompi_taskset_stats st;
	tuccompi_taskset_get_stats(ts, &st);
	*on_gpu = 0;
	for (int u = 0; u < st.nunits; u++)
		*on_gpu += st.units[u].kind == TUCCOMPI_UNIT_CUDA ? st.units[u].ntasks : 0;
	tuccompi_taskset_destroy(ts);
	sssp_plan_taskset_done(p, &desc);
	free(res);
	return t;
}

static double measure(const char *what, const struct sssp_graph *view, const struct opts *o, int betweenness,
		      const uint32_t *src, const char *gname)
{
	int mk;
	struct sssp_plan *p = make_plan(view, o, betweenness, o->k, &mk);
	struct tuccompi_exact *bc = betweenness ? calloc(view->n, sizeof(*bc)) : NULL;
	uint64_t on_gpu = 0, warm = o->k < 256 ? o->k : 256;
	run_set(p, mk, src, warm, o->policy, bc, &on_gpu);
	double *t = malloc(o->reps * sizeof(double));
	for (uint64_t r = 0; r < o->reps; r++)
		t[r] = run_set(p, mk, src, o->k, o->policy, bc, &on_gpu);
	qsort(t, o->reps, sizeof(double), cmp_double);
	double med = t[o->reps / 2];
	printf("%-12s %" PRIu64 " sources in %8.3f s (median of %" PRIu64 "; best %.3f): %10.1f sources/s, MK %d, %" PRIu64
	       " on GPUs, %" PRIu64 " on CPU cores\n",
	       what, o->k, med, o->reps, t[0], (double)o->k / med, mk, on_gpu, o->k - on_gpu);
	if (o->csv)
	{
		FILE *f = fopen(o->csv, "a");
		if (!f)
			bench_die("--csv %s: %s", o->csv, strerror(errno));
		fprintf(f, "%s,%s,%s,%" PRIu64 ",%d,%.6f,%.1f,%" PRIu64 "\n", gname, what, o->units, o->k, mk, med,
			(double)o->k / med, on_gpu);
		fclose(f);
	}
	free(t);
	free(bc);
	sssp_plan_free(p);
	return (double)o->k / med;
}

/* The first n sources' sums on these units against the CPU code's, bit for bit. */
static void check(const struct sssp_graph *view, const struct graph *g, const struct opts *o, const uint32_t *src,
		  uint64_t n)
{
	int mk;
	struct sssp_plan *p = make_plan(view, o, 1, n, &mk);
	struct tuccompi_exact *got = calloc(g->n, sizeof(*got)), *want = calloc(g->n, sizeof(*want));
	uint64_t *irp = malloc(((size_t)g->n + 1) * 8), on_gpu;
	uint32_t *icol = malloc((g->m + 1) * 4), *iw = malloc((g->m + 1) * 4), *dist = malloc((size_t)g->n * 4);
	uint32_t *heap = malloc((size_t)g->n * 4), *pos = malloc((size_t)g->n * 4);
	void *work = malloc(sssp_brandes_cpu_work_size(g->n));
	if (!got || !want || !irp || !icol || !iw || !dist || !heap || !pos || !work)
		bench_die("--check: out of memory");
	run_set(p, mk, src, n, o->policy, got, &on_gpu);
	sssp_transpose(view, irp, icol, iw);
	struct sssp_brandes_graph bg = { g->n, g->m, g->rowptr, g->col, g->w, irp, icol, iw, NULL };
	char err[256];
	for (uint64_t i = 0; i < n; i++)
	{
		struct sssp_summary s;
		sssp_dijkstra(view, src[i], dist, heap, pos, &s);
		const double *delta = sssp_brandes_cpu(&bg, src[i], dist, work, err, sizeof(err));
		if (!delta)
			bench_die("--check: %s", err);
		sssp_brandes_accumulate(want, delta, g->n, src[i]);
	}
	uint64_t differ = 0;
	double worst = 0;
	for (uint32_t v = 0; v < g->n; v++)
		if (memcmp(&got[v], &want[v], sizeof(got[v])))
		{
			double a = tuccompi_exact_value(&got[v]), b = tuccompi_exact_value(&want[v]);
			differ++;
			worst = fmax(worst, fabs(a - b) / fmax(fabs(b), 1e-300));
		}
	printf("check: %" PRIu64 " sources (%" PRIu64 " on GPUs): %s", n, on_gpu,
	       differ ? "" : "every vertex's sum has the CPU code's bits\n");
	if (differ)
		printf("%" PRIu64 " vertices differ from the CPU code, by %.3g relative at most\n", differ, worst);
	free(got);
	free(want);
	free(irp);
	free(icol);
	free(iw);
	free(dist);
	free(heap);
	free(pos);
	free(work);
	sssp_plan_free(p);
	if (differ)
		exit(1);
}

int main(int argc, char **argv)
{
	bench_name = "bench_betweenness";
	setvbuf(stdout, NULL, _IOLBF, 0); /* lines reach a log even when a time limit stops the run */
	struct opts o = { .units = "all", .policy = "ms-tail", .seed = 1, .k = 1024, .reps = 3 };
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int val = a[0] == '-' && strcmp(a, "-");
		if (val && !v)
			bench_die("%s needs a value", a);
		if (!strcmp(a, "--gen"))
			o.gen = v;
		else if (!strcmp(a, "--seed"))
			o.seed = bench_uint(a, v, 0, UINT64_MAX);
		else if (!strcmp(a, "--sources"))
			o.k = bench_uint(a, v, 1, UINT32_MAX);
		else if (!strcmp(a, "--units"))
			o.units = v;
		else if (!strcmp(a, "--mk"))
			o.mk = bench_uint(a, v, 1, TUCCOMPI_MAX_MK);
		else if (!strcmp(a, "--policy"))
			o.policy = v;
		else if (!strcmp(a, "--reps"))
			o.reps = bench_uint(a, v, 1, 1000);
		else if (!strcmp(a, "--check"))
			o.check = bench_uint(a, v, 0, UINT32_MAX);
		else if (!strcmp(a, "--csv"))
			o.csv = v;
		else if (val)
			bench_die("unknown option %s (see the opening comment of bench/bench_betweenness.c)", a);
		else
		{
			o.file = a;
			continue;
		}
		i++;
	}
	if (!o.file && !o.gen)
		bench_die("give a graph file or --gen SPEC");
	if (strcmp(o.units, "cpu") && strcmp(o.units, "gpu") && strcmp(o.units, "all"))
		bench_die("--units wants cpu, gpu or all, not '%s'", o.units);
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	conf.use_mpi = 0;
	conf.ncpus = strcmp(o.units, "gpu") ? -1 : 0;
	conf.ncuda = strcmp(o.units, "cpu") ? -1 : 0;
	if (o.mk)
		conf.mk = conf.mk_max = (int)o.mk;
	if (tuccompi_init(&argc, &argv, &conf) < 0)
		bench_die("%s", tuccompi_last_error());
	if (!strcmp(o.units, "gpu") && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0)
		bench_die("--units gpu: no GPU");
	struct graph g;
	bench_load(o.file, o.gen, o.seed, &g);
	struct sssp_graph view = apsp_graph_view(&g);
	char spec[32];
	snprintf(spec, sizeof(spec), "random:%" PRIu64, o.k);
	uint32_t *src;
	uint64_t k;
	struct graph_error err;
	if (cli_sources(spec, g.n, o.seed, &src, &k, &err) < 0)
		bench_die("--sources: %s", err.msg);
	o.k = k;
	const char *gname = o.file ? o.file : o.gen;
	printf("graph %s: %" PRIu32 " vertices, %" PRIu64 " arcs; %s units (%d CPU, %d GPU), policy %s\n", gname, g.n, g.m,
	       o.units, tuccompi_unit_count(TUCCOMPI_UNIT_CPU), tuccompi_unit_count(TUCCOMPI_UNIT_CUDA), o.policy);
	if (o.check)
		check(&view, &g, &o, src, o.check < k ? o.check : k);
	double r0 = measure("distances", &view, &o, 0, src, gname);
	double r1 = measure("betweenness", &view, &o, 1, src, gname);
	printf("betweenness / distances: %.3f of the rate\n", r1 / r0);
	free(src);
	graph_free(&g);
	tuccompi_finalize();
	return 0;
}
