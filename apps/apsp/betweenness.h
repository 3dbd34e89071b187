/* tuccompi-apsp --betweenness FILE: the output of a betweenness run (the SSSP plug-in's exact sums,
 * sssp_args::betweenness), as NumPy's .npy (float64, one value per vertex) or CSV
 * (vertex,betweenness). Errors fill a struct graph_error with one line (what, where, how to fix);
 * -EINVAL is a bad argument (exit status 2). */
#ifndef TUCCOMPI_APSP_BETWEENNESS_H
#define TUCCOMPI_APSP_BETWEENNESS_H

#include <stdint.h>
#include <tuccompi.h>

#include "graph.h"

/** Before any work: @p path names a format this writes (.npy or .csv, by its end, any case), and
 *  the other options allow it (@p journal: --journal given; @p per_source: NULL, or the name of a
 *  per-source output given (--rows, --pred, --targets), which a betweenness run does not make). */
int betweenness_check(const char *path, int journal, const char *per_source, struct graph_error *err);

/** Write @p acc (n sums) times @p scale to @p path atomically (nothing half-written on error). */
int betweenness_write(const char *path, const struct tuccompi_exact *acc, uint32_t n, double scale,
		      struct graph_error *err);

#endif
