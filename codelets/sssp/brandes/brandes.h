/* Brandes' betweenness, one source at a time on a CPU core and 64 at a time on a GPU, below the
 * "brandes" engine (engine_brandes.c). Plain C header: no StarPU, no CUDA types.
 *
 * For a source s with exact integer distances d (from the SSSP engines), an arc (u, v, w) is tight
 * when d(u) + w = d(v); the tight arcs form the shortest-path DAG of s (acyclic unless arcs of weight
 * 0 form a cycle, which sssp_brandes_zero_cycle() finds: the engine refuses such graphs, whose path
 * counts are infinite). In a topological order of that DAG (Kahn's: a vertex is ready once every
 * tight arc into it has been counted),
 *   sigma(s) = 1, sigma(v) = sum over tight (u, v) of sigma(u)                    path counts
 *   delta(v) = sigma(v) * sum over tight (v, w) of (1 + delta(w)) / sigma(w)       dependencies
 * (U. Brandes, "A faster algorithm for betweenness centrality", J. Math. Sociol. 25(2), 2001), and
 * the betweenness of v sums delta(v) over the sources s != v. Counts are doubles: exact integers up
 * to 2^53 paths, rounded beyond.
 *
 * Both implementations evaluate every sum in the same canonical order, so that a source gives the
 * same bits on a CPU core and on a GPU: a vertex's arcs in CSR order (in-arcs: the transpose of
 * sssp_transpose(), sorted by tail), cut into chunks of SSSP_BRANDES_CHUNK arcs from its first arc;
 * each chunk summed in order from 0.0, then the chunks' sums in order from 0.0; IEEE additions,
 * divisions and multiplications, none fused. */
#ifndef TUCCOMPI_SSSP_BRANDES_H
#define TUCCOMPI_SSSP_BRANDES_H

#include <stddef.h>
#include <stdint.h>
#include <tuccompi.h>

#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Arcs per chunk of the canonical order (a GPU warp's share of a high-degree vertex). */
#define SSSP_BRANDES_CHUNK 256u

/** The graph both ways (host or device pointers, by context): out-arcs, and in-arcs sorted by tail;
 *  for the GPU, arc_in[a] = the place of out-arc a among the in-arcs (sssp_brandes_arc_map(); the CPU
 *  does not read it). */
struct sssp_brandes_graph
{
	uint32_t n;
	uint64_t m;
	const uint64_t *rowptr;
	const uint32_t *col, *w;
	const uint64_t *in_rowptr;
	const uint32_t *in_col, *in_w;
	const uint32_t *arc_in;
};

/** map[a] = the place among the in-arcs (sssp_transpose()'s, given by @p in_rowptr) of out-arc a of
 *  @p g (m entries; m < 2^32). 0, or -ENOMEM. */
int sssp_brandes_arc_map(const struct sssp_graph *g, const uint64_t *in_rowptr, uint32_t *map);

/** A cycle of arcs of weight 0 in @p g, if any: 1 with two consecutive vertices of one in *u and *v
 *  (the arc u -> v has weight 0), else 0. O(n + m); @p work holds 2n uint32. */
int sssp_brandes_zero_cycle(const struct sssp_graph *g, uint32_t *work, uint32_t *u, uint32_t *v);

/** Bytes of scratch sssp_brandes_cpu() needs for n vertices (8-byte aligned). */
size_t sssp_brandes_cpu_work_size(uint32_t n);

/** The dependencies of source @p src, given its distances @p dist (SSSP_INF: unreached), on @p g
 *  (host pointers): returns delta (n doubles inside @p work; 0 for unreached vertices and for
 *  vertices on no shortest path), or NULL when the tight arcs reached from src hold a cycle
 *  (arcs of weight 0), with one line in @p err. */
const double *sssp_brandes_cpu(const struct sssp_brandes_graph *g, uint32_t src, const uint32_t *dist, void *work,
			       char *err, size_t errlen);

/** acc[v] += delta[v] for every v != src (exactly: struct tuccompi_exact). */
void sssp_brandes_accumulate(struct tuccompi_exact *acc, const double *delta, uint32_t n, uint32_t src);

/* ---------------------------------------------------------------- the GPU (brandes_gpu.cu) */

/** Chunk items of the graph, for a GPU's workspace: the chunks of every vertex's in-arcs and
 *  out-arcs (at least one per vertex each) and those of vertices of more than one chunk. */
struct sssp_brandes_shape
{
	uint64_t items_in, items_out; /* sum over v of max(1, ceil(deg / CHUNK)) */
	uint64_t heavy_in, heavy_out; /* the same over vertices of more than one chunk */
	uint32_t w_min;               /* the lightest arc's weight (UINT32_MAX without arcs) */
};
void sssp_brandes_shape_of(const struct sssp_brandes_graph *g, struct sssp_brandes_shape *s);

/** Device bytes of one batch's workspace beyond the batched SSSP engine's (sssp_batch_gpu_workspace_size),
 *  for n vertices and m arcs. */
size_t sssp_brandes_gpu_workspace_size(uint32_t n, uint64_t m, const struct sssp_brandes_shape *s);

/** Betweenness of a batch: sources src[0..nsrc-1] (1..64, distinct), whose distances the batched
 *  engine left in @p dist (device, dist[v * 64 + i] from src[i], SSSP_INF beyond nsrc), on @p g
 *  (device pointers, arc_in included; m < 2^32), adding each vertex's dependencies (sources excluded) into @p acc (device, n
 *  entries) on @p stream (a cudaStream_t), with @p work (sssp_brandes_gpu_workspace_size() bytes of
 *  device memory), as one of @p share batches running at once on the GPU (its MK: the ordered
 *  sweeps' persistent grids take a 1/share of the GPU each, so that deep graphs' batches overlap).
 *  Blocks until done. 0, or a negative errno with one line in @p err (-EIO: a CUDA error; -ELOOP: a
 *  cycle of tight arcs, i.e. arcs of weight 0). Only in CUDA builds. */
int sssp_brandes_gpu(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *shape, const uint32_t *src,
		     unsigned nsrc, const uint32_t *dist, struct tuccompi_exact *acc, void *work, unsigned share, void *stream,
		     char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
