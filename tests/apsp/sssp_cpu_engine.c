/* Tests of the CPU bucket-queue engine (codelets/sssp/cpu/sssp_cpu.c): every distance and every summary
 * field (reached, sum, ecc, overflow, source, harmonic) must equal those of the independent reference
 * (tests/apsp/sssp_ref.h), from every source of small graphs and from sampled sources of larger
 * ones, for each of its configurations (Dial's buckets of width 1, 8, 64, 2^20 or chosen from the
 * weights, radix heap, pipelined or plain, renumbered or not, a queue pool small enough to be
 * compacted often). Graphs: random (sparse with unreachable parts,
 * dense), R-MAT, grids; weights 1..10, 0..10 and 0..1,000,000; zero-weight arcs and cycles; a single
 * vertex; isolated vertices; a graph whose pending entries overflow the queue's pool many times; and
 * paths long enough to reach 2^31 (overflow flagged) and 2^32 (saturated exactly like sssp_dijkstra).
 * The packed graph is also moved to another address before use (it must hold no pointers), and
 * workspaces and rows start out full of garbage. */
#include <math.h>

#include "graph.h"
#include "cli.h"
#include "sssp.h"
#include "cpu/sssp_cpu.h"
#include "sssp_ref.h"
#include "testutil.h"

struct variant
{
	const char *name;
	struct sssp_cpu_options o;
};

