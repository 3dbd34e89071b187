/* PHAST on a GPU (Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011 / JPDC 2013, section on
 * GPUs): the shortest-path trees of 32, 64, 128 or 256 sources per pass over a contraction
 * hierarchy (ch.h), every step on the device.
 *
 * Distances are kept [position][lane] (a row of `lanes` words per vertex; a warp handles one
 * vertex, each thread lanes/32 consecutive lanes, so a row is one coalesced access). One
 * persistent cooperative kernel per group of sources runs:
 *   1. the sources' rows (0 in their own lane);
 *   2. an upward sweep, lowest level first: a vertex takes the minimum over its upward
 *      in-arcs from vertices already reached (a flag per vertex) - the union of the upward
 *      search spaces, computed without a priority queue, in one pass over the upward arcs;
 *   3. the downward sweep, highest level first: row(v) = min(row(v), row(u) + w) over its
 *      down in-arcs, with the per-lane sums, eccentricities and reached counts kept in
 *      registers, reduced per block in shared memory, then atomically.
 * Vertices of one level have no arcs among them, so a level is one parallel step. Each pass
 * first plans every level of each sweep (a thread per level): a level with few vertices and few
 * arcs (the top of the hierarchy) is chained: run by block 0 alone, with a block barrier after
 * it; other levels are run by the whole grid, with a grid-wide barrier after them (cooperative
 * groups). A level with fewer vertices than warps gives each vertex several warps, each folding
 * a slice of its arcs into the row with atomicMin (the rows of such levels are set to INF one
 * step before); on wider levels a vertex has one warp, which writes its row once. Near the top
 * of a grid's hierarchy a vertex has about a hundred upward in-arcs: walked by one warp, they
 * took most of the upward sweep's time (docs/apsp.md, "PHAST").
 * A grid barrier costs a few microseconds where a kernel launch per level would cost about
 * as much plus a host round trip per group; CUDA graphs would save the launches but not
 * the inter-kernel gaps. Rows in original ids: a gather kernel per lane, then an
 * asynchronous copy to the caller's pinned memory.
 *
 * Sums saturate as in sssp_dijkstra (SSSP_INF - 1); unreachable is SSSP_INF. Plain C
 * interface; nothing here aborts: errors come back as negative errno with a message. */
#ifndef TUCCOMPI_SSSP_PHAST_GPU_H
#define TUCCOMPI_SSSP_PHAST_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "phast/ch.h"
#include "phast/phast.h" /* struct sssp_phast_out */
#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default sources per pass (32, 64, 128 or 256 are valid): the widest, whose rows are read in the
 *  fewest passes over the hierarchy (docs/apsp.md, "PHAST"). */
#define SSSP_PHAST_GPU_LANES 256

/** How each level of a pass is planned, and profiling; for benchmarks and tests (bench/bench_phast sets
 *  them with --knob, tests/apsp/phast_gpu runs every plan). sssp_phast_gpu_knobs_default() gives
 *  the engine's own; any value gives the same distances. */
struct sssp_phast_gpu_knobs
{
	uint32_t chain_vertices; /**< a level is chained (block 0 alone) when its vertices are at most this
				  *   many per warp of a block (default 1; 0: never chain) ... */
	uint32_t chain_arcs;     /**< ... and its arcs at most this many per warp (default 16) */
	uint32_t split;          /**< 1: a vertex of a narrow level gets several warps (default); 0: one */
	uint32_t split_min;      /**< the smallest slice of a vertex's arcs a warp takes (default 4; 0 counts as 1) */
	uint32_t filter;         /**< 1: upward grid-wide levels of few arcs per vertex look at their vertices
				  *   one lane each first (default); 0: never */
	uint32_t profile;        /**< the first this many passes of the process print where their time went,
				  *   per class of levels, on stderr (default 0) */
	uint32_t store_all;      /**< 1: the downward sweep stores every row, also the lowest level's when
				  *   no output reads them (0, the default: it does not; for measuring that) */
	uint32_t narrow;         /**< 1 (the default): a pass of 128 or 256 lanes whose rows no output reads
				  *   (no rows, no target columns, store_all 0) keeps 16-bit distances below the
				  *   levels that split their vertices, when the hierarchy's distances fit: its first
				  *   pass in the process finds out (the passes that start meanwhile are 32-bit), and
				  *   a pass that meets a distance of 65,534 or more runs again with 32-bit rows and
				  *   makes the later ones 32-bit; 2: every pass tries 16-bit rows first (for tests);
				  *   0: 32-bit rows only */
};
void sssp_phast_gpu_knobs_default(struct sssp_phast_gpu_knobs *k);
/** Narrow passes (struct sssp_phast_gpu_knobs::narrow) this process ran, and how many of them met a
 *  distance too large for 16 bits and ran again with 32-bit rows. */
void sssp_phast_gpu_narrow_counts(unsigned long long *passes, unsigned long long *reruns);

/** Device bytes of workspace for an n-vertex hierarchy and @p lanes sources per pass
 *  (about 4 * lanes + 25 bytes per vertex); 0 if lanes is not 32, 64, 128 or 256. */
size_t sssp_phast_gpu_workspace_size(uint32_t n, unsigned lanes);
/** The same with room for @p ntargets target columns of a pass (sssp_phast_out::cols): lanes x
 *  ntargets words more. */
size_t sssp_phast_gpu_workspace_size_cols(uint32_t n, unsigned lanes, uint32_t ntargets);

/** Shortest paths from @p nsrc sources (host array of original ids < v->n) over the
 *  hierarchy @p v, whose pointers are DEVICE pointers (sssp_ch_view_from over the buffers'
 *  device copies), on the current device, in passes of @p lanes sources.
 *  @p work: device memory of sssp_phast_gpu_workspace_size(v->n, lanes) bytes (256-byte
 *  aligned, as cudaMalloc gives), contents need not be kept between calls. @p stream: a
 *  cudaStream_t (NULL: the default stream); @p share: how many such calls run at once on this
 *  GPU (MK; each pass's grid takes 1/share of the blocks that can be resident; 0 counts as 1);
 *  @p knobs: NULL for the engine's own plans. out[i] (host memory) receives the summary of
 *  src[i] with phases = the number of levels; when @p rows and rows[i] are not NULL,
 *  rows[i] (n entries, pinned host memory for an asynchronous copy) receives the distances
 *  in original ids. Returns when everything is done: 0, -EINVAL (bad argument: source out
 *  of range, lanes, workspace too small), -ENODEV (no usable device, or it cannot run a
 *  cooperative launch) or -EIO (a CUDA error), with one line in @p err. */
int sssp_phast_gpu(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, unsigned lanes, void *work,
		   size_t work_bytes, struct sssp_summary *out, uint32_t *const *rows, void *stream, unsigned share,
		   const struct sssp_phast_gpu_knobs *knobs, char *err, size_t errlen);

/** sssp_phast_gpu with the outputs of @p o (sssp_phast_gpu is this with o->rows = rows alone: its
 *  summaries' harmonic is 0): o->targets is a DEVICE array, o->cols pinned host memory (or o->col_dst
 *  pointers into registered host memory, the columns' final place); each pass gathers its sources'
 *  distances to the targets on the device (a kernel of lanes x ntargets reads), and only those cross
 *  to the host. @p work: sssp_phast_gpu_workspace_size_cols(n, lanes, ntargets)
 *  bytes when o->cols is set. */
int sssp_phast_gpu_out(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, unsigned lanes, void *work,
		       size_t work_bytes, struct sssp_summary *out, const struct sssp_phast_out *o, void *stream,
		       unsigned share, const struct sssp_phast_gpu_knobs *knobs, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
