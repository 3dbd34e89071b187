/* Brandes' dependencies of one source on a CPU core, in the canonical order of brandes.h: Kahn's
 * order of the tight arcs (counted over in-arcs, then released over out-arcs), the path counts
 * pulled over each vertex's in-arcs as it becomes ready, then the dependencies pulled over its
 * out-arcs in the reverse order. The distances come from the bucket-queue engine (sssp_cpu.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brandes/brandes.h"

#define CHUNK SSSP_BRANDES_CHUNK
#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

int sssp_brandes_zero_cycle(const struct sssp_graph *g, uint32_t *work, uint32_t *cu, uint32_t *cv)
{
	uint32_t n = g->n, *indeg = work, *queue = work + n;
	memset(indeg, 0, (size_t)n * sizeof(*indeg));
	uint64_t zeros = 0;
	for (uint64_t e = 0; e < g->m; e++)
		if (g->w[e] == 0)
			indeg[g->col[e]]++, zeros++;
	if (!zeros)
		return 0;
	/* Kahn's algorithm on the arcs of weight 0: what it cannot order lies on or after a cycle */
	uint32_t head = 0, tail = 0;
	for (uint32_t v = 0; v < n; v++)
		if (!indeg[v])
			queue[tail++] = v;
	while (head < tail)
	{
		uint32_t u = queue[head++];
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
			if (g->w[e] == 0 && --indeg[g->col[e]] == 0)
				queue[tail++] = g->col[e];
	}
	if (tail == n)
		return 0;
	/* every vertex left has an arc of weight 0 from another one left: walking back from one of them
	 * comes round to a cycle within n steps (queue[] now holds one such predecessor per vertex) */
	uint32_t *pred = queue, start = SSSP_INF;
	for (uint32_t u = 0; u < n; u++)
		if (indeg[u])
			for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
				if (g->w[e] == 0 && indeg[g->col[e]])
					pred[g->col[e]] = u, start = g->col[e];
	uint32_t x = start;
	for (uint32_t k = 0; k < n; k++)
		x = pred[x];
	*cu = pred[x];
	*cv = x;
	return 1;
}

struct work_layout
{
	size_t cnt, order, sigma, delta, size;
};

static struct work_layout layout(uint32_t n)
{
	struct work_layout l;
	size_t n4 = ALIGN8((size_t)n * 4), n8 = (size_t)n * 8;
	l.cnt = 0;
	l.order = n4;
	l.sigma = 2 * n4;
	l.delta = 2 * n4 + n8;
	l.size = 2 * n4 + 2 * n8 + 8;
	return l;
}

size_t sssp_brandes_cpu_work_size(uint32_t n)
{
	return layout(n).size;
}

static inline int tight(uint32_t from, uint32_t w, uint32_t to)
{
	return from != SSSP_INF && to != SSSP_INF && (uint64_t)from + w == to;
}

