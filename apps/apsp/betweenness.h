/* tuccompi-apsp --betweenness FILE and --edge-betweenness FILE: the outputs of a betweenness run (the
 * SSSP plug-in's exact sums, sssp_args::betweenness), as NumPy's .npy (float64, one value per vertex,
 * or per arc) or CSV (vertex,betweenness; u,v,betweenness). Errors fill a struct graph_error with one line (what, where, how to fix);
 * -EINVAL is a bad argument (exit status 2). */
#ifndef TUCCOMPI_APSP_BETWEENNESS_H
#define TUCCOMPI_APSP_BETWEENNESS_H

#include <stdint.h>
#include <tuccompi.h>

#include "graph.h"

/** Before any work: @p vpath (--betweenness) and @p epath (--edge-betweenness), either NULL, name a
 *  format this writes (.npy or .csv, by its end, any case), and the other options allow them
 *  (@p journal: --journal given; @p per_source: NULL, or the name of a per-source output given
 *  (--rows, --pred, --targets), which a betweenness run does not make). */
int betweenness_check(const char *vpath, const char *epath, int journal, const char *per_source,
		      struct graph_error *err);

/** The outputs of a betweenness run from its sums @p acc (g->n vertices', then with @p epath g->m
 *  arcs'), atomically (nothing half-written on error): @p vpath each vertex's, times 0.5 when
 *  @p undirected (networkx's value of the undirected graph: every pair counted once); @p epath each
 *  arc's (.npy: m values in the order of g's arcs; .csv: u,v,betweenness a line, one per arc), when
 *  @p undirected each edge's, half the sum of its two arcs' (networkx's undirected
 *  edge_betweenness_centrality: the .npy gives both arcs the edge's value, the .csv one line per edge,
 *  u < v). */
int betweenness_write(const char *vpath, const char *epath, const struct tuccompi_exact *acc, const struct graph *g,
		      int undirected, struct graph_error *err);

#endif
