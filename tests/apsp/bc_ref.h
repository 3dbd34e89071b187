/* What the betweenness tests share (tests/apsp/brandes.c, dial_brandes.c, dial_brandes_gpu.c): the
 * graph both ways, the bits every betweenness engine must give (the brandes engine's CPU code source
 * by source, summed exactly: vertices, then arcs), the first sum that differs, test graphs, and a run
 * of an engine through the runtime checked against those bits. */
#ifndef TUCCOMPI_TESTS_BC_REF_H
#define TUCCOMPI_TESTS_BC_REF_H

#include <tuccompi.h>

#include "batched/batch_gpu.h"
#include "brandes/brandes.h"
#include "cli.h"
#include "graph.h"
#include "sssp.h"
#include "sssp_ref.h"
#include "testutil.h"

/* The graph both ways, host pointers. */
struct both
{
	struct sssp_brandes_graph bg;
	uint64_t *irp;
	uint32_t *icol, *iw;
};

static inline void both_of(const struct graph *g, struct both *b)
{
	b->irp = malloc(((size_t)g->n + 1) * 8);
	b->icol = malloc((g->m + 1) * 4);
	b->iw = malloc((g->m + 1) * 4);
	ASSERT(b->irp && b->icol && b->iw);
	struct sssp_graph view = apsp_graph_view(g);
	sssp_transpose(&view, b->irp, b->icol, b->iw);
	struct sssp_brandes_graph bg = { g->n, g->m, g->rowptr, g->col, g->w, b->irp, b->icol, b->iw, NULL };
	b->bg = bg;
}

static inline void both_free(struct both *b)
{
	free(b->irp);
	free(b->icol);
	free(b->iw);
}

/* The brandes engine's CPU code source by source (reference distances), summed exactly: n vertex
 * sums, then with @p edges m arc sums. */
static inline void bc_reference(const struct graph *g, const struct both *b, const uint32_t *src, uint64_t k,
				int edges, struct tuccompi_exact *acc)
{
	uint32_t *dist = malloc((size_t)g->n * 4);
	void *work = malloc(sssp_brandes_cpu_work_size(g->n));
	ASSERT(dist && work);
	memset(acc, 0, ((size_t)g->n + (edges ? g->m : 0)) * sizeof(*acc));
	char err[256];
	for (uint64_t i = 0; i < k; i++)
	{
		sssp_ref(g, src[i], dist);
		const double *delta = sssp_brandes_cpu(&b->bg, src[i], dist, work, edges ? acc + g->n : NULL, err, sizeof(err));
		if (!delta)
			FAIL("sssp_brandes_cpu(source %u): %s", src[i], err);
		sssp_brandes_accumulate(acc, delta, g->n, src[i]);
	}
	free(dist);
	free(work);
}

/* The first vertex or arc (of n, then @p narcs) whose sums differ, printed with both values and the
 * vertex's (or arc's) degrees; 0 if none. */
static inline int bc_differ(const char *what, const struct graph *g, const struct both *b, uint64_t narcs,
			    const struct tuccompi_exact *got, const struct tuccompi_exact *want)
{
	for (uint64_t i = 0; i < g->n + narcs; i++)
		if (memcmp(&got[i], &want[i], sizeof(got[i])))
		{
			double x = tuccompi_exact_value(&got[i]), y = tuccompi_exact_value(&want[i]);
			if (i < g->n)
				fprintf(stderr, "%s: vertex %llu (in-degree %llu, out-degree %llu): %.17g, the brandes engine's %.17g\n",
					what, (unsigned long long)i, (unsigned long long)(b->irp[i + 1] - b->irp[i]),
					(unsigned long long)(g->rowptr[i + 1] - g->rowptr[i]), x, y);
			else
				fprintf(stderr, "%s: arc %llu: flow %.17g, the brandes engine's %.17g\n", what,
					(unsigned long long)(i - g->n), x, y);
			return 1;
		}
	return 0;
}

static inline uint32_t bc_wmax(const struct graph *g)
{
	uint32_t w = 1;
	for (uint64_t e = 0; e < g->m; e++)
		w = g->w[e] > w ? g->w[e] : w;
	return w;
}

/* Two grids side by side, one-way arcs between them, a few isolated vertices. */
static inline void bc_two_parts_graph(struct graph *g)
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

