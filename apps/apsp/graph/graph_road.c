/* A road-like graph generator (graph_gen_road): points in the plane joined to near
 * neighbours, with integer Euclidean lengths and two sparse faster road levels, so that the
 * graph has the hierarchy that contraction hierarchies exploit on real road networks.
 *
 *   points     n points in a square of side 1000 * ceil(sqrt(n)): 60% around "towns" (an
 *              approximately Gaussian spread, the sum of four uniforms), 40% uniform.
 *   local      each point is joined to its 2 nearest points, and to its 3rd with
 *              probability 1/4; length = round(Euclidean distance), at least 1.
 *   connected  components are joined Boruvka-style: every component but the largest joins
 *              the nearest point outside it, until one component is left.
 *   arterial   the point nearest the centre of each 12 x 12 block of cells is an arterial
 *              junction, joined to the junctions of the blocks right, below and diagonal;
 *              cost = length / 2.
 *   motorway   likewise on 48 x 48 blocks, cost = length / 4.
 *
 * Every road is an edge (arcs both ways, same weight). Vertex ids follow a row-major order
 * of cells (about 2 points per cell), so neighbours have near ids, as in road files.
 * Only +, *, / and sqrt on doubles (all correctly rounded in IEEE 754): the same graph for a
 * seed on every platform. Random numbers: xoshiro256** seeded through splitmix64. */
#include "graph_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct road_rng
{
	uint64_t s[4];
};

static void road_seed(struct road_rng *r, uint64_t seed)
{
	uint64_t x = seed ^ 0x726f61642d67656eull; /* "road-gen": a stream apart from graph_gen.c's */
	for (int i = 0; i < 4; i++)
		r->s[i] = graph_splitmix64(&x);
}

static uint64_t road_next(struct road_rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5, out = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return out;
}

