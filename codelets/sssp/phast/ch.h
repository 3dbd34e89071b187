/* Contraction hierarchies (Geisberger, Sanders, Schultes, Delling, WEA 2008) built for PHAST
 * (Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011 / JPDC 2013): the preprocessing of the
 * PHAST engine (phast.h, phast_gpu.h).
 *
 * Building: vertices are contracted in rounds; a round contracts an independent set of the
 * remaining graph (each vertex of it has a lower priority than all its neighbours) in
 * parallel. Contracting x adds a shortcut u -> w (weight w(u,x) + w(x,w), middle vertex x)
 * for every pair of remaining neighbours that has no witness: a path u -> w avoiding x, no
 * longer, found by a Dijkstra limited in settled vertices (a search that gives up adds the
 * shortcut, so limits cost shortcuts, never exactness). A witness of equal length must
 * avoid every vertex contracted in the same round (two such vertices could otherwise be
 * each other's witness, a tie that loses a distance). Priority of a vertex:
 * 2 * (shortcuts its contraction would add - arcs it would remove) + contracted
 * neighbours + level, with level(v) = 1 + the largest level of v's neighbours contracted
 * before it (0 if none). Witness searches settle at most 50 vertices when estimating a
 * priority and 1000 when contracting. Directed graphs in general, zero weights and disconnected parts
 * included; every distance PHAST computes equals Dijkstra's.
 *
 * The result, in the vertex numbering that the sweeps use ("positions"): vertices sorted by
 * level, highest first, then by original id; position order is a valid contraction order
 * (rank(v) = n - 1 - pos(v)), and vertices of one level have no arcs among them:
 *   up     out-arcs v -> w to higher levels (w has a smaller position): the source's upward
 *          search;
 *   upin   the same arcs stored at their head w, tail given: an upward sweep (GPU);
 *   down   in-arcs u -> v from higher levels, stored at v: the downward sweep, where
 *          dist(v) = min(dist(v), dist(u) + w) over them, in position order.
 * Arcs of one vertex are sorted by the other end's position.
 *
 * The cache file (sssp_ch_write / sssp_ch_read) holds all of it with a format version, the
 * key of the graph it was built from (sssp_graph_hash) and a checksum; it is written
 * atomically (temporary file + rename), in this machine's byte order. */
#ifndef TUCCOMPI_SSSP_CH_H
#define TUCCOMPI_SSSP_CH_H

#include <stddef.h>
#include <stdint.h>

#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A contraction hierarchy (opaque; host memory). */
struct sssp_ch;

/** What a build cost and produced. */
struct sssp_ch_stats
{
	double build_s;      /**< wall seconds of sssp_ch_build (as recorded in a cache file) */
	uint64_t shortcuts;  /**< arcs of the hierarchy that are shortcuts (have a middle vertex) */
	uint64_t up_arcs;    /**< arcs to higher levels (upward graph) */
	uint64_t down_arcs;  /**< arcs from higher levels (downward graph) */
	unsigned levels;     /**< levels (vertex sets without arcs among them), from 0 */
	unsigned rounds;     /**< parallel contraction rounds */
	unsigned threads;    /**< threads the build used */
};

/** 64-bit hash of a graph's CSR arrays (n, m, rowptr, col, w): the key tying a cache file
 *  to its graph. Not cryptographic; reads every array once. */
uint64_t sssp_graph_hash(const struct sssp_graph *g);

/** Build the hierarchy of @p g with @p nthreads threads (0: every online core). Returns 0
 *  and *out (free with sssp_ch_free), or -ENOMEM / -EINVAL (n above 2^31 - 1, an arc out of
 *  range) / -EDOM (the graph does not contract: a large dense core remains, ch_build.c's dense_core)
 *  with one line in @p err. @p st (may be NULL) receives the statistics. Results do
 *  not depend on the number of threads. */
int sssp_ch_build(const struct sssp_graph *g, unsigned nthreads, struct sssp_ch **out, struct sssp_ch_stats *st,
		  char *err, size_t errlen);

/** Write @p ch to @p path, tied to @p key (sssp_graph_hash of its graph): atomically
 *  (temporary file beside it, then rename; nothing is left on error). Returns 0 or a negative
 *  errno with a message naming the file. */
