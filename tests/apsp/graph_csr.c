/* Tests of the CSR core (apps/graph/graph.c): graph_from_arcs against a naive reference
 * (sort everything, merge) on arc lists of many shapes, including rows long enough for the
 * radix sort and vertex counts on both sides of its byte boundaries; self-loops, parallel
 * arcs, empty graphs, bad arcs; graph_validate catching each broken invariant;
 * graph_make_undirected against the same naive reference fed both directions of every arc
 * (a directed random graph, a hub long enough for the radix sort, a symmetric graph unchanged,
 * opposite arcs of different weights keeping the lighter one both ways, no arcs);
 * graph_bytes; graph_free. */
#include "graph.h"
#include "testutil.h"

struct arc
{
	uint32_t u, v, w;
};

static int arc_cmp(const void *pa, const void *pb)
{
	const struct arc *a = pa, *b = pb;
	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return a->w < b->w ? -1 : a->w > b->w;
}

static uint64_t rng_state = 88172645463325252ull;

static uint32_t rnd(uint32_t bound)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % bound);
}

/* graph_from_arcs must give what sorting all arcs and keeping the first of each (u, v) gives. */
static void check_against_naive(uint32_t n, uint64_t m, const uint32_t *src, const uint32_t *dst, const uint32_t *w,
				const char *what)
{
	struct graph g;
	struct graph_error err;
	if (graph_from_arcs(n, m, src, dst, w, &g, &err) < 0)
		FAIL("%s: %s", what, err.msg);
	if (graph_validate(&g, &err) < 0)
		FAIL("%s: %s", what, err.msg);

	struct arc *a = malloc((m + 1) * sizeof *a);
	ASSERT(a);
	for (uint64_t e = 0; e < m; e++)
		a[e] = (struct arc){src[e], dst[e], w[e]};
	qsort(a, m, sizeof *a, arc_cmp);
	uint64_t k = 0;
	for (uint64_t e = 0; e < m; e++)
	{
		if (a[e].u == a[e].v || (e > 0 && a[e].u == a[e - 1].u && a[e].v == a[e - 1].v))
			continue;
		if (k >= g.m || g.col[k] != a[e].v || g.w[k] != a[e].w || k < g.rowptr[a[e].u] || k >= g.rowptr[a[e].u + 1])
			FAIL("%s: arc %llu should be %u -> %u (%u)", what, (unsigned long long)k, a[e].u, a[e].v, a[e].w);
		k++;
	}
	ASSERT_EQ(k, g.m);
	free(a);
	graph_free(&g);
}

/* m random arcs on n vertices; `hub` gets an extra `hub_arcs` arcs. */
static void random_case(uint32_t n, uint64_t m, uint32_t hub_arcs, uint32_t max_w, const char *what)
{
	uint64_t total = m + hub_arcs;
	uint32_t *src = malloc(total * 4 + 4), *dst = malloc(total * 4 + 4), *w = malloc(total * 4 + 4);
	ASSERT(src && dst && w);
	for (uint64_t e = 0; e < total; e++)
	{
		src[e] = e < m ? rnd(n) : n / 2;
		dst[e] = rnd(n);
		w[e] = rnd(max_w + 1);
	}
	check_against_naive(n, total, src, dst, w, what);
	free(src);
	free(dst);
	free(w);
}

