/* codelets/sssp/dial/dial_gpu.h -- plain C header (no CUDA types)
 *
 * The dial engine on a GPU: up to 512 shortest-path trees per traversal by bit-parallel levels, for
 * weights 1..SSSP_DIAL_WMAX (dial.h explains the algorithm; dial_gpu.cu the device code). */
#ifndef TUCCOMPI_SSSP_DIAL_GPU_H
#define TUCCOMPI_SSSP_DIAL_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "dial/dial.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sources per traversal (one bit each in a vertex's 64-byte mask). */
#define SSSP_DIAL_GPU_LANES 512
/** Sources per traversal when rows go to the host (the rows' staging area holds this many). */
#define SSSP_DIAL_GPU_ROW_LANES 64
/** Vertices with more out-arcs than this have them pushed by the whole grid (dial_gpu.cu, "heavy"). */
#define SSSP_DIAL_GPU_HEAVY_DEG 64

/** The graph's out-arcs on the device (DEVICE pointers, owned by the caller). */
struct sssp_dial_dgraph
{
	uint32_t n;
	uint64_t m;
	const uint64_t *rowptr;
	const uint32_t *col;
	const uint32_t *w;
};

/** Per-batch parameters (as sssp_batch_params's: the targets' columns and the GPU's share). */
struct sssp_dial_params
{
	uint32_t wmax;  /**< the heaviest arc (1..SSSP_DIAL_WMAX) */
	unsigned share; /**< this batch may use about 1/share of the GPU (MK batches in flight); 0 or 1: all */
	/** Target columns (optional): targets is a DEVICE array of ntargets vertex ids (duplicates
	 *  allowed); cols (pinned host memory, nsrc x ntargets) receives cols[i ntargets + j] =
	 *  d(src[i], targets[j]); or col_dst[i] (registered host memory) receives source i's columns. */
	const uint32_t *targets;
	uint32_t ntargets;
	uint32_t *cols;
	uint32_t *const *col_dst;
	size_t col_pitch;
	unsigned timeout_s; /**< the grid barrier gives up after this many seconds (0: 60) */
	unsigned grid_max;  /**< at most this many blocks in the level loop (0: as many as fit; tests) */
	/** Vertices with more out-arcs than this are heavy (0: SSSP_DIAL_GPU_HEAVY_DEG; UINT32_MAX: none). */
	uint32_t heavy_deg;
	/** (tests) at most this many heavy vertices per level go to the grid's list, the others push their
	 *  own arcs (0: every one) */
	uint32_t heavy_cap;
};

/** Device bytes of a batch's workspace: about (wmax + 2) x 64 bytes per vertex (the ring's wmax + 1
 *  slots and the seen masks), plus 72 bytes per vertex (the heavy list), plus 2 KiB per vertex with
 *  rows (the distances and their staging area), plus 4 KiB per target. */
size_t sssp_dial_gpu_workspace_size(uint32_t n, uint32_t wmax, int with_rows, uint32_t ntargets);

/** Shortest paths from src[0..nsrc) (1..SSSP_DIAL_GPU_LANES sources, at most SSSP_DIAL_GPU_ROW_LANES
 *  with @p rows; duplicates allowed) of @p g (every weight 1..p->wmax) on @p stream (a cudaStream_t),
 *  using @p work (device memory, sssp_dial_gpu_workspace_size() bytes, any contents). out[i] (host):
 *  source, sum, ecc, reached, harmonic; phases = levels. @p rows (NULL: none): pinned host memory of
 *  nsrc x n distances. Blocks until done. 0, or a negative errno with one line in @p err: -EINVAL (bad
 *  arguments), -ENODEV (no cooperative launch), -EIO (a CUDA error), -ETIMEDOUT (the grid barrier
 *  waited longer than the timeout: blocks were not co-resident). Thread-safe with a stream and a
 *  workspace per caller. */
int sssp_dial_gpu_run(const struct sssp_dial_dgraph *g, const uint32_t *src, unsigned nsrc, void *work,
		      const struct sssp_dial_params *p, void *stream, struct sssp_summary *out, uint32_t *rows,
		      char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
