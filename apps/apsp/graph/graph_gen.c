/* Graph generators, deterministic for a seed on every platform.
 *
 * Random numbers come from xoshiro256** (Blackman & Vigna), seeded through splitmix64, and
 * bounded integers from Lemire's multiply-shift with rejection, which is unbiased. Each
 * generator builds an arc list and hands it to graph_from_arcs, which drops self-loops and
 * merges parallel arcs: m can be a little below the number of arcs drawn. */
#include "graph_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ random numbers */

struct rng
{
	uint64_t s[4];
};

/* Independent streams of one seed: the stream number is mixed into the seed. */
static void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ull);
	for (int i = 0; i < 4; i++)
		r->s[i] = graph_splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

/* Uniform in [lo, hi], hi - lo < 2^32 - 1. */
static inline uint32_t rng_range(struct rng *r, uint32_t lo, uint32_t hi)
{
	uint32_t range = hi - lo + 1;
	uint64_t m = (rng_next(r) >> 32) * range;
	if ((uint32_t)m < range)
	{
		uint32_t floor = -range % range;
		while ((uint32_t)m < floor)
			m = (rng_next(r) >> 32) * range;
	}
	return lo + (uint32_t)(m >> 32);
}

/* ------------------------------------------------------------------ arc lists */

struct arc_list
{
	uint32_t *src, *dst, *w;
	uint64_t len;
};

static int list_alloc(struct arc_list *a, uint64_t m, const char *what, struct graph_error *err)
{
	memset(a, 0, sizeof *a);
	if (m > SIZE_MAX / sizeof(uint32_t) - 1 || !(a->src = malloc((m + 1) * sizeof(uint32_t))) ||
	    !(a->dst = malloc((m + 1) * sizeof(uint32_t))) || !(a->w = malloc((m + 1) * sizeof(uint32_t))))
	{
		free(a->src);
		free(a->dst);
		return graph_set_error(err, -ENOMEM, "%s: out of memory: the list of %" PRIu64 " arcs needs %.0f bytes", what, m,
				       (double)m * 3 * sizeof(uint32_t));
	}
	return 0;
}

static int list_build(struct arc_list *a, uint32_t n, struct graph *g, struct graph_error *err)
{
	return graph_from_owned_arcs(n, a->len, a->src, a->dst, a->w, g, err);
}

static int check_weights(const char *what, uint32_t w_min, uint32_t w_max, struct graph_error *err)
{
	if (w_min > w_max)
		return graph_set_error(err, -EINVAL, "%s: weights %" PRIu32 "..%" PRIu32 ": the minimum is above the maximum",
				       what, w_min, w_max);
	if (w_max > GRAPH_MAX_WEIGHT)
		return graph_set_error(err, -EINVAL, "%s: weight %" PRIu32 " above the maximum %u", what, w_max,
				       GRAPH_MAX_WEIGHT);
	return 0;
}

/* ------------------------------------------------------------------ generators */

int graph_gen_random(uint32_t n, uint32_t deg_min, uint32_t deg_max, uint32_t w_min, uint32_t w_max, uint64_t seed,
		     struct graph *g, struct graph_error *err)
{
	static const char what[] = "random graph";
	memset(g, 0, sizeof *g);
	if (n < 1 || n > GRAPH_MAX_VERTICES)
		return graph_set_error(err, -EINVAL, "%s: %" PRIu32 " vertices, need 1..%" PRIu32, what, n,
				       GRAPH_MAX_VERTICES);
	if (deg_min > deg_max)
		return graph_set_error(err, -EINVAL, "%s: out-degrees %" PRIu32 "..%" PRIu32 ": the minimum is above the maximum",
				       what, deg_min, deg_max);
	if (deg_max == UINT32_MAX)
		return graph_set_error(err, -EINVAL, "%s: out-degree %" PRIu32 " is too large", what, deg_max);
	int rc = check_weights(what, w_min, w_max, err);
	if (rc < 0)
		return rc;

	/* The degrees come from their own stream, drawn twice (to size the list, then to fill
	 * it), so no array of n degrees is needed. */
	struct rng deg, arc;
	rng_seed(&deg, seed, 1);
	uint64_t m = 0;
	for (uint32_t u = 0; u < n; u++)
		m += rng_range(&deg, deg_min, deg_max);
	struct arc_list a;
	if ((rc = list_alloc(&a, m, what, err)) < 0)
		return rc;
	rng_seed(&deg, seed, 1);
	rng_seed(&arc, seed, 2);
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t k = rng_range(&deg, deg_min, deg_max); k > 0; k--)
		{
			a.src[a.len] = u;
			a.dst[a.len] = rng_range(&arc, 0, n - 1);
			a.w[a.len] = rng_range(&arc, w_min, w_max);
			a.len++;
		}
	return list_build(&a, n, g, err);
}

