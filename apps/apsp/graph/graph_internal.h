/* Helpers shared by the files of the graph library; not part of its API. */
#ifndef TUCCOMPI_GRAPH_INTERNAL_H
#define TUCCOMPI_GRAPH_INTERNAL_H

#include "graph.h"
#include "numtext.h"
#include "outfile.h"

#include <inttypes.h>
#include <string.h>

/** "path: what: strerror(e)"; returns -e. */
int graph_io_error(struct graph_error *err, const char *path, const char *what, int e);

/* The text writers' buffer (outfile_buf_open): large writes. */
#define WRITE_BUF ((size_t)1 << 20)

/* The name of standard input in messages. */
#define STDIN_NAME "<stdin>"

static inline int is_stdin(const char *path)
{
	return strcmp(path, "-") == 0;
}

/* What the limit of graph_read_options::max_bytes is, for messages. */
static inline const char *limit_what(const struct graph_read_options *o)
{
	return o->max_bytes_what ? o->max_bytes_what : "max_bytes";
}

/** Allocate the CSR arrays of an n-vertex, m-arc graph into a zeroed @p g (a rowptr already
 *  there is kept). On failure frees everything and returns -ENOMEM with the bytes needed. */
int graph_alloc(struct graph *g, uint32_t n, uint64_t m, struct graph_error *err);

/** graph_from_arcs taking the three malloc'd arrays, freed in every case; arcs sorted by
 *  source are turned into the CSR in place. */
int graph_from_owned_arcs(uint32_t n, uint64_t m, uint32_t *src, uint32_t *dst, uint32_t *w, struct graph *g,
			  struct graph_error *err);

#endif
