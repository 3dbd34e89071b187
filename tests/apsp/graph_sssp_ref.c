/* Tests of the reference shortest paths (tests/sssp_ref.h) that other tests trust: from every
 * source, sssp_ref must agree with a brute-force Floyd-Warshall on small graphs of each
 * generator (random, R-MAT, grid) and on hand-made cases: unreachable vertices, zero weights,
 * parallel arcs and self-loops (Floyd-Warshall works from the raw arc list, so this also
 * checks how graph_from_arcs merges them), a single vertex, and a long path of the heaviest
 * weights whose length needs all 32 bits. */
#include "graph.h"
#include "sssp_ref.h"
#include "testutil.h"

#define NOPATH UINT64_MAX

/* All-pairs distances from an arc list, O(n^3). */
static uint64_t *floyd_warshall(uint32_t n, uint64_t m, const uint32_t *src, const uint32_t *dst, const uint32_t *w)
{
	uint64_t *d = malloc((size_t)n * n * sizeof *d);
	ASSERT(d);
	for (size_t i = 0; i < (size_t)n * n; i++)
		d[i] = NOPATH;
	for (uint32_t i = 0; i < n; i++)
		d[(size_t)i * n + i] = 0;
	for (uint64_t e = 0; e < m; e++)
	{
		uint64_t *x = &d[(size_t)src[e] * n + dst[e]];
		if (w[e] < *x)
			*x = w[e];
	}
	for (uint32_t k = 0; k < n; k++)
		for (uint32_t i = 0; i < n; i++)
		{
			uint64_t ik = d[(size_t)i * n + k];
			if (ik == NOPATH)
				continue;
			for (uint32_t j = 0; j < n; j++)
			{
				uint64_t kj = d[(size_t)k * n + j];
				if (kj != NOPATH && ik + kj < d[(size_t)i * n + j])
					d[(size_t)i * n + j] = ik + kj;
			}
		}
	return d;
}

static void compare_all_sources(const struct graph *g, const uint64_t *fw, const char *what)
{
	uint32_t *dist = malloc(g->n * sizeof *dist);
	ASSERT(dist);
	for (uint32_t s = 0; s < g->n; s++)
	{
		sssp_ref(g, s, dist);
		for (uint32_t v = 0; v < g->n; v++)
		{
			uint64_t want = fw[(size_t)s * g->n + v];
			if ((want == NOPATH ? GRAPH_INF : want) != dist[v])
				FAIL("%s: distance %u -> %u: sssp_ref %u, Floyd-Warshall %lld", what, s, v, dist[v],
				     want == NOPATH ? -1LL : (long long)want);
		}
	}
	free(dist);
}

