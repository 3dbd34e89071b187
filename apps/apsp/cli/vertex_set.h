/* The vertex sets of the tools: --sources and --targets. Errors as in numbers.h. */
#ifndef TUCCOMPI_APSP_CLI_VERTEX_SET_H
#define TUCCOMPI_APSP_CLI_VERTEX_SET_H

#include <stdint.h>

#include "graph.h"

/** The sources of a run, from a spec: "all", "first:N" or "N" (vertices 0..N-1: the first N,
 *  not vertex N), "random:N" (N distinct vertices drawn with @p seed), "A-B" ("V-V": vertex V
 *  alone), a list "a,b,c" (distinct ids, no empty items, in this order), or "file:PATH" (such a
 *  list in a file: ids separated by blanks, line ends or commas, '#' comments; errors name
 *  PATH:LINE), for a graph of @p n vertices; ids count from 0. NULL spec: all when n <= 1024, else random:1024.
 *  *src is malloc'd (the caller frees it). -EINVAL for a bad spec, -ENOMEM. */
int cli_sources(const char *spec, uint32_t n, uint64_t seed, uint32_t **src, uint64_t *count, struct graph_error *err);
/** cli_sources for another option of the same syntax (--targets): messages name @p opt and call
 *  the vertices @p noun ("target"). */
int cli_vertex_set(const char *opt, const char *noun, const char *spec, uint32_t n, uint64_t seed, uint32_t **src,
		   uint64_t *count, struct graph_error *err);

#endif
