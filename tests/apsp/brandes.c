/* Betweenness (the "brandes" engine) against a plain reference: for every pair (s, t) and vertex
 * v on a shortest s-t path, sigma_sv * sigma_vt / sigma_st (path counts from a recursion over the
 * tight arcs, in long double), summed over the sources given; on grids with unit weights (many
 * equal-length paths), random graphs with unreachable parts, arcs of weight 0, two components and
 * isolated vertices, and a hub of more than one chunk of arcs (SSSP_BRANDES_CHUNK) both ways.
 *  - sssp_brandes_cpu() source by source, summed exactly: within 1e-10 of the reference;
 *  - the engine through the runtime (every source, then a sample): the same bits as those exact
 *    sums under EQ1, EQ2, MS and MS-TAIL, on however many ranks this runs (tests/apsp/brandes_mpi.sh:
 *    2), and the per-source summaries of the task set equal the reference distances';
 *  - a graph whose arcs of weight 0 form a cycle is refused with a message that says so.
 * With --gpu (tests/apsp/brandes_gpu.sh; exit 77 without CUDA or a GPU): GPU units alone, then
 * GPUs with CPU cores, must give the same bits as the CPU's sums (one canonical order of sums). */
#include <math.h>
#include <tuccompi.h>

#include "batched/batch_gpu.h"
#include "brandes/brandes.h"
#include "cli.h"
#include "graph.h"
#include "sssp.h"
#include "sssp_ref.h"
#include "testutil.h"

/* ------------------------------------------------------------------ the plain reference */

struct ref
{
	const struct graph *g;
	uint64_t *in_at; /* in-arcs of v: tails in_u[in_at[v] .. in_at[v+1]-1], weights in_w */
	uint32_t *in_u, *in_w;
	uint32_t *dist; /* n x n */
	long double *sigma; /* n x n: shortest paths s -> v */
	char *known;
};

static long double ref_sigma(struct ref *r, uint32_t s, uint32_t v)
{
	uint32_t n = r->g->n;
	size_t at = (size_t)s * n + v;
	if (r->known[at])
		return r->sigma[at];
	long double x = 0;
	if (v == s)
		x = 1;
	else if (r->dist[at] != GRAPH_INF)
		/* every tight arc u -> v: the paths to u, then the arc */
		for (uint64_t e = r->in_at[v]; e < r->in_at[v + 1]; e++)
		{
			uint32_t u = r->in_u[e];
			if (r->dist[(size_t)s * n + u] != GRAPH_INF && (uint64_t)r->dist[(size_t)s * n + u] + r->in_w[e] == r->dist[at])
				x += ref_sigma(r, s, u);
		}
	r->known[at] = 1;
	r->sigma[at] = x;
	return x;
}

