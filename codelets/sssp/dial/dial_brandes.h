/* Betweenness on the dial engine's traversals (the "dial-brandes" engine, engine_dial_brandes.c), for
 * graphs whose weights are integers 1..SSSP_DIAL_WMAX. Plain C header: no StarPU, no CUDA types.
 *
 * The dial traversal of B sources (dial.h) settles, level after level (distance d = 0, 1, 2, ...), the
 * (vertex, source) pairs at distance exactly d: a visit is a vertex v with the mask of its new pairs at
 * d. With every weight >= 1 a tight arc (u, v) (d(u) + w = d(v), brandes.h) joins two different levels,
 * so the levels are a topological order of every source's DAG of tight arcs at once: Brandes' sweeps
 * need no Kahn's order, no sort and no waiting. The traversal logs its visits (v, d, mask) in level
 * order; then
 *   forward   level by level upwards, each visit's pairs pull sigma over the vertex's in-arcs;
 *   backward  level by level downwards, each visit's pairs pull q = (1 + delta) / sigma over its
 *             out-arcs, add delta into the vertex's sum (and each tight arc's flow into its own).
 * A pull finds in one step whether an arc (x, w) is tight in any of the visit's pairs: the ring of
 * the last wmax + 1 levels holds, per slot and vertex, the level written and the visit of x at it
 * (entry {level, visit}); the arc is tight for source s iff the entry says x was visited at d - w
 * (forward; d + w backward) and that visit's mask has bit s. No distance is read: only the ring entry
 * (the same for every pair of the visit), the visit's mask and, for a tight pair, its value.
 *
 * A visit's pairs keep their values side by side, in the order of their sources (the visit's pairs
 * from its first pair poff): sigma after the forward sweep, then q in sigma's place (sigma(v) is
 * read only by v's own pairs, before they write q). Every sum is brandes.h's canonical one (arcs in
 * CSR order, chunks of SSSP_BRANDES_CHUNK from the vertex's first arc), so a source gives the bits of
 * the brandes engine on a CPU core or a GPU.
 *
 * The CPU form is here (dial_brandes.c: 64 to 512 sources per call, one log of the call's visits); the
 * GPU's (dial_brandes_gpu.cu: 512 sources per traversal) keeps the log per warp of the traversal. */
#ifndef TUCCOMPI_SSSP_DIAL_BRANDES_H
#define TUCCOMPI_SSSP_DIAL_BRANDES_H

#include <stddef.h>
#include <stdint.h>
#include <tuccompi.h>

#include "brandes/brandes.h"
#include "dial/dial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Visits the CPU form's log holds per vertex, at @p words 64-bit words per mask: a call that
 *  settles more gives -ENOSPC (the caller then runs its sources one at a time). */
#define SSSP_DIAL_BRANDES_CPU_VISITS(words) (16u + 8u * (words))

/** Bytes of the CPU form's workspace for @p n vertices, weights up to @p wmax, @p words 64-bit words per
 *  mask (1, 2, 4 or 8: 64 x words sources per call). */
size_t sssp_dial_brandes_cpu_workspace_size(uint32_t n, uint32_t wmax, unsigned words);

/** Betweenness of src[0..nsrc) (at most 64 x @p words, duplicates allowed) on @p g (host pointers,
 *  in-arcs included; every weight 1..wmax): the dial traversal (summaries in out[i], as
 *  sssp_dial_cpu_run_words gives them), then both sweeps by levels. Each vertex's dependencies
 *  (sources excluded) are added into acc[v] and, with @p edges (NULL: none), each arc's flow into
 *  edges[arc], exactly. @p work: sssp_dial_brandes_cpu_workspace_size() bytes, 64-byte aligned, any
 *  contents. 0, or -ENOSPC when the call's visits overflow its log (nothing was added: run the
 *  sources one at a time, sssp_brandes_cpu, which gives the same bits). */
int sssp_dial_brandes_cpu_run(const struct sssp_brandes_graph *g, uint32_t wmax, unsigned words, const uint32_t *src,
			      unsigned nsrc, void *work, struct sssp_summary *out, struct tuccompi_exact *acc,
			      struct tuccompi_exact *edges);

/* ---------------------------------------------------------------- the GPU (dial_brandes_gpu.cu) */

/** Sources per GPU traversal (the dial engine's). */
#define SSSP_DIAL_BRANDES_GPU_LANES 512
/** Visits the GPU's log holds per vertex (its warps' shares of it, by the bitmap words they visit): a
 *  traversal that settles more gives -ENOSPC, and the caller splits its sources. A traversal of at
 *  most this many sources always fits (a vertex has at most one visit per source). */
#define SSSP_DIAL_BRANDES_GPU_VISITS 48u

/** What the GPU workspace depends on beyond n and wmax: the pull sides' heavy vertices (more than
 *  SSSP_BRANDES_CHUNK arcs: their chunks' partial sums). sssp_dial_brandes_shape_of(). */
struct sssp_dial_brandes_shape
{
	uint64_t heavy_chunks; /* max over both sides of the sum over heavy vertices of ceil(deg / CHUNK) */
};
void sssp_dial_brandes_shape_of(const struct sssp_brandes_graph *g, struct sssp_dial_brandes_shape *s);

/** Device bytes of one batch's workspace (the traversal's included) for n vertices, weights up to
 *  wmax. */
size_t sssp_dial_brandes_gpu_workspace_size(uint32_t n, uint32_t wmax, const struct sssp_dial_brandes_shape *s);

/** Per-batch parameters. */
struct sssp_dial_brandes_params
{
	uint32_t wmax;  /**< the heaviest arc (1..SSSP_DIAL_WMAX) */
	unsigned share; /**< MK batches in flight on the GPU (the traversal's share of it) */
	uint32_t heavy_deg; /**< the traversal's heavy threshold (0: its default) */
	int edges;      /**< 1: acc holds n + m sums, the arcs' after the vertices' */
	/** (tests) visits per vertex of the log (0: SSSP_DIAL_BRANDES_GPU_VISITS; fewer make -ENOSPC come
	 *  sooner) and the most arc-pair steps a warp takes on one visit before its pulls go to the whole
	 *  grid (0: the default) */
	uint32_t visits, light_work;
};

/** Betweenness of src[0..nsrc) (1..SSSP_DIAL_BRANDES_GPU_LANES, duplicates allowed) on @p g (DEVICE
 *  pointers, in-arcs included; every weight 1..p->wmax; n x nsrc < 2^32) on @p stream, with @p work
 *  (sssp_dial_brandes_gpu_workspace_size() bytes of device memory): summaries in out[i] (host), each
 *  vertex's dependencies (its own sources excluded) added into acc[v] (device; with p->edges each
 *  arc's flow into acc[n + arc]). Blocks until done. 0, or a negative errno with one line in @p err:
 *  -ENOSPC (the log overflowed: nothing was added; split the sources), -EINVAL, -ENODEV, -EIO,
 *  -ETIMEDOUT (as sssp_dial_gpu_run). Only in CUDA builds. */
int sssp_dial_brandes_gpu_run(const struct sssp_brandes_graph *g, const uint32_t *src, unsigned nsrc, void *work,
			      const struct sssp_dial_brandes_params *p, const struct sssp_dial_brandes_shape *shape,
			      struct tuccompi_exact *acc, void *stream, struct sssp_summary *out, char *err,
			      size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
