/* The distance matrix of tuccompi-apsp (--targets SPEC --matrix FILE): the |S| x |T| distances
 * from the sources to the targets, rows in the order of --sources, columns in the order of
 * --targets. Each task's result carries its source's columns (sssp_args::targets), so they reach
 * rank 0 with the summaries on any number of ranks and are in the resume journal; rank 0 writes
 * the file once the run is over, atomically (outfile.h: a temporary file renamed into place).
 *
 * Formats, by the name:
 *  - FILE.npy: numpy's .npy 1.0, float64, C order, inf where unreachable: what
 *    scipy.sparse.csgraph.dijkstra(G, indices=S)[:, T] returns;
 *  - FILE.csv (FILE.tsv: tabs): a header "source" then the target ids, then one line per source:
 *    its id, then its distances, "inf" where unreachable. */
#ifndef TUCCOMPI_APSP_MATRIX_H
#define TUCCOMPI_APSP_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/** Whether @p path names a format of the matrix (.npy, .csv or .tsv, any case): 0, or -EINVAL with
 *  the message (for the option's check, before the run). */
int matrix_check_name(const char *path, struct graph_error *err);

/** Write the matrix of @p k sources @p src and @p nt targets @p tgt to @p path, from @p results:
 *  k results of @p result_size bytes each, a struct sssp_summary then the nt distances (uint32,
 *  UINT32_MAX unreachable). 0, or a negative errno with the message (nothing left behind). */
int matrix_write(const char *path, const uint32_t *src, uint64_t k, const uint32_t *tgt, uint32_t nt,
		 const void *results, size_t result_size, struct graph_error *err);

#endif