static void test_from_arcs(void)
{
	struct graph g;
	struct graph_error err;

	/* By hand: unsorted input, parallel arcs, self-loops, an isolated vertex. */
	uint32_t src[] = {2, 0, 0, 1, 0, 2, 1, 0, 2};
	uint32_t dst[] = {0, 2, 1, 1, 2, 0, 0, 1, 1};
	uint32_t w[] = {4, 7, 5, 1, 3, 2, 0, 6, 9};
	ASSERT_EQ(graph_from_arcs(4, 9, src, dst, w, &g, &err), 0);
	uint64_t rowptr[] = {0, 2, 3, 5, 5};
	uint32_t col[] = {1, 2, 0, 0, 1}, wt[] = {5, 3, 0, 2, 9}, min_out[] = {3, 0, 2, GRAPH_INF};
	ASSERT_EQ(g.n, 4);
	ASSERT_EQ(g.m, 5);
	ASSERT_EQ(g.max_w, 9);
	ASSERT(!memcmp(g.rowptr, rowptr, sizeof rowptr));
	ASSERT(!memcmp(g.col, col, sizeof col));
	ASSERT(!memcmp(g.w, wt, sizeof wt));
	ASSERT(!memcmp(g.min_out, min_out, sizeof min_out));
	ASSERT_EQ(graph_bytes(&g), 5 * 8 + 4 * 4 + 5 * 8);
	graph_free(&g);
	ASSERT(!g.rowptr && !g.col && !g.w && !g.min_out && !g.n && !g.m);
	graph_free(&g); /* a zeroed graph is fine */
	ASSERT_EQ(graph_bytes(&g), 0);

	/* Empty graphs. */
	ASSERT_EQ(graph_from_arcs(5, 0, NULL, NULL, NULL, &g, &err), 0);
	ASSERT_EQ(g.m, 0);
	ASSERT_EQ(g.rowptr[5], 0);
	ASSERT_EQ(g.min_out[4], GRAPH_INF);
	ASSERT_EQ(graph_validate(&g, &err), 0);
	graph_free(&g);
	ASSERT_EQ(graph_from_arcs(0, 0, NULL, NULL, NULL, &g, &err), 0);
	ASSERT_EQ(graph_validate(&g, &err), 0);
	graph_free(&g);

	/* Bad arcs leave nothing behind. */
	uint32_t s1[] = {0, 3}, d1[] = {1, 0}, w1[] = {1, 1};
	ASSERT_EQ(graph_from_arcs(3, 2, s1, d1, w1, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "arc 1: 3 -> 0 has a vertex out of range 0..2");
	ASSERT(!g.rowptr && !g.col);
	s1[1] = 0, d1[1] = 7;
	ASSERT_EQ(graph_from_arcs(3, 2, s1, d1, w1, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "0 -> 7");
	d1[1] = 2, w1[1] = GRAPH_MAX_WEIGHT + 1;
	ASSERT_EQ(graph_from_arcs(3, 2, s1, d1, w1, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "weight 1000001 above the maximum");
	ASSERT_EQ(graph_from_arcs(UINT32_MAX, 0, NULL, NULL, NULL, &g, &err), -EINVAL);

	/* Against the naive construction: many duplicates, long rows (radix sort), and
	 * vertex counts around the radix sort's byte boundaries. */
	random_case(10, 2000, 0, 5, "10 vertices, many parallel arcs");
	random_case(1000, 5000, 0, 1000, "sparse");
	random_case(256, 1000, 3000, 50, "256 vertices, a hub");
	random_case(257, 1000, 3000, 50, "257 vertices, a hub");
	random_case(65536, 20000, 70, 9, "65536 vertices, a hub just over the short-row limit");
	random_case(65537, 20000, 100000, GRAPH_MAX_WEIGHT, "65537 vertices, a big hub");
	random_case(16777217, 30000, 5000, 3, "2^24+1 vertices (4-byte ids), a hub");
}

static void test_validate(void)
{
	struct graph g;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(50, 2, 4, 1, 9, 1, &g, &err), 0);
	ASSERT_EQ(graph_validate(&g, &err), 0);
	uint32_t u = 10; /* a vertex with at least 2 arcs */
	while (g.rowptr[u + 1] - g.rowptr[u] < 2)
		u++;
	uint64_t e = g.rowptr[u];

#define BREAK(field, value, text)                                          \
	do                                                                 \
	{                                                                  \
		__typeof__(field) saved = field;                           \
		field = value;                                             \
		ASSERT_EQ(graph_validate(&g, &err), -EINVAL);              \
		ASSERT_STR_CONTAINS(err.msg, text);                        \
		field = saved;                                             \
		ASSERT_EQ(graph_validate(&g, &err), 0);                    \
	} while (0)
	BREAK(g.rowptr[0], 1, "rowptr[0] = 1");
	BREAK(g.rowptr[g.n], g.m - 1, "rowptr[n]");
	BREAK(g.rowptr[u + 1], g.rowptr[u] - 1, "row");
	BREAK(g.rowptr[u + 1], g.m + 1, "row");
	BREAK(g.col[e], g.n, "target out of range");
	BREAK(g.col[e], u, "self-loop");
	BREAK(g.col[e + 1], g.col[e], "not strictly sorted");
	BREAK(g.w[e], GRAPH_MAX_WEIGHT + 1, "above the maximum");
	BREAK(g.min_out[u], g.min_out[u] + 1, "min_out");
	BREAK(g.max_w, g.max_w + 1, "max_w");
	BREAK(g.n, UINT32_MAX, "vertices");
	BREAK(g.min_out, NULL, "missing arrays");
#undef BREAK
	graph_free(&g);
}

/* graph_make_undirected(g) equals graph_from_arcs of g's arcs and their reverses. */
static void check_undirected(struct graph *g, const char *what)
{
	uint64_t m = g->m;
	uint32_t *src = malloc((2 * m + 1) * 4), *dst = malloc((2 * m + 1) * 4), *w = malloc((2 * m + 1) * 4);
	ASSERT(src && dst && w);
	for (uint32_t u = 0; u < g->n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			src[e] = u, dst[e] = g->col[e], w[e] = g->w[e];
			src[m + e] = g->col[e], dst[m + e] = u, w[m + e] = g->w[e];
		}
	struct graph want;
	struct graph_error err;
	ASSERT_EQ(graph_from_arcs(g->n, 2 * m, src, dst, w, &want, &err), 0);
	ASSERT(graph_undirected_bytes(g) >= graph_bytes_for(g->n, want.m));
	if (graph_make_undirected(g, &err) < 0)
		FAIL("%s: %s", what, err.msg);
	if (graph_validate(g, &err) < 0)
		FAIL("%s: %s", what, err.msg);
	if (g->n != want.n || g->m != want.m || g->max_w != want.max_w || memcmp(g->rowptr, want.rowptr, (g->n + 1ull) * 8) ||
	    memcmp(g->col, want.col, g->m * 4) || memcmp(g->w, want.w, g->m * 4) || memcmp(g->min_out, want.min_out, g->n * 4ull))
		FAIL("%s: graph_make_undirected differs from the reference", what);
	graph_free(&want);
	free(src);
	free(dst);
	free(w);
}

static void test_undirected(void)
{
	struct graph g;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(5000, 0, 5, 0, 100, 3, &g, &err), 0);
	uint64_t directed = g.m;
	check_undirected(&g, "random graph");
	ASSERT(g.m > directed && g.m <= 2 * directed);
	/* undirected already: unchanged */
	uint64_t m = g.m;
	check_undirected(&g, "an undirected graph again");
	ASSERT_EQ(g.m, m);
	graph_free(&g);

	/* a hub: a row over the insertion sort's length */
	enum { N = 3000 };
	static uint32_t src[N], dst[N], w[N];
	for (uint32_t i = 0; i < N; i++)
		src[i] = i + 1 < N ? i + 1 : 1, dst[i] = 0, w[i] = i % 7;
	ASSERT_EQ(graph_from_arcs(N, N, src, dst, w, &g, &err), 0);
	check_undirected(&g, "hub");
	ASSERT_EQ(g.rowptr[1], N - 1);
	graph_free(&g);

	/* opposite arcs of different weights: the lighter both ways */
	uint32_t s2[] = {0, 1}, d2[] = {1, 0}, w2[] = {9, 4};
	ASSERT_EQ(graph_from_arcs(2, 2, s2, d2, w2, &g, &err), 0);
	ASSERT_EQ(graph_make_undirected(&g, &err), 0);
	ASSERT(g.m == 2 && g.w[0] == 4 && g.w[1] == 4 && g.max_w == 4);
	graph_free(&g);

	/* no arcs */
	ASSERT_EQ(graph_from_arcs(3, 0, s2, d2, w2, &g, &err), 0);
	ASSERT_EQ(graph_make_undirected(&g, &err), 0);
	ASSERT(g.n == 3 && g.m == 0 && g.min_out[2] == GRAPH_INF);
	graph_free(&g);
}

int main(void)
{
	test_from_arcs();
	test_validate();
	test_undirected();
	printf("graph_csr: graph_from_arcs, graph_validate, graph_make_undirected, graph_bytes, graph_free: ok\n");
	return 0;
}
