/* SSSP on a CPU core: Dijkstra with an indexed 4-ary heap (decrease-key in place, no
 * duplicate entries), which beats a binary heap on cache misses (half the depth, the four
 * children of a node in one or two cache lines). */
#include <string.h>

#include "common/buffers.h"
#include "sssp.h"

#define NOT_SEEN UINT32_MAX
#define SETTLED (UINT32_MAX - 1)

static inline void sift_up(uint32_t *heap, uint32_t *pos, const uint32_t *dist, uint32_t i)
{
	uint32_t v = heap[i], dv = dist[v];
	while (i > 0)
	{
		uint32_t parent = (i - 1) / 4;
		uint32_t p = heap[parent];
		if (dist[p] <= dv)
			break;
		heap[i] = p;
		pos[p] = i;
		i = parent;
	}
	heap[i] = v;
	pos[v] = i;
}

static inline void sift_down(uint32_t *heap, uint32_t *pos, const uint32_t *dist, uint32_t size, uint32_t i)
{
	uint32_t v = heap[i], dv = dist[v];
	for (;;)
	{
		uint32_t first = 4 * i + 1;
		if (first >= size)
			break;
		uint32_t last = first + 4 < size ? first + 4 : size;
		uint32_t best = first, bd = dist[heap[first]];
		for (uint32_t c = first + 1; c < last; c++)
		{
			uint32_t dc = dist[heap[c]];
			if (dc < bd)
			{
				bd = dc;
				best = c;
			}
		}
		if (bd >= dv)
			break;
		heap[i] = heap[best];
		pos[heap[i]] = i;
		i = best;
	}
	heap[i] = v;
	pos[v] = i;
}

void sssp_dijkstra(const struct sssp_graph *g, uint32_t src, uint32_t *dist, uint32_t *heap, uint32_t *pos,
		   struct sssp_summary *out)
{
	uint32_t n = g->n;
	memset(dist, 0xff, (size_t)n * sizeof(uint32_t)); /* SSSP_INF */
	memset(pos, 0xff, (size_t)n * sizeof(uint32_t));  /* NOT_SEEN */
	memset(out, 0, sizeof(*out));
	out->source = src;
	uint32_t size = 0;
	struct sssp_harm h = { 0, 0 };
	dist[src] = 0;
	heap[size++] = src;
	pos[src] = 0;
	while (size)
	{
		uint32_t u = heap[0];
		pos[u] = SETTLED;
		if (--size)
		{
			heap[0] = heap[size];
			sift_down(heap, pos, dist, size, 0);
		}
		uint32_t du = dist[u];
		out->reached++;
		out->sum += du;
		out->ecc = du; /* settled in non-decreasing order */
		sssp_harm_add(&h, sssp_harm_term(du));
		if (du >= SSSP_DIST_LIMIT)
			out->overflow = 1;
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint32_t v = g->col[e];
			if (pos[v] == SETTLED)
				continue;
			uint64_t nd64 = (uint64_t)du + g->w[e];
			uint32_t nd = nd64 < SSSP_INF - 1 ? (uint32_t)nd64 : SSSP_INF - 1;
			if (nd < dist[v])
			{
				dist[v] = nd;
				if (pos[v] == NOT_SEEN)
				{
					heap[size] = v;
					sift_up(heap, pos, dist, size++);
				}
				else
					sift_up(heap, pos, dist, pos[v]);
			}
		}
	}
	out->harmonic = sssp_harm_value(h);
}

void sssp_cpu(struct tuccompi_task *t, void *arg)
{
	struct sssp_args *a = arg;
	struct sssp_graph g = {
		.n = a->n,
		.rowptr = (const uint64_t *)tuccompi_task_shared(t, 0),
		.col = (const uint32_t *)tuccompi_task_shared(t, 1),
		.w = (const uint32_t *)tuccompi_task_shared(t, 2),
	};
	uint32_t src = *(const uint32_t *)tuccompi_task_input(t);
	uint32_t *dist = tuccompi_task_workspace(t, 0);
	uint32_t *pos = tuccompi_task_workspace(t, 1);
	uint32_t *heap = tuccompi_task_workspace(t, 2);
	struct sssp_summary *s = tuccompi_task_result(t);
	sssp_dijkstra(&g, src, dist, heap, pos, s);
	sssp_emit_row(a, t, src, dist);
	sssp_emit_cols(a, t, dist);
}
