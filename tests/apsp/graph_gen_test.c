/* Tests of the generators (apps/graph/graph_gen.c): sizes, degree and weight bounds, no
 * self-loops, sorted rows, min_out, determinism for a seed, different graphs for different
 * seeds, uniform degrees and weights of the paper's random graph, R-MAT symmetry and skew,
 * grid structure and arc count, and parameter errors. */
#include "graph.h"
#include "testutil.h"

#include <math.h>

static int same(const struct graph *a, const struct graph *b)
{
	return a->n == b->n && a->m == b->m && a->max_w == b->max_w &&
	       !memcmp(a->rowptr, b->rowptr, (a->n + 1ull) * 8) && !memcmp(a->col, b->col, a->m * 4) &&
	       !memcmp(a->w, b->w, a->m * 4);
}

static int is_zeroed(const struct graph *g)
{
	return !g->n && !g->m && !g->rowptr && !g->col && !g->w && !g->min_out;
}

/* CSR invariants (sorted rows, no self-loop, min_out, max_w), and weights in range. */
static void check_graph(const struct graph *g, uint32_t w_min, uint32_t w_max, const char *what)
{
	struct graph_error err;
	if (graph_validate(g, &err) < 0)
		FAIL("%s: %s", what, err.msg);
	for (uint64_t e = 0; e < g->m; e++)
		if (g->w[e] < w_min || g->w[e] > w_max)
			FAIL("%s: weight %u outside %u..%u", what, g->w[e], w_min, w_max);
	for (uint32_t u = 0; u < g->n; u++)
	{
		uint32_t lo = GRAPH_INF;
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
			lo = g->w[e] < lo ? g->w[e] : lo;
		ASSERT_EQ(g->min_out[u], lo);
	}
}

static long long weight(const struct graph *g, uint32_t u, uint32_t v)
{
	for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		if (g->col[e] == v)
			return g->w[e];
	return -1;
}

/* Every arc u -> v has its twin v -> u of the same weight. */
static void check_symmetric(const struct graph *g, const char *what)
{
	for (uint32_t u = 0; u < g->n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
			if (weight(g, g->col[e], u) != g->w[e])
				FAIL("%s: arc %u -> %u (weight %u) has no twin of the same weight", what, u, g->col[e], g->w[e]);
}

static void expect_error(int rc, const struct graph *g, const struct graph_error *err, const char *text)
{
	ASSERT_EQ(rc, -EINVAL);
	ASSERT_STR_CONTAINS(err->msg, text);
	ASSERT(is_zeroed(g));
}

static void test_random(void)
{
	struct graph g, h;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(1000, 2, 5, 3, 7, 1, &g, &err), 0);
	check_graph(&g, 3, 7, "random 1000");
	ASSERT_EQ(g.n, 1000);
	ASSERT(g.m <= 5000 && g.m >= 2000);
	uint32_t low = 0;
	for (uint32_t u = 0; u < g.n; u++)
	{
		uint64_t d = g.rowptr[u + 1] - g.rowptr[u];
		ASSERT(d <= 5);
		low += d < 2; /* only a self-loop or a repeated target takes a vertex below 2 */
	}
	ASSERT(low <= 10);

	ASSERT_EQ(graph_gen_random(1000, 2, 5, 3, 7, 1, &h, &err), 0);
	ASSERT(same(&g, &h));
	graph_free(&h);
	ASSERT_EQ(graph_gen_random(1000, 2, 5, 3, 7, 2, &h, &err), 0);
	ASSERT(!same(&g, &h));
	graph_free(&h);
	graph_free(&g);

	/* The paper's graphs: out-degrees uniform in 1..9, weights uniform in 1..10. */
	uint32_t n = 1049088;
	ASSERT_EQ(graph_gen_random(n, 1, 9, 1, 10, 42, &g, &err), 0);
	check_graph(&g, 1, 10, "paper's random graph");
	ASSERT(g.m > 5200000 && g.m < 5290000); /* 5 arcs a vertex on average */
	uint64_t degrees[10] = {0}, weights[11] = {0};
	for (uint32_t u = 0; u < n; u++)
		degrees[g.rowptr[u + 1] - g.rowptr[u]]++;
	for (uint64_t e = 0; e < g.m; e++)
		weights[g.w[e]]++;
	for (int d = 1; d <= 9; d++)
		if (degrees[d] < n / 9 * 0.98 || degrees[d] > n / 9 * 1.02)
			FAIL("out-degree %d: %llu vertices, expected about %u", d, (unsigned long long)degrees[d], n / 9);
	for (int w = 1; w <= 10; w++)
		if (weights[w] < g.m / 10 * 0.98 || weights[w] > g.m / 10 * 1.02)
			FAIL("weight %d: %llu arcs, expected about %llu", w, (unsigned long long)weights[w],
			     (unsigned long long)g.m / 10);
	graph_free(&g);

	/* Degenerate but valid. */
	ASSERT_EQ(graph_gen_random(10, 0, 0, 1, 1, 1, &g, &err), 0);
	ASSERT_EQ(g.m, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_random(1, 1, 3, 1, 1, 1, &g, &err), 0); /* only self-loops */
	ASSERT_EQ(g.m, 0);
	ASSERT_EQ(g.min_out[0], GRAPH_INF);
	graph_free(&g);
	ASSERT_EQ(graph_gen_random(2, 5, 5, GRAPH_MAX_WEIGHT, GRAPH_MAX_WEIGHT, 1, &g, &err), 0);
	ASSERT_EQ(g.m, 2);
	ASSERT_EQ(g.max_w, GRAPH_MAX_WEIGHT);
	graph_free(&g);

	expect_error(graph_gen_random(0, 1, 2, 1, 2, 1, &g, &err), &g, &err, "random graph: 0 vertices, need 1..");
	expect_error(graph_gen_random(UINT32_MAX, 1, 2, 1, 2, 1, &g, &err), &g, &err, "4294967295 vertices");
	expect_error(graph_gen_random(10, 3, 2, 1, 2, 1, &g, &err), &g, &err, "out-degrees 3..2: the minimum is above");
	expect_error(graph_gen_random(10, 1, 2, 5, 4, 1, &g, &err), &g, &err, "weights 5..4: the minimum is above");
	expect_error(graph_gen_random(10, 1, 2, 1, GRAPH_MAX_WEIGHT + 1, 1, &g, &err), &g, &err,
		     "weight 1000001 above the maximum 1000000");
}