/* Uniform in [0, 1) with 53 bits. */
static double road_unit(struct road_rng *r)
{
	return (double)(road_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

struct pt
{
	double x, y;
	uint32_t cell;
};

struct road
{
	uint32_t n;
	struct pt *p;       /* sorted by cell: index = vertex id */
	uint32_t gw;        /* cells per side */
	double cs;          /* cell size */
	uint32_t *cstart;   /* gw*gw + 1: the points of cell c are cstart[c] .. cstart[c+1]-1 */
	uint32_t *src, *dst, *w;
	uint64_t len, cap;
	uint32_t *uf;       /* union-find parents */
	uint32_t *comp;     /* component root of each point, during road_connect */
};

static int road_arc_reserve(struct road *rd, uint64_t more)
{
	if (rd->len + more <= rd->cap)
		return 0;
	uint64_t cap = rd->cap ? rd->cap : 1024;
	while (cap < rd->len + more)
		cap *= 2;
	uint32_t *s = realloc(rd->src, cap * sizeof *s);
	if (!s)
		return -ENOMEM;
	rd->src = s;
	uint32_t *d = realloc(rd->dst, cap * sizeof *d);
	if (!d)
		return -ENOMEM;
	rd->dst = d;
	uint32_t *w = realloc(rd->w, cap * sizeof *w);
	if (!w)
		return -ENOMEM;
	rd->w = w;
	rd->cap = cap;
	return 0;
}

static double road_dist(const struct road *rd, uint32_t a, uint32_t b)
{
	double dx = rd->p[a].x - rd->p[b].x, dy = rd->p[a].y - rd->p[b].y;
	return sqrt(dx * dx + dy * dy);
}

/* An edge a-b with cost round(length * factor), at least 1, at most GRAPH_MAX_WEIGHT. */
static int road_edge(struct road *rd, uint32_t a, uint32_t b, double factor)
{
	if (a == b)
		return 0;
	if (road_arc_reserve(rd, 2) < 0)
		return -ENOMEM;
	double c = road_dist(rd, a, b) * factor + 0.5;
	uint32_t w = c < 1 ? 1 : c > GRAPH_MAX_WEIGHT ? GRAPH_MAX_WEIGHT : (uint32_t)c;
	rd->src[rd->len] = a;
	rd->dst[rd->len] = b;
	rd->w[rd->len++] = w;
	rd->src[rd->len] = b;
	rd->dst[rd->len] = a;
	rd->w[rd->len++] = w;
	return 0;
}

static uint32_t uf_find(uint32_t *uf, uint32_t x)
{
	while (uf[x] != x)
	{
		uf[x] = uf[uf[x]];
		x = uf[x];
	}
	return x;
}

static void uf_union(uint32_t *uf, uint32_t a, uint32_t b)
{
	a = uf_find(uf, a);
	b = uf_find(uf, b);
	if (a != b)
		uf[a < b ? b : a] = a < b ? a : b; /* smaller root wins: deterministic */
}

/* The k nearest other points of @p v (k <= 3), nearest first, found ring by ring: a ring at
 * Chebyshev radius r holds no point nearer than (r - 1) * cell size. Returns how many. When
 * @p avoid_root is not UINT32_MAX, points of that component (rd->comp) are skipped. The
 * search stops after radius max_r. */
static unsigned road_nearest(const struct road *rd, uint32_t v, unsigned k, uint32_t avoid_root, uint32_t max_r,
			     uint32_t *out, double *outd)
{
	unsigned found = 0;
	int64_t cx = rd->p[v].cell % rd->gw, cy = rd->p[v].cell / rd->gw;
	for (uint32_t r = 0; r <= max_r && r <= rd->gw; r++)
	{
		if (found == k && outd[k - 1] <= ((double)r - 1) * rd->cs)
			break;
		for (int64_t y = cy - r; y <= cy + (int64_t)r; y++)
		{
			if (y < 0 || y >= rd->gw)
				continue;
			/* the whole row on the ring's top and bottom, its two ends in between */
			int64_t step = (y == cy - (int64_t)r || y == cy + (int64_t)r) ? 1 : 2 * (int64_t)r;
			for (int64_t x = cx - r; x <= cx + (int64_t)r; x += step)
			{
				if (x < 0 || x >= rd->gw)
					continue;
				uint32_t c = (uint32_t)(y * rd->gw + x);
				for (uint32_t u = rd->cstart[c]; u < rd->cstart[c + 1]; u++)
				{
					if (u == v || (avoid_root != UINT32_MAX && rd->comp[u] == avoid_root))
						continue;
					double d = road_dist(rd, u, v);
					if (found == k && (d > outd[k - 1] || (d == outd[k - 1] && u > out[k - 1])))
						continue;
					unsigned i = found < k ? found++ : k - 1;
					while (i > 0 && (outd[i - 1] > d || (outd[i - 1] == d && out[i - 1] > u)))
					{
						out[i] = out[i - 1];
						outd[i] = outd[i - 1];
						i--;
					}
					out[i] = u;
					outd[i] = d;
				}
			}
		}
	}
	return found;
}

/* Junctions of a faster level: in each block of b x b cells, the point nearest its centre. */
static int road_level(struct road *rd, uint32_t b, double factor)
{
	uint32_t nb = (rd->gw + b - 1) / b;
	uint32_t *junction = malloc((size_t)nb * nb * sizeof *junction);
	if (!junction)
		return -ENOMEM;
	for (uint32_t by = 0; by < nb; by++)
		for (uint32_t bx = 0; bx < nb; bx++)
		{
			double mx = (bx * b + b / 2.0) * rd->cs, my = (by * b + b / 2.0) * rd->cs, best = INFINITY;
			uint32_t bu = UINT32_MAX;
			for (uint32_t y = by * b; y < (by + 1) * b && y < rd->gw; y++)
				for (uint32_t x = bx * b; x < (bx + 1) * b && x < rd->gw; x++)
				{
					uint32_t c = y * rd->gw + x;
					for (uint32_t u = rd->cstart[c]; u < rd->cstart[c + 1]; u++)
					{
						double dx = rd->p[u].x - mx, dy = rd->p[u].y - my, d = dx * dx + dy * dy;
						if (d < best)
						{
							best = d;
							bu = u;
						}
					}
				}
			junction[by * nb + bx] = bu;
		}
	static const int dirs[3][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 } };
	for (uint32_t by = 0; by < nb; by++)
		for (uint32_t bx = 0; bx < nb; bx++)
		{
			uint32_t a = junction[by * nb + bx];
			if (a == UINT32_MAX)
				continue;
			for (int d = 0; d < 3; d++)
			{
				uint32_t x = bx + dirs[d][0], y = by + dirs[d][1];
				if (x >= nb || y >= nb || junction[y * nb + x] == UINT32_MAX)
					continue;
				if (road_edge(rd, a, junction[y * nb + x], factor) < 0)
				{
					free(junction);
					return -ENOMEM;
				}
			}
		}
	free(junction);
	return 0;
}

#define CELL_EMPTY UINT32_MAX
#define CELL_MIXED (UINT32_MAX - 1)

static int road_connect(struct road *rd)
{
	uint32_t n = rd->n;
	for (uint32_t v = 0; v < n; v++)
		rd->uf[v] = v;
	for (uint64_t e = 0; e < rd->len; e++)
		uf_union(rd->uf, rd->src[e], rd->dst[e]);
	uint32_t *size = calloc(n, sizeof *size), *best = malloc((size_t)n * sizeof *best);
	uint32_t *other = malloc((size_t)n * sizeof *other);
	uint32_t *cellcomp = malloc((size_t)rd->gw * rd->gw * sizeof *cellcomp);
	double *bestd = malloc((size_t)n * sizeof *bestd);
	int rc = -ENOMEM;
	if (!size || !best || !other || !cellcomp || !bestd)
		goto out;
	rc = 0;
	for (;;)
	{
		memset(size, 0, (size_t)n * sizeof *size);
		uint32_t comps = 0, giant = 0;
		for (uint32_t v = 0; v < n; v++)
		{
			rd->comp[v] = uf_find(rd->uf, v);
			if (size[rd->comp[v]]++ == 0)
				comps++;
		}
		if (comps <= 1)
			break;
		for (uint32_t v = 0; v < n; v++)
			if (size[v] > size[giant])
				giant = v;
		for (uint32_t v = 0; v < n; v++)
		{
			best[v] = UINT32_MAX;
			bestd[v] = INFINITY;
		}
		/* Each cell's component, or EMPTY / MIXED: a search starts only from points whose
		 * 3 x 3 cells are not all of their own component (near a gap or another
		 * component, or at the border), so a large component is not scanned inside out. */
		for (uint64_t c = 0; c < (uint64_t)rd->gw * rd->gw; c++)
		{
			uint32_t cc = rd->cstart[c] == rd->cstart[c + 1] ? CELL_EMPTY : rd->comp[rd->cstart[c]];
			for (uint32_t u = rd->cstart[c]; u < rd->cstart[c + 1]; u++)
				if (rd->comp[u] != cc)
					cc = CELL_MIXED;
			cellcomp[c] = cc;
		}
		/* Each component but the giant one: its shortest link to another component, in
		 * passes of growing radius R. After a pass, a component whose best link is no
		 * longer than R cells has it exactly (every point within R cells was seen) and
		 * searches no more, so a large component is not scanned across. */
		for (uint32_t R = 1;; R *= 2)
		{
			int open = 0;
			for (uint32_t v = 0; v < n; v++)
			{
				uint32_t root = rd->comp[v];
				if (root == giant || bestd[root] <= R / 2 * rd->cs)
					continue;
				int64_t cx = rd->p[v].cell % rd->gw, cy = rd->p[v].cell / rd->gw;
				int inside = 1;
				for (int64_t y = cy - 1; y <= cy + 1 && inside; y++)
					for (int64_t x = cx - 1; x <= cx + 1 && inside; x++)
						if (x < 0 || y < 0 || x >= rd->gw || y >= rd->gw || cellcomp[y * rd->gw + x] != root)
							inside = 0;
				if (inside)
					continue;
				uint32_t u;
				double d;
				if (road_nearest(rd, v, 1, root, R, &u, &d) == 1 &&
				    (d < bestd[root] || (d == bestd[root] && v < best[root])))
				{
					bestd[root] = d;
					best[root] = v;
					other[root] = u;
				}
				if (bestd[root] > R * rd->cs)
					open = 1;
			}
			if (!open || R > rd->gw)
				break;
		}
		for (uint32_t r = 0; r < n; r++)
			if (best[r] != UINT32_MAX)
			{
				if ((rc = road_edge(rd, best[r], other[r], 1.0)) < 0)
					goto out;
			}
		for (uint32_t r = 0; r < n; r++)
			if (best[r] != UINT32_MAX)
				uf_union(rd->uf, best[r], other[r]);
	}
out:
	free(size);
	free(best);
	free(other);
	free(cellcomp);
	free(bestd);
	return rc;
}

int graph_gen_road(uint32_t n, uint64_t seed, struct graph *g, struct graph_error *err)
{
	static const char what[] = "road-like graph";
	memset(g, 0, sizeof *g);
	if (n < 1 || n > (1u << 30))
		return graph_set_error(err, -EINVAL, "%s: %" PRIu32 " vertices, need 1..%u", what, n, 1u << 30);
	struct road rd = { .n = n };
	int rc = -ENOMEM, built = 0;
	double side = 1000.0 * ceil(sqrt((double)n));
	rd.gw = (uint32_t)ceil(sqrt(n / 2.0));
	rd.cs = side / rd.gw;
	rd.p = malloc((size_t)n * sizeof *rd.p);
	rd.cstart = calloc((size_t)rd.gw * rd.gw + 1, sizeof *rd.cstart);
	rd.uf = malloc((size_t)n * sizeof *rd.uf);
	rd.comp = malloc((size_t)n * sizeof *rd.comp);
	struct pt *tmp = malloc((size_t)n * sizeof *tmp);
	uint32_t ntown = n / 2000 + 1;
	double *town = malloc(3 * (size_t)ntown * sizeof *town);
	if (!rd.p || !rd.cstart || !rd.uf || !rd.comp || !tmp || !town)
		goto fail;

	struct road_rng r;
	road_seed(&r, seed);
	for (uint32_t t = 0; t < ntown; t++)
	{
		town[3 * t] = road_unit(&r) * side;
		town[3 * t + 1] = road_unit(&r) * side;
		town[3 * t + 2] = side / sqrt((double)ntown) * (0.05 + 0.2 * road_unit(&r)); /* spread */
	}
	for (uint32_t v = 0; v < n; v++)
	{
		double x, y;
		if (road_unit(&r) < 0.6)
		{
			uint32_t t = (uint32_t)(road_unit(&r) * ntown);
			double gx = road_unit(&r) + road_unit(&r) + road_unit(&r) + road_unit(&r) - 2.0;
			double gy = road_unit(&r) + road_unit(&r) + road_unit(&r) + road_unit(&r) - 2.0;
			x = town[3 * t] + gx * town[3 * t + 2];
			y = town[3 * t + 1] + gy * town[3 * t + 2];
			x = x < 0 ? 0 : x >= side ? side * 0.999999 : x;
			y = y < 0 ? 0 : y >= side ? side * 0.999999 : y;
		}
		else
		{
			x = road_unit(&r) * side;
			y = road_unit(&r) * side;
		}
		uint32_t cx = (uint32_t)(x / rd.cs), cy = (uint32_t)(y / rd.cs);
		cx = cx < rd.gw ? cx : rd.gw - 1;
		cy = cy < rd.gw ? cy : rd.gw - 1;
		tmp[v] = (struct pt){ x, y, cy * rd.gw + cx };
		rd.cstart[tmp[v].cell + 1]++;
	}
	/* Counting sort by cell: vertex ids in cell order. */
	for (uint64_t c = 0; c < (uint64_t)rd.gw * rd.gw; c++)
		rd.cstart[c + 1] += rd.cstart[c];
	for (uint32_t v = 0; v < n; v++)
		rd.p[rd.cstart[tmp[v].cell]++] = tmp[v];
	for (uint64_t c = (uint64_t)rd.gw * rd.gw; c > 0; c--)
		rd.cstart[c] = rd.cstart[c - 1];
	rd.cstart[0] = 0;

	for (uint32_t v = 0; v < n; v++)
	{
		uint32_t nb[3];
		double nd[3];
		unsigned k = road_nearest(&rd, v, 3, UINT32_MAX, UINT32_MAX, nb, nd);
		unsigned use = k < 2 ? k : 2;
		if (k == 3 && road_unit(&r) < 0.25)
			use = 3;
		for (unsigned i = 0; i < use; i++)
			if (road_edge(&rd, v, nb[i], 1.0) < 0)
				goto fail;
	}
	built = road_connect(&rd) == 0 && road_level(&rd, 12, 0.5) == 0 && road_level(&rd, 48, 0.25) == 0;
fail:
	free(tmp);
	free(town);
	free(rd.p);
	free(rd.cstart);
	free(rd.uf);
	free(rd.comp);
	/* graph_from_owned_arcs frees the arc arrays in every case. */
	if (built)
		return graph_from_owned_arcs(n, rd.len, rd.src ? rd.src : malloc(4), rd.dst ? rd.dst : malloc(4),
					     rd.w ? rd.w : malloc(4), g, err);
	free(rd.src);
	free(rd.dst);
	free(rd.w);
	return graph_set_error(err, rc, "%s: out of memory for %" PRIu32 " vertices", what, n);
}
