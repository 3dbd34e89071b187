/* PHAST on a CPU core (Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011 / JPDC 2013): the
 * shortest-path trees of several sources at once over a contraction hierarchy (ch.h).
 *
 * For a group of SSSP_PHAST_LANES sources, distances are kept [position][lane] (one 64-byte
 * row per vertex), and:
 *   1. upward: the union of the sources' upward search spaces is visited once, in
 *      decreasing position order (a max-heap of positions; up arcs go to smaller positions,
 *      so this is a topological order of the upward DAG), relaxing whole rows;
 *   2. downward sweep: positions 0 .. n-1 in order, each row = the minimum over its down
 *      in-arcs (u -> v from higher levels) of row(u) + w, and its upward value if any.
 * Both steps relax 16 lanes per arc in vector code (GCC/Clang clones for AVX-512, AVX2 and
 * the baseline where the compiler supports target_clones). Sums saturate like
 * sssp_dijkstra: a distance at or above SSSP_INF - 1 is SSSP_INF - 1, unreachable is SSSP_INF.
 * Any number of sources: groups of SSSP_PHAST_LANES run one after the other. */
#ifndef TUCCOMPI_SSSP_PHAST_H
#define TUCCOMPI_SSSP_PHAST_H

#include <stddef.h>
#include <stdint.h>

#include "phast/ch.h"
#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sources per sweep on a CPU core. */
#define SSSP_PHAST_LANES 16

/** Bytes of scratch sssp_phast_cpu needs for an n-vertex hierarchy (any number of sources;
 *  about 69 bytes per vertex). The contents need not be kept between calls. */
size_t sssp_phast_cpu_workspace_size(uint32_t n, unsigned nsrc);

/** Shortest paths from @p nsrc sources (original vertex ids < v->n) on the hierarchy @p v
 *  (host pointers). out[i] receives the summary of src[i] (phases = 0, harmonic 0: see
 *  sssp_phast_cpu_out). When @p rows is not
 *  NULL and rows[i] is not NULL, rows[i] (n entries) receives the distances from src[i] in
 *  original vertex ids. @p work: sssp_phast_cpu_workspace_size(v->n, nsrc) bytes, any
 *  alignment. Single-threaded; several calls may run at once on separate workspaces.
 *  Returns 0, or -EINVAL (a source out of range: nothing computed). */
int sssp_phast_cpu(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, void *work,
		   struct sssp_summary *out, uint32_t *const *rows);

/** What a pass gives besides the summaries (sssp_phast_cpu_out, sssp_phast_gpu_out). */
struct sssp_phast_out
{
	uint32_t *const *rows;    /**< as sssp_phast_cpu's @p rows (NULL: none) */
	const uint32_t *targets;  /**< ntargets original ids < n: the columns (GPU: a DEVICE array) */
	uint32_t ntargets;
	uint32_t *cols;           /**< NULL, or nsrc x ntargets: cols[i ntargets + j] = d(src[i], targets[j]) (GPU: pinned
				   *   host memory) */
	uint32_t *const *col_dst; /**< GPU only, NULL or nsrc pointers into pinned (registered) host memory: source i's
				   *   columns go straight to col_dst[i] (ntargets words; sources whose col_dst are
				   *   col_pitch bytes apart move in one 2-D copy) and cols is not used */
	size_t col_pitch;
	int harmonic;             /**< 1: fill sssp_summary::harmonic (a division per vertex and source); 0: left 0 */
};

/** sssp_phast_cpu with the outputs of @p o (sssp_phast_cpu is this with o->rows = rows alone: its
 *  summaries' harmonic is 0). */
int sssp_phast_cpu_out(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, void *work,
		       struct sssp_summary *out, const struct sssp_phast_out *o);

#ifdef __cplusplus
}
#endif

#endif