static void test_rmat(void)
{
	struct graph g, h;
	struct graph_error err;
	ASSERT_EQ(graph_gen_rmat(12, 8, 0.57, 0.19, 0.19, 1, 100, 3, &g, &err), 0);
	check_graph(&g, 1, 100, "R-MAT scale 12");
	check_symmetric(&g, "R-MAT scale 12");
	ASSERT_EQ(g.n, 4096);
	ASSERT(g.m <= 2ull * 8 * 4096 && g.m > 4096);
	uint64_t max_deg = 0;
	for (uint32_t u = 0; u < g.n; u++)
		if (g.rowptr[u + 1] - g.rowptr[u] > max_deg)
			max_deg = g.rowptr[u + 1] - g.rowptr[u];

	ASSERT_EQ(graph_gen_rmat(12, 8, 0.57, 0.19, 0.19, 1, 100, 3, &h, &err), 0);
	ASSERT(same(&g, &h));
	graph_free(&h);
	ASSERT_EQ(graph_gen_rmat(12, 8, 0.57, 0.19, 0.19, 1, 100, 4, &h, &err), 0);
	ASSERT(!same(&g, &h));
	graph_free(&h);
	graph_free(&g);

	/* Graph500's parameters give hubs; equal quadrants give a uniform random graph. */
	ASSERT_EQ(graph_gen_rmat(12, 8, 0.25, 0.25, 0.25, 1, 100, 3, &g, &err), 0);
	check_symmetric(&g, "R-MAT, equal quadrants");
	uint64_t max_uniform = 0;
	for (uint32_t u = 0; u < g.n; u++)
		if (g.rowptr[u + 1] - g.rowptr[u] > max_uniform)
			max_uniform = g.rowptr[u + 1] - g.rowptr[u];
	if (max_deg < 5 * max_uniform)
		FAIL("R-MAT largest degree %llu, not far above the uniform graph's %llu", (unsigned long long)max_deg,
		     (unsigned long long)max_uniform);
	graph_free(&g);

	ASSERT_EQ(graph_gen_rmat(1, 1, 0.57, 0.19, 0.19, 1, 1, 1, &g, &err), 0);
	ASSERT_EQ(g.n, 2);
	graph_free(&g);

	expect_error(graph_gen_rmat(0, 16, 0.57, 0.19, 0.19, 1, 2, 1, &g, &err), &g, &err, "scale 0, need 1..31");
	expect_error(graph_gen_rmat(32, 16, 0.57, 0.19, 0.19, 1, 2, 1, &g, &err), &g, &err, "scale 32, need 1..31");
	expect_error(graph_gen_rmat(5, 0, 0.57, 0.19, 0.19, 1, 2, 1, &g, &err), &g, &err, "edge factor 0");
	expect_error(graph_gen_rmat(5, 16, 0.5, 0.3, 0.2, 1, 2, 1, &g, &err), &g, &err, "a+b+c = 1, must be below 1");
	expect_error(graph_gen_rmat(5, 16, -0.1, 0.3, 0.2, 1, 2, 1, &g, &err), &g, &err, "must be >= 0");
	expect_error(graph_gen_rmat(5, 16, NAN, 0.3, 0.2, 1, 2, 1, &g, &err), &g, &err, "must be >= 0");
	expect_error(graph_gen_rmat(5, 16, 0.57, 0.19, 0.19, 3, 2, 1, &g, &err), &g, &err, "weights 3..2");
}