int sssp_ch_write(const struct sssp_ch *ch, const char *path, uint64_t key, char *err, size_t errlen);

/** Read a cache file. Returns 0 and *out, or: -ENOENT (no file), -ESTALE (made for another
 *  graph: key differs, or another format version), -EBADMSG (not a cache, truncated, bad
 *  checksum or inconsistent contents), -ENOMEM, -EIO; each with a message naming the file
 *  and saying that the caller should rebuild. */
int sssp_ch_read(const char *path, uint64_t key, struct sssp_ch **out, char *err, size_t errlen);

void sssp_ch_free(struct sssp_ch *ch);

/** Statistics of a hierarchy (built or read). */
void sssp_ch_stats(const struct sssp_ch *ch, struct sssp_ch_stats *st);

/** The sizes an engine needs besides the buffers (small: pass them by value to tasks). */
struct sssp_ch_dims
{
	uint32_t n;
	uint32_t levels;
	uint64_t up_arcs, down_arcs;
};
void sssp_ch_dims(const struct sssp_ch *ch, struct sssp_ch_dims *d);

/** An arc of the hierarchy: the other end's position and the weight. */
struct sssp_ch_arc
{
	uint32_t v;
	uint32_t w;
};

/** The flat arrays the engines read, in this order (sssp_ch_buffers). */
enum sssp_ch_buffer
{
	SSSP_CH_BUF_LEVEL = 0,  /**< uint32_t[levels + 1]: positions where each level starts (level levels-1 first) */
	SSSP_CH_BUF_POS,        /**< uint32_t[n]: original id -> position */
	SSSP_CH_BUF_ORIG,       /**< uint32_t[n]: position -> original id */
	SSSP_CH_BUF_UP_START,   /**< uint64_t[n + 1] */
	SSSP_CH_BUF_UP,         /**< struct sssp_ch_arc[up_arcs]: head positions */
	SSSP_CH_BUF_UPIN_START, /**< uint64_t[n + 1] */
	SSSP_CH_BUF_UPIN,       /**< struct sssp_ch_arc[up_arcs]: tail positions */
	SSSP_CH_BUF_DOWN_START, /**< uint64_t[n + 1] */
	SSSP_CH_BUF_DOWN,       /**< struct sssp_ch_arc[down_arcs]: tail positions */
	SSSP_CH_NBUF
};

/** Pointers to and sizes (bytes) of the SSSP_CH_NBUF buffers, for registration as shared
 *  read-only buffers; writes min(max, SSSP_CH_NBUF) entries and returns SSSP_CH_NBUF. A
 *  buffer may have size 0 (no arcs): its pointer is then still valid and non-NULL. */
unsigned sssp_ch_buffers(const struct sssp_ch *ch, const void **ptr, size_t *size, unsigned max);

/** What the engines read: host pointers (sssp_ch_view) or the same arrays' copies in device
 *  memory (sssp_ch_view_from). level_start[l] .. level_start[l+1]-1 are the positions of
 *  level levels-1-l: the sweep goes down from position 0. */
struct sssp_ch_view
{
	uint32_t n, levels;
	const uint32_t *level_start;
	const uint32_t *pos;
	const uint32_t *orig;
	const uint64_t *up_start;
	const struct sssp_ch_arc *up;
	const uint64_t *upin_start;
	const struct sssp_ch_arc *upin;
	const uint64_t *down_start;
	const struct sssp_ch_arc *down;
};

/** View over SSSP_CH_NBUF buffers laid out as sssp_ch_buffers() gives them (host or device). */
void sssp_ch_view_from(const struct sssp_ch_dims *d, const void *const *buffers, struct sssp_ch_view *v);

/** View of @p ch in host memory. */
void sssp_ch_view(const struct sssp_ch *ch, struct sssp_ch_view *v);

/** Middle vertex (original id) of the up / down arcs, parallel to the view's up and down
 *  arrays; UINT32_MAX for an arc of the input graph. For unpacking shortcuts into paths. */
const uint32_t *sssp_ch_up_middle(const struct sssp_ch *ch);
const uint32_t *sssp_ch_down_middle(const struct sssp_ch *ch);

#ifdef __cplusplus
}
#endif

#endif