/* A generated graph: Floyd-Warshall over its own arcs. */
static void check_generated(struct graph *g, const char *what)
{
	uint32_t *src = malloc(g->m * 4 + 4);
	ASSERT(src);
	for (uint32_t u = 0; u < g->n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
			src[e] = u;
	uint64_t *fw = floyd_warshall(g->n, g->m, src, g->col, g->w);
	compare_all_sources(g, fw, what);
	free(fw);
	free(src);
	graph_free(g);
}

/* A raw arc list: the graph goes through graph_from_arcs, Floyd-Warshall does not. */
static void check_arcs(uint32_t n, uint64_t m, const uint32_t *src, const uint32_t *dst, const uint32_t *w,
		       const uint32_t *want_from_0, const char *what)
{
	struct graph g;
	struct graph_error err;
	if (graph_from_arcs(n, m, src, dst, w, &g, &err) < 0)
		FAIL("%s: %s", what, err.msg);
	uint64_t *fw = floyd_warshall(n, m, src, dst, w);
	compare_all_sources(&g, fw, what);
	if (want_from_0)
	{
		uint32_t *dist = malloc(n * sizeof *dist);
		sssp_ref(&g, 0, dist);
		for (uint32_t v = 0; v < n; v++)
			if (dist[v] != want_from_0[v])
				FAIL("%s: distance 0 -> %u is %u, expected %u", what, v, dist[v], want_from_0[v]);
		free(dist);
	}
	free(fw);
	graph_free(&g);
}

static void test_generated(void)
{
	struct graph g;
	struct graph_error err;
	for (uint64_t seed = 1; seed <= 4; seed++)
	{
		/* Out-degree 0..4: sinks and unreachable vertices; weight 0 included. */
		ASSERT_EQ(graph_gen_random(120, 0, 4, 0, 20, seed, &g, &err), 0);
		check_generated(&g, "random 120, degrees 0..4");
		ASSERT_EQ(graph_gen_random(60, 1, 3, 0, 0, seed, &g, &err), 0);
		check_generated(&g, "random 60, zero weights");
		ASSERT_EQ(graph_gen_rmat(7, 4, 0.57, 0.19, 0.19, 1, 100, seed, &g, &err), 0);
		check_generated(&g, "R-MAT scale 7");
		ASSERT_EQ(graph_gen_grid(9, 11, 1, GRAPH_MAX_WEIGHT, seed, &g, &err), 0);
		check_generated(&g, "grid 9 x 11");
	}
}

static void test_hand_made(void)
{
	const uint32_t I = GRAPH_INF;
	{
		/* 3 and 4 are unreachable from 0; 5 is isolated. */
		uint32_t s[] = {0, 1, 3, 4}, d[] = {1, 2, 4, 3}, w[] = {3, 4, 1, 1}, want[] = {0, 3, 7, I, I, I};
		check_arcs(6, 4, s, d, w, want, "unreachable vertices");
	}
	{
		uint32_t s[] = {0, 1, 0, 2}, d[] = {1, 2, 2, 0}, w[] = {0, 0, 5, 0}, want[] = {0, 0, 0};
		check_arcs(3, 4, s, d, w, want, "zero weights");
	}
	{
		/* Parallel arcs: the lightest counts. Self-loops never help. */
		uint32_t s[] = {0, 0, 0, 1, 1, 1, 2}, d[] = {1, 1, 1, 0, 1, 2, 2}, w[] = {9, 2, 5, 0, 0, 7, 0},
			 want[] = {0, 2, 9};
		check_arcs(3, 7, s, d, w, want, "parallel arcs and self-loops");
	}
	{
		/* The direct arc is not the shortest path. */
		uint32_t s[] = {0, 1, 0, 2, 3}, d[] = {1, 2, 2, 3, 1}, w[] = {1, 1, 5, 1, 0}, want[] = {0, 1, 2, 3};
		check_arcs(4, 5, s, d, w, want, "a detour is shorter");
	}
	{
		uint32_t want[] = {0};
		check_arcs(1, 0, NULL, NULL, NULL, want, "a single vertex");
	}
	{
		/* Random arc lists full of repeats and self-loops. */
		uint32_t s[400], d[400], w[400];
		uint64_t x = 12345;
		for (int e = 0; e < 400; e++)
		{
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			s[e] = (uint32_t)(x >> 33) % 30;
			d[e] = (uint32_t)(x >> 45) % 30;
			w[e] = (uint32_t)(x >> 20) % 50;
		}
		check_arcs(30, 400, s, d, w, NULL, "random arc list with repeats");
	}

	/* 4294 arcs of weight 10^6: the far end is at 4,294,000,000 < GRAPH_INF. */
	uint32_t n = 4295;
	uint32_t *s = malloc(n * 4), *d = malloc(n * 4), *w = malloc(n * 4), *dist = malloc(n * 4);
	ASSERT(s && d && w && dist);
	for (uint32_t i = 0; i + 1 < n; i++)
		s[i] = i, d[i] = i + 1, w[i] = GRAPH_MAX_WEIGHT;
	struct graph g;
	struct graph_error err;
	ASSERT_EQ(graph_from_arcs(n, n - 1, s, d, w, &g, &err), 0);
	sssp_ref(&g, 0, dist);
	for (uint32_t i = 0; i < n; i++)
		ASSERT_EQ(dist[i], (uint64_t)i * GRAPH_MAX_WEIGHT);
	sssp_ref(&g, n - 1, dist);
	ASSERT_EQ(dist[0], GRAPH_INF);
	graph_free(&g);
	free(s);
	free(d);
	free(w);
	free(dist);
}

int main(void)
{
	test_generated();
	test_hand_made();
	printf("graph_sssp_ref: the reference agrees with Floyd-Warshall: ok\n");
	return 0;
}
