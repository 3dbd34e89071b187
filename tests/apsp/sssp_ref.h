/* Reference single-source shortest paths for the tests: a textbook Dijkstra with a lazy
 * binary heap (a vertex may sit in the heap several times; stale entries are skipped when
 * popped). Deliberately simple and independent of the project's own Dijkstra and Crauser
 * implementations, which the tests check against it; tests/graph_sssp_ref.c checks it against
 * Floyd-Warshall.
 *
 * Distances are summed in 64 bits; a distance that does not fit below GRAPH_INF means the
 * graph breaks the API's promise, and aborts. Out of memory aborts too: this is test code. */
#ifndef TUCCOMPI_SSSP_REF_H
#define TUCCOMPI_SSSP_REF_H

#include "graph.h"

#include <stdio.h>
#include <stdlib.h>

struct sssp_ref_item
{
	uint64_t d;
	uint32_t v;
};

static inline void sssp_ref_die(const char *why, uint32_t v)
{
	fprintf(stderr, "sssp_ref: %s (vertex %u)\n", why, v);
	abort();
}

/** A graph of @p n vertices from @p m arcs written as triples (tail, head, weight; ids from 0) in @p a,
 *  through the graph library (graph_from_arcs); a graph it refuses fails the test (exit 1). */
static inline void sssp_ref_graph(struct graph *g, uint32_t n, uint64_t m, const uint32_t *a)
{
	uint32_t *s = malloc((m + 1) * 4), *d = malloc((m + 1) * 4), *w = malloc((m + 1) * 4);
	if (!s || !d || !w)
		sssp_ref_die("out of memory for the arcs", n);
	for (uint64_t i = 0; i < m; i++)
	{
		s[i] = a[3 * i];
		d[i] = a[3 * i + 1];
		w[i] = a[3 * i + 2];
	}
	struct graph_error err;
	if (graph_from_arcs(n, m, s, d, w, g, &err) < 0)
	{
		fprintf(stderr, "%s:%d: FAIL: graph_from_arcs: %s\n", __FILE__, __LINE__, err.msg);
		exit(1);
	}
	free(s);
	free(d);
	free(w);
}

/** dist[v] = length of a shortest path src -> v, GRAPH_INF when v is unreachable. */
static inline void sssp_ref(const struct graph *g, uint32_t src, uint32_t *dist)
{
	if (src >= g->n)
		sssp_ref_die("source out of range", src);
	for (uint32_t v = 0; v < g->n; v++)
		dist[v] = GRAPH_INF;
	size_t cap = 1024, len = 0;
	struct sssp_ref_item *heap = malloc(cap * sizeof *heap);
	char *done = calloc(g->n, 1);
	if (!heap || !done)
		sssp_ref_die("out of memory", src);
	dist[src] = 0;
	heap[len++] = (struct sssp_ref_item){0, src};
	while (len)
	{
		/* Pop the minimum: move the last item down from the root. */
		struct sssp_ref_item top = heap[0], last = heap[--len];
		size_t i = 0;
		for (;;)
		{
			size_t c = 2 * i + 1;
			if (c >= len)
				break;
			if (c + 1 < len && heap[c + 1].d < heap[c].d)
				c++;
			if (heap[c].d >= last.d)
				break;
			heap[i] = heap[c];
			i = c;
		}
		if (len)
			heap[i] = last;
		if (done[top.v])
			continue;
		done[top.v] = 1;
		for (uint64_t e = g->rowptr[top.v]; e < g->rowptr[top.v + 1]; e++)
		{
			uint32_t v = g->col[e];
			uint64_t d = top.d + g->w[e];
			if (d >= GRAPH_INF)
				sssp_ref_die("distance does not fit in 32 bits", v);
			if (done[v] || d >= dist[v])
				continue;
			dist[v] = (uint32_t)d;
			/* Push: move the new item up from the end. */
			if (len == cap)
			{
				cap *= 2;
				heap = realloc(heap, cap * sizeof *heap);
				if (!heap)
					sssp_ref_die("out of memory", v);
			}
			size_t k = len++;
			while (k > 0 && heap[(k - 1) / 2].d > d)
			{
				heap[k] = heap[(k - 1) / 2];
				k = (k - 1) / 2;
			}
			heap[k] = (struct sssp_ref_item){d, v};
		}
	}
	free(heap);
	free(done);
}

#endif