static const struct variant variants[] = {
	{ "auto", { 0 } },
	{ "dial", { .queue = SSSP_CPU_QUEUE_DIAL } },
	{ "dial width 1", { .delta = 1 } },
	{ "dial width 8", { .delta = 8 } },
	{ "dial width 2^20 plain", { .delta = 1u << 20, .plain = 1 } },
	{ "dial width 64 tight pool renumbered", { .delta = 64, .spare16 = 1, .relabel = 1 } },
	{ "radix", { .queue = SSSP_CPU_QUEUE_RADIX } },
	{ "plain", { .plain = 1 } },
	{ "radix plain", { .queue = SSSP_CPU_QUEUE_RADIX, .plain = 1 } },
	{ "renumbered", { .relabel = 1 } },
	{ "radix renumbered", { .queue = SSSP_CPU_QUEUE_RADIX, .relabel = 1 } },
	{ "not renumbered", { .relabel = -1 } },
	{ "tight pool", { .spare16 = 1 } },
	{ "radix tight pool renumbered", { .queue = SSSP_CPU_QUEUE_RADIX, .spare16 = 1, .relabel = 1 } },
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static void *xalloc(size_t size)
{
	void *p = aligned_alloc(64, (size + 63) & ~(size_t)63);
	ASSERT(p);
	return p;
}

/* Pack @p g with @p o, then move the packed bytes to a fresh buffer (they must be position-independent). */
static void *pack_moved(const struct sssp_graph *g, const struct sssp_cpu_options *o)
{
	size_t size = sssp_cpu_packed_size_opt(g, o);
	void *a = xalloc(size), *b = xalloc(size);
	memset(a, 0x5a, size);
	sssp_cpu_pack_opt(g, o, a);
	memcpy(b, a, size);
	memset(a, 0xa5, size);
	free(a);
	return b;
}

static void check_summary(const char *what, const char *var, uint32_t s, const struct sssp_summary *got,
			  const struct sssp_summary *want)
{
	if (got->source != want->source || got->reached != want->reached || got->sum != want->sum ||
	    got->ecc != want->ecc || got->overflow != want->overflow || got->phases != 0 || got->harmonic != want->harmonic)
		FAIL("%s, %s, source %u: summary (source %" PRIu64 ", reached %u, sum %" PRIu64
		     ", ecc %u, overflow %u, phases %u, harmonic %.17g), want (%" PRIu64 ", %u, %" PRIu64 ", %u, %u, 0, %.17g)",
		     what, var, s, got->source, got->reached, got->sum, got->ecc, got->overflow, got->phases, got->harmonic,
		     want->source, want->reached, want->sum, want->ecc, want->overflow, want->harmonic);
}

/* Every variant from each source of @p src (k of them; NULL: all) against the reference. */
static void check_graph(const struct graph *gr, const uint32_t *src, uint32_t k, const char *what)
{
	struct sssp_graph g = apsp_graph_view(gr);
	uint32_t n = g.n, ns = src ? k : n;
	uint32_t *want = malloc((size_t)ns * n * sizeof(uint32_t)), *dist = malloc((size_t)n * sizeof(uint32_t));
	ASSERT(want && dist);
	for (uint32_t i = 0; i < ns; i++)
		sssp_ref(gr, src ? src[i] : i, want + (size_t)i * n);
	for (size_t vi = 0; vi < NVARIANTS; vi++)
	{
		const struct variant *var = &variants[vi];
		/* narrow buckets need many of them (one per weight value at width 1): not for large weights */
		if (var->o.delta && var->o.delta <= 8 && g.max_w > 65535)
			continue;
		void *packed = pack_moved(&g, &var->o);
		enum sssp_cpu_queue q = sssp_cpu_packed_queue(packed);
		ASSERT(q == SSSP_CPU_QUEUE_DIAL || q == SSSP_CPU_QUEUE_RADIX);
		ASSERT_EQ(q, var->o.queue == SSSP_CPU_QUEUE_RADIX ? SSSP_CPU_QUEUE_RADIX : SSSP_CPU_QUEUE_DIAL);
		if (var->o.relabel)
			ASSERT_EQ(sssp_cpu_packed_renumbered(packed), var->o.relabel > 0 && n > 1);
		size_t wsize = sssp_cpu_workspace_size(packed);
		void *work = xalloc(wsize);
		memset(work, 0xab, wsize);
		for (uint32_t i = 0; i < ns; i++)
		{
			uint32_t s = src ? src[i] : i;
			const uint32_t *w = want + (size_t)i * n;
			struct sssp_summary got, sum;
			memset(dist, 0x3c, (size_t)n * sizeof(uint32_t));
			memset(&got, 0x77, sizeof got);
			sssp_cpu_run(packed, s, dist, work, &got);
			for (uint32_t v = 0; v < n; v++)
				if (dist[v] != w[v])
					FAIL("%s, %s, source %u: dist[%u] = %u, reference %u", what, var->name, s, v,
					     dist[v], w[v]);
			sssp_summarize(w, n, s, &sum);
			check_summary(what, var->name, s, &got, &sum);
		}
		free(work);
		free(packed);
	}
	free(want);
	free(dist);
}

/* A sample of sources: the ends, the middle, and some spread out. */
static uint32_t sample(uint32_t n, uint32_t *src, uint32_t k)
{
	for (uint32_t i = 0; i < k; i++)
		src[i] = (uint32_t)((uint64_t)i * (n - 1) / (k - 1));
	return k;
}

static void check_generated(int ret, struct graph *g, const struct graph_error *err, int all, const char *what)
{
	if (ret < 0)
		FAIL("%s: %s", what, err->msg);
	uint32_t src[12];
	check_graph(g, all ? NULL : src, all ? 0 : sample(g->n, src, 12), what);
	graph_free(g);
}

static void from_arcs(uint32_t n, uint64_t m, const uint32_t *s, const uint32_t *d, const uint32_t *w, struct graph *g)
{
	struct graph_error err;
	if (graph_from_arcs(n, m, s, d, w, g, &err) < 0)
		FAIL("graph_from_arcs: %s", err.msg);
}

/* Source 0 reaches a_1..a_K (a_i at distance i); a_i offers b_j the distance 2K - i + 1, so each b_j
 * improves K times and K^2 entries wait in the queue at once: far more than its pool holds. */
static void check_pool_overflow(uint32_t K)
{
	uint32_t n = 1 + 2 * K;
	uint64_t m = K + (uint64_t)K * K;
	uint32_t *s = malloc(m * 4), *d = malloc(m * 4), *w = malloc(m * 4);
	ASSERT(s && d && w);
	uint64_t e = 0;
	for (uint32_t i = 1; i <= K; i++)
	{
		s[e] = 0, d[e] = i, w[e++] = i;
		for (uint32_t j = 0; j < K; j++)
			s[e] = i, d[e] = K + 1 + j, w[e++] = 2 * (K - i) + 1;
	}
	struct graph g = { 0 };
	from_arcs(n, m, s, d, w, &g);
	uint32_t src[] = { 0, 1, K, K + 1 };
	check_graph(&g, src, 4, "pool overflow");
	graph_free(&g);
	free(s), free(d), free(w);
}

/* A path 0 -> 1 -> ... -> len of weight w (and a branch back to 0). */
static void path(uint32_t len, uint32_t wt, struct graph *g)
{
	uint32_t *s = malloc((len + 1) * 4), *d = malloc((len + 1) * 4), *w = malloc((len + 1) * 4);
	ASSERT(s && d && w);
	for (uint32_t i = 0; i < len; i++)
		s[i] = i, d[i] = i + 1, w[i] = wt;
	s[len] = len, d[len] = 0, w[len] = 0;
	from_arcs(len + 1, len + 1, s, d, w, g);
	free(s), free(d), free(w);
}

/* Distances past 2^32 - 1: the engine must saturate exactly as sssp_dijkstra does (the reference
 * refuses such graphs). */
static void check_saturation(void)
{
	struct graph gr = { 0 };
	path(4400, 1000000, &gr); /* 4.4e9 > 2^32 */
	struct sssp_graph g = apsp_graph_view(&gr);
	uint32_t n = g.n;
	uint32_t *want = malloc(n * 4), *dist = malloc(n * 4), *heap = malloc(n * 4), *pos = malloc(n * 4);
	ASSERT(want && dist && heap && pos);
	for (size_t vi = 0; vi < NVARIANTS; vi++)
	{
		if (variants[vi].o.delta && variants[vi].o.delta <= 8)
			continue;
		void *packed = pack_moved(&g, &variants[vi].o);
		void *work = xalloc(sssp_cpu_workspace_size(packed));
		uint32_t srcs[] = { 0, 100, 4400 };
		for (int i = 0; i < 3; i++)
		{
			struct sssp_summary got, sum;
			sssp_dijkstra(&g, srcs[i], want, heap, pos, &sum);
			sssp_cpu_run(packed, srcs[i], dist, work, &got);
			ASSERT_EQ(sum.overflow, 1);
			ASSERT_EQ(sum.ecc, SSSP_INF - 1);
			for (uint32_t v = 0; v < n; v++)
				if (dist[v] != want[v])
					FAIL("saturation, %s, source %u: dist[%u] = %u, sssp_dijkstra %u",
					     variants[vi].name, srcs[i], v, dist[v], want[v]);
			check_summary("saturation", variants[vi].name, srcs[i], &got, &sum);
		}
		free(work);
		free(packed);
	}
	free(want), free(dist), free(heap), free(pos);
	graph_free(&gr);
}

/* The harmonic sum's fixed point (sssp_types.h): a term is 1/d within 2^-53 relatively (d = 1,
 * small, 2^29 and the largest distances), d = 0 and unreachable count nothing, c terms at once are
 * c single additions (128-bit carries included), and the order of the additions changes no bit. */
static void check_harmonic(void)
{
	static const uint32_t ds[] = { 1, 2, 3, 7, 10, 999999, 1u << 29, 0x7fffffffu, SSSP_INF - 1 };
	for (unsigned i = 0; i < sizeof ds / sizeof ds[0]; i++)
	{
		double v = sssp_harm_value(sssp_harm_term(ds[i])), want = 1.0 / ds[i];
		if (fabs(v - want) > want * 0x1p-52)
			FAIL("harmonic term of %u: %.17g, 1/d %.17g", ds[i], v, want);
		struct sssp_harm once = { 0, 0 }, each = { 0, 0 };
		sssp_harm_add_times(&once, sssp_harm_term(ds[i]), 4000000000u);
		for (uint32_t k = 0; k < 4000; k++)
			sssp_harm_add_times(&each, sssp_harm_term(ds[i]), 1000000);
		ASSERT(once.lo == each.lo && once.hi == each.hi);
	}
	struct sssp_harm z = sssp_harm_term(0), u = sssp_harm_term(SSSP_INF);
	ASSERT(z.lo == 0 && z.hi == 0 && u.lo == 0 && u.hi == 0);
	/* 1/1 + 1/3 + 1/7 ... forwards and backwards */
	struct sssp_harm f = { 0, 0 }, b = { 0, 0 };
	long double sum = 0;
	for (unsigned i = 0; i < sizeof ds / sizeof ds[0]; i++)
	{
		sssp_harm_add(&f, sssp_harm_term(ds[i]));
		sssp_harm_add(&b, sssp_harm_term(ds[sizeof ds / sizeof ds[0] - 1 - i]));
		sum += 1.0L / ds[i];
	}
	ASSERT(f.lo == b.lo && f.hi == b.hi);
	if (fabs(sssp_harm_value(f) - (double)sum) > 1e-15 * (double)sum)
		FAIL("harmonic sum %.17g, 1/d summed %.17g", sssp_harm_value(f), (double)sum);
	printf("sssp_cpu_engine: harmonic terms within 2^-52 of 1/d, sums independent of order\n");
}

int main(void)
{
	struct graph g = { 0 };
	struct graph_error err;
	int all = 1;
	check_harmonic();

	/* random: sparse (many unreachable vertices), then dense; weights 1..10, 0..10, 0..1e6 */
	check_generated(graph_gen_random(300, 0, 2, 1, 10, 1, &g, &err), &g, &err, all, "random sparse 1..10");
	check_generated(graph_gen_random(300, 0, 3, 0, 10, 2, &g, &err), &g, &err, all, "random sparse 0..10");
	check_generated(graph_gen_random(200, 1, 4, 0, 1000000, 3, &g, &err), &g, &err, all,
			"random sparse 0..1e6");
	check_generated(graph_gen_random(120, 60, 119, 0, 10, 4, &g, &err), &g, &err, all, "random dense 0..10");
	check_generated(graph_gen_random(120, 60, 119, 0, 1000000, 5, &g, &err), &g, &err, all,
			"random dense 0..1e6");
	check_generated(graph_gen_random(20000, 1, 9, 1, 10, 6, &g, &err), &g, &err, !all, "random 20000 1..10");
	check_generated(graph_gen_random(20000, 1, 9, 1, 1000000, 7, &g, &err), &g, &err, !all,
			"random 20000 1..1e6");

	/* R-MAT (skewed: renumbered by default) */
	check_generated(graph_gen_rmat(8, 8, 0.57, 0.19, 0.19, 1, 10, 8, &g, &err), &g, &err, all, "R-MAT 8 1..10");
	check_generated(graph_gen_rmat(8, 8, 0.57, 0.19, 0.19, 0, 1000000, 9, &g, &err), &g, &err, all,
			"R-MAT 8 0..1e6");
	check_generated(graph_gen_rmat(13, 16, 0.57, 0.19, 0.19, 0, 10, 10, &g, &err), &g, &err, !all,
			"R-MAT 13 0..10");

	/* grids */
	check_generated(graph_gen_grid(15, 20, 0, 10, 11, &g, &err), &g, &err, all, "grid 15x20 0..10");
	check_generated(graph_gen_grid(12, 17, 1, 1000000, 12, &g, &err), &g, &err, all, "grid 12x17 1..1e6");
	check_generated(graph_gen_grid(150, 130, 1, 10, 13, &g, &err), &g, &err, !all, "grid 150x130 1..10");

	/* zero-weight arcs and cycles: 0 -0-> 1 -0-> 2 -0-> 0, 2 -3-> 3 -0-> 4 -0-> 3, 0 -5-> 4,
	 * 4 -1-> 5 -0-> 6 -2-> 5, 1 -7-> 6; vertices 7 and 8 isolated; 9 -0-> 0 (reaches all, unreached) */
	{
		uint32_t s[] = { 0, 1, 2, 2, 3, 4, 0, 4, 5, 6, 1, 9 };
		uint32_t d[] = { 1, 2, 0, 3, 4, 3, 4, 5, 6, 5, 6, 0 };
		uint32_t w[] = { 0, 0, 0, 3, 0, 0, 5, 1, 0, 2, 7, 0 };
		from_arcs(10, 12, s, d, w, &g);
		check_graph(&g, NULL, 0, "zero-weight cycles");
		graph_free(&g);
	}
	/* all weights zero: every reached vertex at distance 0 */
	check_generated(graph_gen_random(200, 0, 3, 0, 0, 14, &g, &err), &g, &err, all, "random all zero");

	/* a single vertex, and isolated vertices around a small component */
	from_arcs(1, 0, NULL, NULL, NULL, &g);
	check_graph(&g, NULL, 0, "single vertex");
	graph_free(&g);
	{
		uint32_t s[] = { 0, 1, 2, 3 }, d[] = { 1, 2, 3, 0 }, w[] = { 4, 1000000, 0, 9 };
		from_arcs(12, 4, s, d, w, &g);
		check_graph(&g, NULL, 0, "isolated vertices");
		graph_free(&g);
	}

	/* the queue's pool overflows with stale entries and is compacted, Dial and radix */
	check_pool_overflow(1000);

	/* past 2^31: flagged as overflow (the reference still copes below 2^32) */
	path(2200, 1000000, &g);
	{
		uint32_t src[] = { 0, 1, 2200 };
		check_graph(&g, src, 3, "path to 2.2e9");
	}
	graph_free(&g);
	check_saturation();
	printf("sssp_cpu_engine: all distances and summaries equal\n");
	return 0;
}