/* 2^32 * p, for comparing with 32 random bits. */
static uint64_t threshold(double p)
{
	return p >= 1 ? (1ull << 32) : (uint64_t)(p * 4294967296.0);
}

int graph_gen_rmat(unsigned scale, unsigned edgefactor, double a, double b, double c, uint32_t w_min, uint32_t w_max,
		   uint64_t seed, struct graph *g, struct graph_error *err)
{
	static const char what[] = "R-MAT graph";
	memset(g, 0, sizeof *g);
	if (scale < 1 || scale > 31)
		return graph_set_error(err, -EINVAL, "%s: scale %u, need 1..31 (2^scale vertices)", what, scale);
	if (edgefactor < 1)
		return graph_set_error(err, -EINVAL, "%s: edge factor 0, need at least 1 edge per vertex", what);
	if (!(a >= 0 && b >= 0 && c >= 0) || !isfinite(a + b + c))
		return graph_set_error(err, -EINVAL, "%s: probabilities a=%g b=%g c=%g must be >= 0", what, a, b, c);
	if (a + b + c >= 1)
		return graph_set_error(err, -EINVAL, "%s: a+b+c = %g, must be below 1 (d = 1-a-b-c > 0; Graph500: 0.57, 0.19, 0.19)",
				       what, a + b + c);
	int rc = check_weights(what, w_min, w_max, err);
	if (rc < 0)
		return rc;

	uint32_t n = (uint32_t)(1ull << scale);
	uint64_t edges = (uint64_t)edgefactor << scale;
	uint32_t *perm = malloc((size_t)n * sizeof *perm);
	if (!perm)
		return graph_set_error(err, -ENOMEM, "%s: out of memory: the vertex permutation needs %" PRIu64 " bytes", what,
				       (uint64_t)n * sizeof *perm);
	struct arc_list l;
	if ((rc = list_alloc(&l, 2 * edges, what, err)) < 0)
	{
		free(perm);
		return rc;
	}

	/* Graph500's generator: at each level, the row bit is 1 with probability c+d, then the
	 * column bit is 1 with probability b/(a+b) (top half) or d/(c+d) (bottom half). */
	struct rng r;
	rng_seed(&r, seed, 3);
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint32_t i = n - 1; i > 0; i--)
	{
		uint32_t j = rng_range(&r, 0, i), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	uint64_t t_row = threshold(a + b);
	uint64_t t_top = threshold(a + b > 0 ? a / (a + b) : 0), t_bottom = threshold(c / (1 - a - b));
	for (uint64_t e = 0; e < edges; e++)
	{
		uint32_t u = 0, v = 0;
		for (unsigned bit = 0; bit < scale; bit++)
		{
			uint64_t x = rng_next(&r);
			uint32_t row = (x >> 32) >= t_row;
			uint32_t col = (x & 0xffffffffu) >= (row ? t_bottom : t_top);
			u |= row << bit;
			v |= col << bit;
		}
		uint32_t w = rng_range(&r, w_min, w_max);
		l.src[l.len] = perm[u];
		l.dst[l.len] = perm[v];
		l.w[l.len++] = w;
		l.src[l.len] = perm[v];
		l.dst[l.len] = perm[u];
		l.w[l.len++] = w;
	}
	free(perm);
	return list_build(&l, n, g, err);
}

int graph_gen_grid(uint32_t rows, uint32_t cols, uint32_t w_min, uint32_t w_max, uint64_t seed, struct graph *g,
		   struct graph_error *err)
{
	static const char what[] = "grid graph";
	memset(g, 0, sizeof *g);
	if (rows < 1 || cols < 1 || (uint64_t)rows * cols > GRAPH_MAX_VERTICES)
		return graph_set_error(err, -EINVAL, "%s: %" PRIu32 " x %" PRIu32 ", need 1..%" PRIu32 " vertices in all", what,
				       rows, cols, GRAPH_MAX_VERTICES);
	int rc = check_weights(what, w_min, w_max, err);
	if (rc < 0)
		return rc;
	uint64_t edges = (uint64_t)rows * (cols - 1) + (uint64_t)cols * (rows - 1);
	struct arc_list l;
	if ((rc = list_alloc(&l, 2 * edges, what, err)) < 0)
		return rc;
	/* One weight per street, the same both ways. */
	struct rng r;
	rng_seed(&r, seed, 4);
	for (uint32_t i = 0; i < rows; i++)
		for (uint32_t j = 0; j < cols; j++)
		{
			uint32_t u = i * cols + j;
			for (int down = 0; down < 2; down++)
			{
				if (down ? i + 1 == rows : j + 1 == cols)
					continue;
				uint32_t v = down ? u + cols : u + 1, w = rng_range(&r, w_min, w_max);
				l.src[l.len] = u;
				l.dst[l.len] = v;
				l.w[l.len++] = w;
				l.src[l.len] = v;
				l.dst[l.len] = u;
				l.w[l.len++] = w;
			}
		}
	return list_build(&l, rows * cols, g, err);
}
