/* The graph's depth rule (depth.h), and the plan's memo of it (engine.h).
 *
 * Why a bucket width, and which. The batched engine's device loop pays a grid barrier per step, and
 * the work of a step is the relaxations it does. Plain Bellman-Ford (delta = 0) runs as many steps
 * as the deepest shortest-path tree has levels (in arcs) and may improve a pair several times;
 * buckets (near-far with one threshold for the sources of a traversal) improve pairs fewer times
 * but add steps: each bucket needs its own Bellman-Ford rounds and one RAISE step.
 *  - Shallow graphs (random graphs, R-MAT) finish in a few dozen steps anyway, where buckets only
 *    add steps: delta = 0.
 *  - Deep graphs (grids, roads: thousands of levels) spend their time in re-improvements and in
 *    steps; there delta = a few mean arc weights. Steps cost a grid barrier each and such a graph's
 *    frontier is thin, so steps weigh more than work: a width of several mean weights, which keeps
 *    the steps near Bellman-Ford's while cutting the re-improvements (the engine's model,
 *    tests/apsp/batch_model.c, counts both; bench/bench_batched --delta rule,0,20,90 measures them on
 *    a graph).
 * The hop depth comes from a double-sweep BFS (a BFS from a high-degree vertex, then one from the
 * last vertex it reached: the classic lower bound of the diameter), each BFS stopping as soon as it
 * passes SSSP_DEPTH_LOW levels, so deep graphs cost a fraction of one BFS; the second one is
 * skipped when the first stayed within half the limit. */
#include <math.h>
#include <stdlib.h>

#include "common/depth.h"
#include "engine.h"

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

uint32_t sssp_depth_rule(const struct sssp_graph *g)
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
	uint32_t depth = bfs_depth(g, start, SSSP_DEPTH_LOW, level, queue, &last);
	/* a second sweep only when the first could have started near the middle of a deep graph
	 * (for undirected graphs the diameter is at most twice any vertex's eccentricity) */
	if (depth <= SSSP_DEPTH_LOW && 2 * depth > SSSP_DEPTH_LOW)
	{
		uint32_t d2 = bfs_depth(g, last, SSSP_DEPTH_LOW, level, queue, &last);
		if (d2 > depth)
			depth = d2;
	}
	free(level);
	free(queue);
	if (depth <= SSSP_DEPTH_LOW)
		return 0;
	/* mean weight, from at most 2^20 arcs spread over the whole array */
	uint64_t stride = g->m > (1u << 20) ? g->m >> 20 : 1, k = 0;
	double sum = 0;
	for (uint64_t e = 0; e < g->m; e += stride, k++)
		sum += g->w[e];
	double delta = ceil(SSSP_DEPTH_DELTA_MEANS * sum / (double)k);
	if (delta < 1)
		delta = 1;
	return delta > 1e9 ? 1000000000u : (uint32_t)delta;
}

uint32_t sssp_plan_depth_rule(const struct sssp_plan *p)
{
	if (!p->depth_known)
	{
		/* a memo in a plan the engines see as const (every plan is made by plan.c, never const) */
		struct sssp_plan *m = (struct sssp_plan *)p;
		m->depth_rule = sssp_depth_rule(p->g);
		m->depth_known = 1;
	}
	return p->depth_rule;
}

uint32_t sssp_plan_bucket_width(const struct sssp_plan *p)
{
	return p->o.delta ? p->o.delta : sssp_plan_depth_rule(p);
}
