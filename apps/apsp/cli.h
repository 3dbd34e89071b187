/* Helpers shared by the APSP application's command-line tools. */
#ifndef TUCCOMPI_APSP_CLI_H
#define TUCCOMPI_APSP_CLI_H

#include "graph.h"
#include "sssp_types.h"

/** The SSSP engines' view of a graph of the graph library (no copy). */
static inline struct sssp_graph apsp_graph_view(const struct graph *g)
{
	struct sssp_graph v = { g->n, g->m, g->rowptr, g->col, g->w, g->min_out, g->max_w };
	return v;
}

/** Seconds on a monotonic clock. */
double cli_now(void);

#endif