const double *sssp_brandes_cpu(const struct sssp_brandes_graph *g, uint32_t src, const uint32_t *dist, void *work,
			       char *err, size_t errlen)
{
	struct work_layout l = layout(g->n);
	char *base = work;
	uint32_t *cnt = (uint32_t *)(base + l.cnt), *order = (uint32_t *)(base + l.order);
	double *sigma = (double *)(base + l.sigma), *delta = (double *)(base + l.delta);
	const uint32_t n = g->n;
	/* 1. each reached vertex's tight in-arcs, and the vertices to order */
	uint32_t reached = 0;
	for (uint32_t v = 0; v < n; v++)
	{
		delta[v] = 0.0;
		if (dist[v] == SSSP_INF)
			continue;
		reached++;
		uint32_t c = 0;
		for (uint64_t a = g->in_rowptr[v]; a < g->in_rowptr[v + 1]; a++)
			c += tight(dist[g->in_col[a]], g->in_w[a], dist[v]);
		cnt[v] = c;
	}
	/* 2. Kahn's order from the source; a vertex's count once it is ready (every tight in-arc's tail is
	 * before it): chunks of its in-arcs in order, then their sums */
	uint32_t head = 0, tail = 0;
	if (cnt[src] == 0)
		order[tail++] = src;
	while (head < tail)
	{
		uint32_t v = order[head++], dv = dist[v];
		double tot = 0.0;
		uint64_t b = g->in_rowptr[v], e = g->in_rowptr[v + 1];
		for (uint64_t c = b; c < e; c += CHUNK)
		{
			uint64_t ce = c + CHUNK < e ? c + CHUNK : e;
			double part = 0.0;
			for (uint64_t a = c; a < ce; a++)
				if (tight(dist[g->in_col[a]], g->in_w[a], dv))
					part += sigma[g->in_col[a]];
			tot += part;
		}
		sigma[v] = v == src ? 1.0 : tot;
		for (uint64_t a = g->rowptr[v]; a < g->rowptr[v + 1]; a++)
		{
			uint32_t t = g->col[a];
			if (tight(dv, g->w[a], dist[t]) && --cnt[t] == 0)
				order[tail++] = t;
		}
	}
	if (tail != reached)
	{
		snprintf(err, errlen,
			 "betweenness from source %u: the shortest paths to %u of the %u vertices it reaches run round a "
			 "cycle of arcs of weight 0 (infinitely many shortest paths); give those arcs a positive weight",
			 src, reached - tail, reached);
		return NULL;
	}
	/* 3. dependencies in the reverse order: chunks of the out-arcs in order, then their sums */
	for (uint32_t k = tail; k-- > 0;)
	{
		uint32_t v = order[k], dv = dist[v];
		double tot = 0.0;
		uint64_t b = g->rowptr[v], e = g->rowptr[v + 1];
		for (uint64_t c = b; c < e; c += CHUNK)
		{
			uint64_t ce = c + CHUNK < e ? c + CHUNK : e;
			double part = 0.0;
			for (uint64_t a = c; a < ce; a++)
			{
				uint32_t t = g->col[a];
				if (tight(dv, g->w[a], dist[t]))
					part += (1.0 + delta[t]) / sigma[t];
			}
			tot += part;
		}
		delta[v] = sigma[v] * tot;
	}
	return delta;
}

void sssp_brandes_accumulate(struct tuccompi_exact *acc, const double *delta, uint32_t n, uint32_t src)
{
	for (uint32_t v = 0; v < n; v++)
		if (delta[v] != 0.0 && v != src)
			tuccompi_exact_add(&acc[v], delta[v]);
}

int sssp_brandes_arc_map(const struct sssp_graph *g, const uint64_t *in_rowptr, uint32_t *map)
{
	/* the fill order of sssp_transpose(): tails in order, each tail's arcs in order */
	uint64_t *next = malloc(((size_t)g->n + 1) * sizeof(*next));
	if (!next)
		return -ENOMEM;
	memcpy(next, in_rowptr, ((size_t)g->n + 1) * sizeof(*next));
	for (uint32_t u = 0; u < g->n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
			map[e] = (uint32_t)next[g->col[e]]++;
	free(next);
	return 0;
}

void sssp_brandes_shape_of(const struct sssp_brandes_graph *g, struct sssp_brandes_shape *s)
{
	memset(s, 0, sizeof(*s));
	s->w_min = UINT32_MAX;
	for (uint64_t a = 0; a < g->m; a++)
		s->w_min = g->w[a] < s->w_min ? g->w[a] : s->w_min;
	for (uint32_t v = 0; v < g->n; v++)
	{
		uint64_t di = g->in_rowptr[v + 1] - g->in_rowptr[v], dout = g->rowptr[v + 1] - g->rowptr[v];
		uint64_t ci = (di + CHUNK - 1) / CHUNK, co = (dout + CHUNK - 1) / CHUNK;
		s->items_in += ci ? ci : 1;
		s->items_out += co ? co : 1;
		s->heavy_in += ci > 1 ? ci : 0;
		s->heavy_out += co > 1 ? co : 0;
	}
}