/* bc[v] = sum over the sources s and targets t (s, t, v distinct) of sigma_st(v) / sigma_st. */
static void reference(const struct graph *g, const uint32_t *src, uint64_t k, long double *bc)
{
	uint32_t n = g->n;
	struct ref r = { g, calloc((size_t)n + 1, 8), malloc(g->m * 4 + 4), malloc(g->m * 4 + 4), malloc((size_t)n * n * 4),
			 malloc((size_t)n * n * sizeof(long double)), calloc((size_t)n * n, 1) };
	ASSERT(r.in_at && r.in_u && r.in_w && r.dist && r.sigma && r.known);
	for (uint64_t e = 0; e < g->m; e++)
		r.in_at[g->col[e] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		r.in_at[v + 1] += r.in_at[v];
	uint64_t *fill = malloc(((size_t)n + 1) * 8);
	memcpy(fill, r.in_at, ((size_t)n + 1) * 8);
	for (uint32_t u = 0; u < n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint64_t at = fill[g->col[e]]++;
			r.in_u[at] = u;
			r.in_w[at] = g->w[e];
		}
	free(fill);
	for (uint32_t s = 0; s < n; s++)
		sssp_ref(g, s, r.dist + (size_t)s * n);
	for (uint32_t v = 0; v < n; v++)
		bc[v] = 0;
	for (uint64_t i = 0; i < k; i++)
	{
		uint32_t s = src[i];
		const uint32_t *ds = r.dist + (size_t)s * n;
		for (uint32_t t = 0; t < n; t++)
		{
			if (t == s || ds[t] == GRAPH_INF)
				continue;
			long double st = ref_sigma(&r, s, t);
			for (uint32_t v = 0; v < n; v++)
			{
				const uint32_t dv = r.dist[(size_t)v * n + t];
				if (v == s || v == t || ds[v] == GRAPH_INF || dv == GRAPH_INF || (uint64_t)ds[v] + dv != ds[t])
					continue;
				bc[v] += ref_sigma(&r, s, v) * ref_sigma(&r, v, t) / st;
			}
		}
	}
	free(r.in_at);
	free(r.in_u);
	free(r.in_w);
	free(r.dist);
	free(r.sigma);
	free(r.known);
}

/* ------------------------------------------------------------------ the engine's pieces */

/* sssp_brandes_cpu() source by source, summed exactly (the bits any run must give). */
static void direct(const struct graph *g, const uint32_t *src, uint64_t k, struct tuccompi_exact *acc)
{
	uint32_t n = g->n;
	uint64_t *irp = malloc(((size_t)n + 1) * 8);
	uint32_t *icol = malloc((g->m + 1) * 4), *iw = malloc((g->m + 1) * 4), *dist = malloc((size_t)n * 4);
	void *work = malloc(sssp_brandes_cpu_work_size(n));
	ASSERT(irp && icol && iw && dist && work);
	struct sssp_graph view = apsp_graph_view(g);
	sssp_transpose(&view, irp, icol, iw);
	struct sssp_brandes_graph bg = { n, g->m, g->rowptr, g->col, g->w, irp, icol, iw, NULL };
	memset(acc, 0, (size_t)n * sizeof(*acc));
	char err[256];
	for (uint64_t i = 0; i < k; i++)
	{
		sssp_ref(g, src[i], dist);
		const double *delta = sssp_brandes_cpu(&bg, src[i], dist, work, err, sizeof(err));
		if (!delta)
			FAIL("sssp_brandes_cpu(source %u): %s", src[i], err);
		sssp_brandes_accumulate(acc, delta, n, src[i]);
	}
	free(irp);
	free(icol);
	free(iw);
	free(dist);
	free(work);
}

static void near(const char *what, const struct tuccompi_exact *acc, const long double *bc, uint32_t n)
{
	for (uint32_t v = 0; v < n; v++)
	{
		double got = tuccompi_exact_value(&acc[v]);
		long double want = bc[v];
		if (fabsl(got - want) > 1e-10L * fabsl(want) + 1e-12L)
			FAIL("%s: betweenness of %u is %.17g, reference %.17Lg", what, v, got, want);
	}
}

/* The engine through a task set: the sums (root) and the summaries. */
static void run_engine(const char *what, struct graph *g, const uint32_t *src, uint64_t k, const char *policy,
		       int cpu, int cuda, const struct tuccompi_exact *want)
{
	struct sssp_graph view = apsp_graph_view(g);
	struct sssp_options o = { .cpu = cpu, .cuda = cuda, .nsources = k, .betweenness = 1 };
	struct sssp_plan *plan;
	char why[512];
	if (sssp_plan_create(&view, &o, &plan, why, sizeof(why)) < 0)
		FAIL("%s: sssp_plan_create: %s", what, why);
	ASSERT_EQ(sssp_plan_engine(plan), SSSP_ENGINE_BRANDES);
	struct tuccompi_exact *acc = calloc(g->n, sizeof(*acc));
	struct sssp_summary *res = calloc(k, sizeof(*res));
	struct sssp_args args = { .betweenness = acc };
	struct tuccompi_taskset_desc desc = { .results = res };
	ASSERT_OK(sssp_plan_taskset(plan, src, k, &args, &desc));
	ASSERT_EQ(desc.reduce.size, (size_t)g->n * sizeof(struct tuccompi_exact));
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(tuccompi_policy_by_name(policy), &desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	struct tuccompi_taskset_stats st;
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	uint64_t on_gpu = 0;
	for (int u = 0; u < st.nunits; u++)
		on_gpu += st.units[u].kind == TUCCOMPI_UNIT_CUDA ? st.units[u].ntasks : 0;
	if (!cpu)
		ASSERT_EQ(on_gpu, k);
	if (tuccompi_rank() == 0)
	{
		for (uint32_t v = 0; v < g->n; v++)
			if (memcmp(&acc[v], &want[v], sizeof(acc[v])))
				FAIL("%s (%s, %s%s): betweenness of %u is %.17g, the exact CPU sum %.17g (other bits)", what, policy,
				     cpu ? "CPU" : "", cuda ? "+GPU" : "", v, tuccompi_exact_value(&acc[v]),
				     tuccompi_exact_value(&want[v]));
		uint32_t *dist = malloc((size_t)g->n * 4);
		for (uint64_t i = 0; i < k; i++)
		{
			struct sssp_summary ref;
			sssp_ref(g, src[i], dist);
			sssp_summarize(dist, g->n, src[i], &ref);
			if (res[i].sum != ref.sum || res[i].reached != ref.reached || res[i].ecc != ref.ecc ||
			    res[i].source != src[i])
				FAIL("%s: summary of source %u: sum %llu/%llu reached %u/%u", what, src[i],
				     (unsigned long long)res[i].sum, (unsigned long long)ref.sum, res[i].reached, ref.reached);
		}
		free(dist);
		printf("%s, %s, %s%s: %llu sources, same bits as the exact CPU sums (%llu on GPUs)\n", what, policy,
		       cpu ? "CPU" : "", cuda ? "+GPU" : "", (unsigned long long)k, (unsigned long long)on_gpu);
	}
	tuccompi_taskset_destroy(ts);
	sssp_plan_taskset_done(plan, &desc);
	sssp_plan_free(plan);
	free(acc);
	free(res);
}

static void check_graph(const char *what, struct graph *g, int gpu)
{
	uint32_t n = g->n;
	uint32_t *all = malloc((size_t)n * 4), *some = malloc((size_t)n * 4);
	uint64_t k = 0;
	for (uint32_t v = 0; v < n; v++)
	{
		all[v] = v;
		if (v % 3 == 1)
			some[k++] = v;
	}
	long double *bc = malloc((size_t)n * sizeof(*bc));
	struct tuccompi_exact *acc_all = malloc((size_t)n * sizeof(*acc_all)), *acc_some = malloc((size_t)n * sizeof(*acc_some));
	reference(g, all, n, bc);
	direct(g, all, n, acc_all);
	near(what, acc_all, bc, n);
	reference(g, some, k, bc);
	direct(g, some, k, acc_some);
	near(what, acc_some, bc, n);
	if (!gpu)
	{
		static const char *const policies[] = { "eq1", "eq2", "ms", "ms-tail" };
		for (int i = 0; i < 4; i++)
			run_engine(what, g, all, n, policies[i], 1, 0, acc_all);
		run_engine(what, g, some, k, "ms", 1, 0, acc_some);
	}
	else
	{
		run_engine(what, g, all, n, "ms", 0, 1, acc_all);
		run_engine(what, g, some, k, "eq1", 0, 1, acc_some);
		run_engine(what, g, all, n, "ms", 1, 1, acc_all);
	}
	free(all);
	free(some);
	free(bc);
	free(acc_all);
	free(acc_some);
}

/* Arcs of weight 0 only from lower to higher ids (no cycle of them), some vertices unreachable. */
static void zero_weight_graph(struct graph *g, int cycle)
{
	uint32_t n = 180, m = 0, s[700], d[700], w[700];
	uint64_t seed = 5;
	for (uint32_t i = 0; i < 600; i++)
	{
		uint32_t a = (uint32_t)(graph_splitmix64(&seed) % (n - 20)), b = (uint32_t)(graph_splitmix64(&seed) % (n - 20));
		uint32_t x = (uint32_t)(graph_splitmix64(&seed) % 4);
		s[m] = a;
		d[m] = b;
		w[m++] = x == 0 && a > b ? 1 : x; /* weight 0 only upwards */
	}
	if (cycle) /* 7 -> 9 -> 7, both of weight 0 */
	{
		s[m] = 7, d[m] = 9, w[m++] = 0;
		s[m] = 9, d[m] = 7, w[m++] = 0;
	}
	struct graph_error err;
	ASSERT_OK(graph_from_arcs(n, m, s, d, w, g, &err)); /* the last 20 vertices: isolated */
}

/* Two grids side by side, one-way arcs between them, a few isolated vertices. */
static void two_parts_graph(struct graph *g)
{
	uint32_t s[400], d[400], w[400], m = 0;
	for (uint32_t part = 0; part < 2; part++)
		for (uint32_t r = 0; r < 5; r++)
			for (uint32_t c = 0; c < 6; c++)
			{
				uint32_t v = part * 30 + r * 6 + c;
				if (c + 1 < 6)
					s[m] = v, d[m] = v + 1, w[m++] = 1, s[m] = v + 1, d[m] = v, w[m++] = 1;
				if (r + 1 < 5)
					s[m] = v, d[m] = v + 6, w[m++] = 1, s[m] = v + 6, d[m] = v, w[m++] = 1;
			}
	s[m] = 5, d[m] = 30, w[m++] = 2; /* from the first part into the second only */
	s[m] = 29, d[m] = 42, w[m++] = 1;
	struct graph_error err;
	ASSERT_OK(graph_from_arcs(64, m, s, d, w, g, &err));
}

/* A hub joined both ways to 300 vertices on a ring: more than one chunk of arcs each way. */
static void hub_graph(struct graph *g)
{
	uint32_t n = 301, m = 0, *s = malloc(4 * 1200), *d = malloc(4 * 1200), *w = malloc(4 * 1200);
	for (uint32_t v = 1; v < n; v++)
	{
		s[m] = 0, d[m] = v, w[m++] = 1 + v % 3;
		s[m] = v, d[m] = 0, w[m++] = 1 + v % 2;
		s[m] = v, d[m] = v % 300 + 1, w[m++] = 1;
	}
	struct graph_error err;
	ASSERT_OK(graph_from_arcs(n, m, s, d, w, g, &err));
	free(s);
	free(d);
	free(w);
}

int main(int argc, char **argv)
{
	int gpu = argc > 1 && !strcmp(argv[1], "--gpu");
	if (gpu && !sssp_have_cuda())
	{
		fprintf(stderr, "built without CUDA: skipped\n");
		return TEST_SKIP;
	}
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	conf.ncpus = gpu ? 1 : 2;
	conf.mk = 2;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	if (gpu && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0)
	{
		fprintf(stderr, "no GPU: skipped\n");
		tuccompi_finalize();
		return TEST_SKIP;
	}
	struct graph g = { 0 };
	struct graph_error err;
	ASSERT_OK(graph_gen_grid(14, 14, 1, 1, 1, &g, &err));
	check_graph("grid 14x14, unit weights", &g, gpu);
	graph_free(&g);
	ASSERT_OK(graph_gen_grid(3, 60, 1, 1, 1, &g, &err));
	check_graph("grid 3x60, unit weights", &g, gpu);
	graph_free(&g);
	ASSERT_OK(graph_gen_random(240, 1, 3, 1, 10, 3, &g, &err));
	check_graph("random 240, out-degrees 1-3, weights 1-10", &g, gpu);
	graph_free(&g);
	zero_weight_graph(&g, 0);
	check_graph("random 180 with arcs of weight 0 and isolated vertices", &g, gpu);
	graph_free(&g);
	two_parts_graph(&g);
	check_graph("two grids, one-way arcs between them", &g, gpu);
	graph_free(&g);
	hub_graph(&g);
	check_graph("a hub of 300 arcs each way", &g, gpu);
	graph_free(&g);

	/* a cycle of arcs of weight 0: refused, saying so */
	zero_weight_graph(&g, 1);
	struct sssp_graph view = apsp_graph_view(&g);
	struct sssp_options o = { .cpu = 1, .nsources = 1, .betweenness = 1 };
	struct sssp_plan *plan;
	char why[512];
	ASSERT_EQ(sssp_plan_create(&view, &o, &plan, why, sizeof(why)), -EINVAL);
	ASSERT_STR_CONTAINS(why, "arcs of weight 0 form a cycle");
	graph_free(&g);
	if (tuccompi_rank() == 0)
		printf("a cycle of arcs of weight 0: refused\n");
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