static void test_grid(void)
{
	struct graph g, h;
	struct graph_error err;
	uint32_t rows = 5, cols = 7;
	ASSERT_EQ(graph_gen_grid(rows, cols, 2, 9, 1, &g, &err), 0);
	check_graph(&g, 2, 9, "grid 5 x 7");
	check_symmetric(&g, "grid 5 x 7");
	ASSERT_EQ(g.n, rows * cols);
	ASSERT_EQ(g.m, 2 * (rows * (cols - 1) + cols * (rows - 1)));
	for (uint32_t u = 0; u < g.n; u++)
	{
		uint32_t r = u / cols, c = u % cols;
		uint64_t want = (r > 0) + (r + 1 < rows) + (c > 0) + (c + 1 < cols);
		ASSERT_EQ(g.rowptr[u + 1] - g.rowptr[u], want);
		for (uint64_t e = g.rowptr[u]; e < g.rowptr[u + 1]; e++)
		{
			uint32_t v = g.col[e], r2 = v / cols, c2 = v % cols;
			if ((r2 > r ? r2 - r : r - r2) + (c2 > c ? c2 - c : c - c2) != 1)
				FAIL("grid arc %u -> %u joins (%u,%u) and (%u,%u), not neighbours", u, v, r, c, r2, c2);
		}
	}
	ASSERT_EQ(graph_gen_grid(rows, cols, 2, 9, 1, &h, &err), 0);
	ASSERT(same(&g, &h));
	graph_free(&h);
	ASSERT_EQ(graph_gen_grid(rows, cols, 2, 9, 2, &h, &err), 0);
	ASSERT(!same(&g, &h));
	graph_free(&h);
	graph_free(&g);

	ASSERT_EQ(graph_gen_grid(1, 1, 1, 1, 1, &g, &err), 0);
	ASSERT_EQ(g.m, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_grid(1, 10, 1, 1, 1, &g, &err), 0); /* a path */
	ASSERT_EQ(g.m, 18);
	graph_free(&g);
	ASSERT_EQ(graph_gen_grid(300, 200, 0, 0, 1, &g, &err), 0);
	ASSERT_EQ(g.m, 2ull * (300 * 199 + 200 * 299));
	ASSERT_EQ(g.max_w, 0);
	graph_free(&g);

	expect_error(graph_gen_grid(0, 5, 1, 2, 1, &g, &err), &g, &err, "grid graph: 0 x 5");
	expect_error(graph_gen_grid(5, 0, 1, 2, 1, &g, &err), &g, &err, "grid graph: 5 x 0");
	expect_error(graph_gen_grid(65535, 65537, 1, 2, 1, &g, &err), &g, &err, "need 1..4294967294 vertices");
	expect_error(graph_gen_grid(65536, 65536, 1, 2, 1, &g, &err), &g, &err, "65536 x 65536");
	expect_error(graph_gen_grid(5, 5, 1, GRAPH_MAX_WEIGHT + 1, 1, &g, &err), &g, &err, "above the maximum");
}

int main(void)
{
	test_random();
	test_rmat();
	test_grid();
	printf("graph_gen: random, R-MAT and grid generators: ok\n");
	return 0;
}
