/* What every SSSP engine of the plug-in shares: the graph as the engines see it and the
 * per-source summary. Plain C, no CUDA, no StarPU: engines and their tests include it. */
#ifndef TUCCOMPI_SSSP_TYPES_H
#define TUCCOMPI_SSSP_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Distance of an unreachable vertex. */
#define SSSP_INF UINT32_MAX
/** Distances at or above this are reported as overflow (sums along paths must fit in 31 bits). */
#define SSSP_DIST_LIMIT 0x80000000u

/** A directed graph in CSR form (host memory, owned by the caller): the arcs leaving u are
 *  col[rowptr[u] .. rowptr[u+1]-1] with weights w[...]; no self-loops, no parallel arcs,
 *  weights 0..1,000,000. min_out[u] is u's lightest out-arc (SSSP_INF if none). */
struct sssp_graph
{
	uint32_t n;
	uint64_t m;
	const uint64_t *rowptr;
	const uint32_t *col;
	const uint32_t *w;
	const uint32_t *min_out;
	uint32_t max_w;
};

/** Per-source result, gathered on the root. */
struct sssp_summary
{
	uint64_t source;
	uint64_t sum;      /**< sum of finite distances */
	uint32_t ecc;      /**< largest finite distance (eccentricity within the reachable set) */
	uint32_t reached;  /**< vertices with a finite distance, the source included */
	uint32_t phases;   /**< engine-specific iteration count (Crauser phases, frontier rounds); 0 on CPUs */
	uint32_t overflow; /**< 1 if a distance reached SSSP_DIST_LIMIT (weights too large for 32-bit distances) */
};

/** The summary of a distance row (for engines that compute rows and for checks). */
static inline void sssp_summarize(const uint32_t *dist, uint32_t n, uint32_t src, struct sssp_summary *out)
{
	uint64_t sum = 0;
	uint32_t ecc = 0, reached = 0, over = 0;
	for (uint32_t v = 0; v < n; v++)
	{
		uint32_t d = dist[v];
		if (d == SSSP_INF)
			continue;
		reached++;
		sum += d;
		if (d > ecc)
			ecc = d;
		if (d >= SSSP_DIST_LIMIT)
			over = 1;
	}
	out->source = src;
	out->sum = sum;
	out->ecc = ecc;
	out->reached = reached;
	out->phases = 0;
	out->overflow = over;
}

#ifdef __cplusplus
}
#endif

#endif
