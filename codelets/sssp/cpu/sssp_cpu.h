/* The CPU SSSP engine for integer weights: Dial's circular buckets (width 1 for small weights,
 * wider for large ones) over a packed copy of the graph, each bucket settled as a software pipeline
 * that keeps many cache misses in flight. Exact distances, the same as any Dijkstra's. Plain C: no
 * StarPU, no CUDA; sssp_cpu.c explains the algorithm. */
#ifndef TUCCOMPI_SSSP_CPU_H
#define TUCCOMPI_SSSP_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The engine's priority queue. */
enum sssp_cpu_queue
{
	SSSP_CPU_QUEUE_AUTO = 0, /**< Dial's buckets (the default) */
	SSSP_CPU_QUEUE_DIAL,     /**< circular array of buckets of width 2^k (see sssp_cpu_options::delta) */
	SSSP_CPU_QUEUE_RADIX,    /**< radix heap: 33 buckets by the highest bit differing from the last minimum;
				  *   O(m + n log C) whatever the weights, slower in practice */
};

/** Options of sssp_cpu_pack_opt() (zero-initialise: the defaults). For benchmarks and tests. */
struct sssp_cpu_options
{
	enum sssp_cpu_queue queue;
	/** Queue memory beyond the minimum, in 1/16ths of n entries (0: the default, 8 = n/2).
	 *  When the queue's memory fills with stale entries the engine compacts it; a small value
	 *  makes that happen often (tests). Any value gives the same distances. */
	uint32_t spare16;
	/** Dial's bucket width (rounded down to a power of two, at most 2^20); 0: the widest that at
	 *  most 1/32 of the arcs are lighter than (1 for weights 1..10). Wider than 1: a vertex may be
	 *  relaxed more than once (label-correcting within a bucket); any value gives the same distances. */
	uint32_t delta;
	/** 1: settle one vertex at a time without prefetching (to measure what the pipeline gains). */
	int plain;
	/** Renumber vertices by decreasing in-degree: 0 when skewed (the default), 1 always, -1 never.
	 *  Any value gives the same distances, in the caller's numbering. */
	int relabel;
};

/** Bytes of the packed graph of @p g (default options). */
size_t sssp_cpu_packed_size(const struct sssp_graph *g);
/** Write the packed graph of @p g into @p buf (sssp_cpu_packed_size() bytes, 8-byte aligned or
 *  better; 64 is best). The result holds offsets, not pointers: it may be copied or mapped
 *  anywhere, and many threads may run on it at once. @p g's weights must be at most 1,000,000
 *  (GRAPH_MAX_WEIGHT) and n below 2^32 - 1. */
void sssp_cpu_pack(const struct sssp_graph *g, void *buf);

/** The same with options (NULL: the defaults). */
size_t sssp_cpu_packed_size_opt(const struct sssp_graph *g, const struct sssp_cpu_options *o);
void sssp_cpu_pack_opt(const struct sssp_graph *g, const struct sssp_cpu_options *o, void *buf);

/** The queue a packed graph uses (never AUTO). */
enum sssp_cpu_queue sssp_cpu_packed_queue(const void *packed);
/** 1 if the packed graph renumbers vertices (see sssp_cpu_options::relabel), else 0. */
int sssp_cpu_packed_renumbered(const void *packed);

/** Per-thread scratch bytes that sssp_cpu_run() needs for @p packed (no allocation per source):
 *  about 6n bytes for width-1 buckets, 12n for wider ones or the radix heap, 4n more when
 *  renumbered, plus 512 bytes per bucket. */
size_t sssp_cpu_workspace_size(const void *packed);

/** Shortest paths from @p src (< n) on @p packed: dist[v] (n entries, the caller's memory)
 *  receives the distance of v, SSSP_INF when unreachable; distances are saturated at
 *  SSSP_INF - 1 and flagged in out->overflow from SSSP_DIST_LIMIT on, as sssp_dijkstra() does.
 *  @p work: sssp_cpu_workspace_size() bytes, 8-byte aligned, contents irrelevant, not shared
 *  with a concurrent call. @p out: reached, sum, ecc and overflow (phases = 0). Cannot fail. */
void sssp_cpu_run(const void *packed, uint32_t src, uint32_t *dist, void *work, struct sssp_summary *out);

#ifdef __cplusplus
}
#endif

#endif
