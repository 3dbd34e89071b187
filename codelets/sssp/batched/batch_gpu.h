/* codelets/sssp/batched/batch_gpu.h — plain C header (no CUDA types)
 *
 * The batched GPU SSSP engine: up to 64 shortest-path trees per traversal of the graph (32 or
 * 64 sources: one or two per warp lane), the whole loop on the device (the device code
 * codelets/sssp/batched/batch_gpu_kernels.cu explains the algorithm; batch_gpu.cu is its host
 * driver). sssp_transpose() and the knobs' defaults are plain host code (batch_host.c) and exist in
 * builds without CUDA too; the bucket width comes from the graph's depth rule (common/depth.h). */
#ifndef TUCCOMPI_SSSP_BATCH_GPU_H
#define TUCCOMPI_SSSP_BATCH_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "sssp_types.h"           /* struct sssp_graph, struct sssp_summary, SSSP_INF, SSSP_DIST_LIMIT */

#ifdef __cplusplus
extern "C" {
#endif

/* The largest batch: sources per call of sssp_batch_gpu_run() (a traversal serves 32 or 64 of them,
 * sssp_batch_knobs::lanes below). */
#define SSSP_BATCH_LANES 64

/** The graph on the device: out-arcs and in-arcs (the transpose, sssp_transpose()) in CSR
 *  form. All pointers are DEVICE pointers, owned by the caller, read-only for the engine. */
struct sssp_batch_dgraph {        /* DEVICE pointers */
	uint32_t n; uint64_t m;
	const uint64_t *rowptr; const uint32_t *col; const uint32_t *w;          /* out-arcs (CSR) */
	const uint64_t *in_rowptr; const uint32_t *in_col; const uint32_t *in_w; /* in-arcs (transpose) */
};

/** The engine's knobs, for benchmarks and tests (bench/bench_batched --knob, tests/apsp/sssp_batch_gpu
 *  forces every path); sssp_batch_knobs_default() gives the engine's own. Any value gives the same
 *  distances. */
struct sssp_batch_knobs {
	unsigned lanes;        /* sources per traversal: 32 (one per warp lane; a batch of more sources takes
			        * several traversals, one after the other) or 64 (two per lane, 256-byte distance
			        * rows); 0 (default): 32 for batches of at most 32 sources, else 64 */
	uint32_t pull_div;     /* pull when the frontier holds more than n / pull_div vertices (0: never; default 10) */
	uint32_t pull_density; /* ... with at least this many new lanes per vertex (default 1; pull_div
			        * 4294967295 and pull_density 0: pull every step) */
	uint32_t sparse_popc;  /* frontier vertices with at most this many active lanes are expanded one thread
			        * per vertex, the others one warp per vertex (default 2) */
	uint32_t chunk_min;    /* smallest arc chunk of a high-degree vertex (default 64) */
	unsigned timeout_s;    /* the device loop's grid barrier gives up after this many seconds (default 60) */
};
/* The defaults (batch_host.c: in builds without CUDA too). */
void sssp_batch_knobs_default(struct sssp_batch_knobs *k);

/** For programs that drive the engine alone (its tests, bench/bench_batched): @p g and its transpose
 *  copied to the current device into @p dg (device memory owned by dg; free with
 *  sssp_batch_gpu_graph_free). 0, or -ENOMEM / -EIO with one line in @p err. */
int sssp_batch_gpu_graph_upload(const struct sssp_graph *g, struct sssp_batch_dgraph *dg, char *err, size_t errlen);
void sssp_batch_gpu_graph_free(struct sssp_batch_dgraph *dg);

/** Per-batch parameters. */
struct sssp_batch_params {
	uint32_t delta;   /* bucket width: vertices/lanes with distance >= current threshold wait; 0 = no buckets */
	unsigned share;   /* this batch may use about 1/share of the GPU (share = MK batches in flight); 0 or 1: all */
	const struct sssp_batch_knobs *knobs; /* NULL: the defaults */
	/* Target columns (optional): targets is a DEVICE array of ntargets vertex ids; cols (pinned host
	 * memory, nsrc x ntargets) receives cols[i ntargets + j] = d(src[i], targets[j]), gathered on the
	 * device after each traversal (a kernel of lanes x ntargets reads): only they cross to the host.
	 * The workspace must then be sssp_batch_gpu_workspace_size_cols(n, with_rows, ntargets) bytes. */
	const uint32_t *targets;
	uint32_t ntargets;
	uint32_t *cols;
	/* or, instead of cols, nsrc pointers into registered host memory: source i's columns go
	 * straight to col_dst[i] (sssp_gpu_cols_to_host; col_pitch: the distance between results) */
	uint32_t *const *col_dst;
	size_t col_pitch;
};

/* Device bytes one batch needs (distances [vertex][64 lanes] uint32, 64-bit frontier and far masks,
 * lists, queues, counters, and when with_rows a staging area to turn lanes into per-source rows), for
 * any lane count and any nsrc up to SSSP_BATCH_LANES: the same size whatever sssp_batch_knobs::lanes says.
 * About 344 bytes per vertex, 600 with rows, plus a few KiB (n = 4,194,304: 1.44 GB, 2.52 GB with rows). */
size_t sssp_batch_gpu_workspace_size(uint32_t n, int with_rows);
/* The same with room for ntargets target columns (sssp_batch_params::cols): 64 x ntargets words more. */
size_t sssp_batch_gpu_workspace_size_cols(uint32_t n, int with_rows, uint32_t ntargets);

/* Shortest paths from src[0..nsrc-1] (nsrc 1..SSSP_BATCH_LANES; duplicates allowed) on stream `stream` (a
 * cudaStream_t passed as void*), using `work` (device memory of sssp_batch_gpu_workspace_size bytes,
 * contents arbitrary on entry). Fills out[i] (host) for every source: source, 64-bit sum of finite
 * distances, ecc, reached, phases = iterations run (of the traversal that served it), overflow = 1 if a
 * distance >= SSSP_DIST_LIMIT. When rows != NULL it is nsrc*n uint32 of host memory (pinned by the caller):
 * row i = distances from src[i] (SSSP_INF when unreachable). Blocks until done. Returns 0, or a negative
 * errno (-EIO for a CUDA error) with one line in err (which call, cudaGetErrorString); never aborts.
 * With rows, `work` must be sssp_batch_gpu_workspace_size(n, 1) bytes (the staging area); g->in_rowptr
 * must be there even when no pull is wanted.
 * Other errors: -EINVAL (bad arguments: nsrc, a source >= n, NULL pointers), -ENODEV (the device cannot
 * launch cooperative kernels), -ETIMEDOUT (the device loop's grid barrier waited longer than
 * knobs->timeout_s seconds, default 60: blocks of the batch were not co-resident).
 * Thread-safe; concurrent calls need their own stream and workspace. */
int sssp_batch_gpu_run(const struct sssp_batch_dgraph *g, const uint32_t *src, unsigned nsrc, void *work,
		       const struct sssp_batch_params *p, void *stream, struct sssp_summary *out,
		       uint32_t *rows, char *err, size_t errlen);

/* The distances the last sssp_batch_gpu_run() on @p work left there (device memory, inside the
 * workspace): dist[v * 64 + i] from src[i] (SSSP_INF when unreachable, and for i >= nsrc), valid when
 * that run had knobs->lanes = 64 (one traversal, 64 slots per vertex), until the next run on @p work.
 * For the engines built on this one (betweenness, brandes_gpu.cu). */
const uint32_t *sssp_batch_gpu_dist(const void *work);

/* Host: the transpose of g (in-arcs) into caller arrays of n+1, m, m entries (in_rowptr, in_col, in_w).
 * The in-arcs of each vertex come sorted by their tail. */
void sssp_transpose(const struct sssp_graph *g, uint64_t *in_rowptr, uint32_t *in_col, uint32_t *in_w);

#ifdef __cplusplus
}
#endif

#endif
