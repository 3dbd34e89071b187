/* Shortest-path trees from distance rows (sssp_pred_tree, sssp.h), for every engine alike: a row
 * holds exact distances whatever engine made it (PHAST's shortcuts included), and the tight arcs
 * of the input graph, d(u) + w(u, v) = d(v), are exactly the arcs of its shortest paths, so a walk
 * of them from the source finds a tree without unpacking anything. The walk is breadth-first and
 * the first vertex to reach v is its predecessor: every vertex takes its predecessor from a vertex
 * reached before it, so there is no cycle even where zero-weight arcs make many arcs tight. */
#include <errno.h>
#include <stdlib.h>

#include "buffers.h"
#include "engine.h" /* the plan's graph */

void sssp_pred_tree(const struct sssp_graph *g, uint32_t src, const uint32_t *dist, int32_t *pred, uint32_t *queue)
{
	uint32_t n = g->n, head = 0, tail = 0;
	for (uint32_t v = 0; v < n; v++)
		pred[v] = SSSP_NO_PRED;
	queue[tail++] = src;
	while (head < tail)
	{
		uint32_t u = queue[head++];
		uint64_t du = dist[u];
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint32_t v = g->col[e];
			/* v is unseen while its pred is unset (the source has none but is seen) */
			if (pred[v] == SSSP_NO_PRED && v != src && dist[v] != SSSP_INF && du + g->w[e] == dist[v])
			{
				pred[v] = (int32_t)u;
				queue[tail++] = v;
			}
		}
	}
}

int sssp_emit_pred(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row)
{
	size_t n = a->n;
	int32_t *pred = sssp_thread_scratch(n * (sizeof(int32_t) + sizeof(uint32_t)));
	if (!pred)
		return -ENOMEM;
	sssp_pred_tree(a->plan->g, src, row, pred, (uint32_t *)(pred + n));
	return a->pred(tuccompi_task_id(t), src, pred, a->n, a->pred_ctx);
}
