/* Host side of the batched GPU SSSP engine (batch_gpu.h): the transpose of a graph (the
 * in-arcs its PULL steps read), the rule that picks the bucket width delta, and the knobs'
 * defaults.
 *
 * The delta rule. The device loop pays a grid barrier (a few microseconds) per step, and the
 * work of a step is the relaxations it does. Plain Bellman-Ford (delta = 0) runs as many steps as
 * the deepest shortest-path tree has levels (in arcs) and may improve a pair several times;
 * buckets (near-far with one threshold for the 32 sources) improve pairs fewer times but add
 * steps: each bucket needs its own Bellman-Ford rounds and one RAISE step.
 *  - Low-diameter graphs (the paper's random graphs, R-MAT: 10-30 levels) finish in a few dozen
 *    steps anyway; an early probe of the engine measured buckets *slower* there, so
 *    delta = 0.
 *  - Deep graphs (grids, roads: thousands of levels) spend their time in re-improvements and in
 *    steps; there delta = a few mean arc weights. The model of the engine (tests/apsp/batch_model.c,
 *    instrumented; 200x200 grid, weights 1..10, 32 sources) counted: delta 0: 487 steps, 5.75
 *    relaxations per (arc, source) and 7.1 improvements per (vertex, source); delta 23: 665 steps,
 *    1.17 and 1.53; delta 45: 548 steps, 1.30 and 1.70; delta 90: 485 steps, 1.54 and 2.01. Steps
 *    cost a grid barrier each and the grid's frontier is thin, so steps weigh more than work:
 *    8 mean weights (44 here). bench/bench_batched --delta rule,0,20,90 measures it
 *    on a graph.
 * The hop depth comes from a double-sweep BFS (a BFS from a high-degree vertex, then one from the
 * last vertex it reached: the classic lower bound of the diameter), each BFS stopping as soon as
 * it passes SSSP_BATCH_LOW_DEPTH levels, so deep graphs cost a fraction of one BFS; the second one
 * is skipped when the first stayed within half the limit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batched/batch_gpu.h"
#include "batched/batch_gpu_logic.h"

void sssp_transpose(const struct sssp_graph *g, uint64_t *in_rowptr, uint32_t *in_col, uint32_t *in_w)
{
	uint32_t n = g->n;
	memset(in_rowptr, 0, ((size_t)n + 1) * sizeof(*in_rowptr));
	for (uint64_t e = 0; e < g->m; e++)
		in_rowptr[g->col[e] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		in_rowptr[v + 1] += in_rowptr[v];
	/* in_rowptr[t] is the next free slot of t while filling; afterwards it is t's end */
	for (uint32_t u = 0; u < n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint64_t k = in_rowptr[g->col[e]]++;
			in_col[k] = u;
			in_w[k] = g->w[e];
		}
	for (uint32_t v = n; v > 0; v--)
		in_rowptr[v] = in_rowptr[v - 1];
	in_rowptr[0] = 0;
}

/* BFS over out-arcs from s; stops once a level deeper than limit is reached. Returns the depth
 * reached (at most limit + 1) and in *last the last vertex dequeued. */
static uint32_t bfs_depth(const struct sssp_graph *g, uint32_t s, uint32_t limit, uint32_t *level, uint32_t *queue,
			  uint32_t *last)
{
	for (uint32_t v = 0; v < g->n; v++)
		level[v] = SSSP_INF;
	uint32_t head = 0, tail = 0, depth = 0;
	level[s] = 0;
	queue[tail++] = s;
	*last = s;
	while (head < tail)
	{
		uint32_t u = queue[head++];
		*last = u;
		if (level[u] > depth)
			depth = level[u];
		if (depth > limit)
			break;
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint32_t v = g->col[e];
			if (level[v] == SSSP_INF)
			{
				level[v] = level[u] + 1;
				queue[tail++] = v;
			}
		}
	}
	return depth;
}

void sssp_batch_knobs_default(struct sssp_batch_knobs *k)
{
	k->lanes = 0;
	k->pull_div = SSSP_BATCH_PULL_DIV;
	k->pull_density = SSSP_BATCH_PULL_DENSITY;
	k->sparse_popc = SSSP_BATCH_SPARSE_POPC;
	k->chunk_min = SSSP_BATCH_CHUNK_MIN;
	k->timeout_s = 60;
}

uint32_t sssp_batch_delta_rule(const struct sssp_graph *g)
{
	if (!g || g->n == 0 || g->m == 0)
		return 0;
	uint32_t *level = malloc((size_t)g->n * sizeof(*level)), *queue = malloc((size_t)g->n * sizeof(*queue));
	if (!level || !queue)
	{
		free(level);
		free(queue);
		return 0; /* no memory to measure: plain Bellman-Ford is correct on every graph */
	}
	uint32_t start = 0;
	uint64_t best = 0;
	for (uint32_t v = 0; v < g->n && v < 1024; v++)
		if (g->rowptr[v + 1] - g->rowptr[v] > best)
		{
			best = g->rowptr[v + 1] - g->rowptr[v];
			start = v;
		}
	uint32_t last;
	uint32_t depth = bfs_depth(g, start, SSSP_BATCH_LOW_DEPTH, level, queue, &last);
	/* a second sweep only when the first could have started near the middle of a deep graph
	 * (for undirected graphs the diameter is at most twice any vertex's eccentricity) */
	if (depth <= SSSP_BATCH_LOW_DEPTH && 2 * depth > SSSP_BATCH_LOW_DEPTH)
	{
		uint32_t d2 = bfs_depth(g, last, SSSP_BATCH_LOW_DEPTH, level, queue, &last);
		if (d2 > depth)
			depth = d2;
	}
	free(level);
	free(queue);
	if (depth <= SSSP_BATCH_LOW_DEPTH)
		return 0;
	/* mean weight, from at most 2^20 arcs spread over the whole array */
	uint64_t stride = g->m > (1u << 20) ? g->m >> 20 : 1, k = 0;
	double sum = 0;
	for (uint64_t e = 0; e < g->m; e += stride, k++)
		sum += g->w[e];
	double delta = ceil(SSSP_BATCH_DELTA_MEANS * sum / (double)k);
	if (delta < 1)
		delta = 1;
	return delta > 1e9 ? 1000000000u : (uint32_t)delta;
}