/* A hub (vertex 0) joined both ways to @p k vertices on a ring: k / SSSP_BRANDES_CHUNK chunks of arcs
 * each way. */
static inline void bc_hub_graph(struct graph *g, uint32_t k)
{
	uint32_t n = k + 1, m = 0, *s = malloc(4 * 3 * k), *d = malloc(4 * 3 * k), *w = malloc(4 * 3 * k);
	ASSERT(s && d && w);
	for (uint32_t v = 1; v < n; v++)
	{
		s[m] = 0, d[m] = v, w[m++] = 1 + v % 3;
		s[m] = v, d[m] = 0, w[m++] = 1 + v % 2;
		s[m] = v, d[m] = v % k + 1, w[m++] = 1;
	}
	struct graph_error err;
	ASSERT_OK(graph_from_arcs(n, m, s, d, w, g, &err));
	free(s);
	free(d);
	free(w);
}

/* Engine @p engine (by its --engine name: auto, batched, dial) for betweenness through a task set on
 * the units asked: the sums on the root (with @p edges the arcs' too) must have the bits of @p want,
 * the summaries the reference distances', the plan's engine be @p expect. Returns 1 when the CPU units
 * ran sources in batches (the levels' form), else 0. */
static inline int bc_run_engine(const char *what, struct graph *g, const uint32_t *src, uint64_t k, const char *policy,
				 int cpu, int cuda, enum sssp_engine engine, int edges, const struct tuccompi_exact *want,
				 enum sssp_engine expect)
{
	struct sssp_graph view = apsp_graph_view(g);
	struct sssp_options o = { .engine = engine, .cpu = cpu, .cuda = cuda, .nsources = k, .betweenness = 1,
				  .edge_betweenness = edges };
	struct sssp_plan *plan;
	char why[512];
	if (sssp_plan_create(&view, &o, &plan, why, sizeof(why)) < 0)
		FAIL("%s: sssp_plan_create: %s", what, why);
	if (sssp_plan_engine(plan) != expect)
		FAIL("%s: the plan runs %s (%s), not %s", what, sssp_engine_name(sssp_plan_engine(plan)),
		     sssp_plan_reason(plan), sssp_engine_name(expect));
	uint64_t nsums = (uint64_t)g->n + (edges ? g->m : 0);
	struct tuccompi_exact *acc = calloc(nsums, sizeof(*acc));
	struct sssp_summary *res = calloc(k, sizeof(*res));
	struct sssp_args args = { .betweenness = acc };
	struct tuccompi_taskset_desc desc = { .results = res };
	ASSERT_OK(sssp_plan_taskset(plan, src, k, &args, &desc));
	ASSERT_EQ(desc.reduce.size, (size_t)nsums * sizeof(struct tuccompi_exact));
	int batches = desc.plugin->cpu_batch != NULL;
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
		struct both b;
		both_of(g, &b);
		char tag[300];
		snprintf(tag, sizeof tag, "%s (%s, %s, %s%s)", what, sssp_engine_name(expect), policy, cpu ? "CPU" : "",
			 cuda ? "+GPU" : "");
		if (bc_differ(tag, g, &b, edges ? g->m : 0, acc, want))
			FAIL("%s: other bits than the exact CPU sums", tag);
		both_free(&b);
		uint32_t *dist = malloc((size_t)g->n * 4);
		for (uint64_t i = 0; i < k; i++)
		{
			struct sssp_summary ref;
			sssp_ref(g, src[i], dist);
			sssp_summarize(dist, g->n, src[i], &ref);
			if (res[i].sum != ref.sum || res[i].reached != ref.reached || res[i].ecc != ref.ecc ||
			    res[i].source != src[i])
				FAIL("%s: summary of source %u: sum %llu/%llu reached %u/%u", tag, src[i],
				     (unsigned long long)res[i].sum, (unsigned long long)ref.sum, res[i].reached, ref.reached);
		}
		free(dist);
		printf("%s: %llu sources, same bits as the exact CPU sums%s (%llu on GPUs%s)\n", tag, (unsigned long long)k,
		       edges ? ", arcs too" : "", (unsigned long long)on_gpu, batches ? "; CPU units in batches" : "");
	}
	tuccompi_taskset_destroy(ts);
	sssp_plan_taskset_done(plan, &desc);
	sssp_plan_free(plan);
	free(acc);
	free(res);
	return batches;
}

#endif
