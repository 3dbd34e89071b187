/* The SSSP engines' view of a graph of the graph library: the plug-in has its own graph type
 * (codelets/sssp/sssp_types.h), and the app converts its graphs to it here, so that arrows only
 * point down. */
#ifndef TUCCOMPI_APSP_GRAPH_VIEW_H
#define TUCCOMPI_APSP_GRAPH_VIEW_H

#include "graph.h"
#include "sssp_types.h"

/** The SSSP engines' view of @p g (no copy). */
static inline struct sssp_graph apsp_graph_view(const struct graph *g)
{
	struct sssp_graph v = { g->n, g->m, g->rowptr, g->col, g->w, g->min_out, g->max_w };
	return v;
}

#endif
