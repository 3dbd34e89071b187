/* The graph's depth rule, which several engines judge by (auto's choice, their MK, the batched
 * engine's bucket width): shallow graphs (a breadth-first search from a hub ends within
 * SSSP_DEPTH_LOW levels) against deep ones (grids, roads). The plan keeps its value
 * (sssp_plan_depth_rule, engine.h). */
#ifndef TUCCOMPI_SSSP_DEPTH_H
#define TUCCOMPI_SSSP_DEPTH_H

#include <stdint.h>

#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hop depth up to which a graph counts as shallow, and the bucket width of deeper graphs in mean arc
 * weights. */
#define SSSP_DEPTH_LOW 64u
#define SSSP_DEPTH_DELTA_MEANS 8.0

/** The bucket width for @p g (0 = no buckets: a shallow graph). A double-sweep BFS (from the vertex
 *  of largest out-degree among the first 1024, then, unless the first found at most half the limit,
 *  from the last vertex it reached) measures the hop depth; at most SSSP_DEPTH_LOW levels -> 0
 *  (plain Bellman-Ford: few iterations, buckets only add some); deeper -> ceil(SSSP_DEPTH_DELTA_MEANS
 *  x mean arc weight), at least 1. Costs two BFS at most, each stopping as soon as it passes the
 *  limit. */
uint32_t sssp_depth_rule(const struct sssp_graph *g);

#ifdef __cplusplus
}
#endif

#endif
