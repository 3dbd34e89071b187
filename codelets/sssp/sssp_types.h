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

/* Functions below are for host and device code alike. */
#ifdef __CUDACC__
#define SSSP_HD __host__ __device__
#else
#define SSSP_HD
#endif

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
	double harmonic;   /**< sum of 1/d over the reached vertices at d > 0 (harmonic closeness; sssp_harm) */
};

/* The harmonic sum, the same bits on every engine, CPU or GPU, in any order: each term is
 * q = 2^61 / d as an IEEE double division (correctly rounded on CPUs and GPUs alike), taken exactly
 * as a fixed-point number of 92 fraction bits (q > 2^29 for d < 2^32, so q's last bit is worth at
 * least 2^-23 and q 2^31 is an integer, at most 2^92), and the terms are added as 128-bit integers,
 * whose sum does not depend on the order of the additions (floating-point sums do: a source run on a
 * GPU or on another rank would print other last digits). The value is sum / 2^92: each term within
 * 2^-53 of 1/d relatively, the sum exact. */
#define SSSP_HARM_SCALE 2305843009213693952.0 /* 2^61 */

/** A harmonic sum in progress, or a term: lo + 2^64 hi, in units of 2^-92. */
struct sssp_harm
{
	uint64_t lo, hi;
};

/** The term of a vertex at distance @p d (0 for d = 0 and unreachable vertices): q 2^31 as
 *  floor(q) 2^31 + the fraction's 31 bits (exact: see above). */
SSSP_HD static inline struct sssp_harm sssp_harm_term(uint32_t d)
{
	struct sssp_harm t = { 0, 0 };
	if (d == 0 || d == SSSP_INF)
		return t;
	double q = SSSP_HARM_SCALE / (double)d;
	uint64_t a = (uint64_t)q, b = (uint64_t)((q - (double)a) * 2147483648.0);
	t.lo = (a << 31) + b; /* b < 2^31: no carry */
	t.hi = a >> 33;
	return t;
}

/** h += t. */
SSSP_HD static inline void sssp_harm_add(struct sssp_harm *h, struct sssp_harm t)
{
	h->lo += t.lo;
	h->hi += t.hi + (h->lo < t.lo);
}

/** h += t c (c vertices at one distance; t c < 2^124). */
SSSP_HD static inline void sssp_harm_add_times(struct sssp_harm *h, struct sssp_harm t, uint32_t c)
{
	uint64_t a = (t.lo & 0xffffffffu) * c, b = (t.lo >> 32) * c; /* t.lo c = a + 2^32 b */
	struct sssp_harm x = { a, t.hi * c + (b >> 32) }, y = { b << 32, 0 };
	sssp_harm_add(h, x);
	sssp_harm_add(h, y);
}

/** The sum as a double (the same for the same sum on every machine: scalings by powers of two). */
SSSP_HD static inline double sssp_harm_value(struct sssp_harm h)
{
	return (double)h.hi * 0x1p-28 + (double)h.lo * 0x1p-92;
}

#ifdef __CUDACC__
/** *lo + 2^64 *hi += x atomically with respect to other such additions (global or shared memory). */
__device__ static inline void sssp_harm_atomic_add(unsigned long long *lo, unsigned long long *hi, struct sssp_harm x)
{
	unsigned long long old = atomicAdd(lo, (unsigned long long)x.lo);
	unsigned long long carry = old + x.lo < old;
	if (x.hi + carry)
		atomicAdd(hi, (unsigned long long)(x.hi + carry));
}
#endif

/** The summary of a distance row (for engines that compute rows and for checks). */
static inline void sssp_summarize(const uint32_t *dist, uint32_t n, uint32_t src, struct sssp_summary *out)
{
	uint64_t sum = 0;
	uint32_t ecc = 0, reached = 0, over = 0;
	struct sssp_harm h = { 0, 0 };
	for (uint32_t v = 0; v < n; v++)
	{
		uint32_t d = dist[v];
		if (d == SSSP_INF)
			continue;
		reached++;
		sum += d;
		sssp_harm_add(&h, sssp_harm_term(d));
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
	out->harmonic = sssp_harm_value(h);
}

#ifdef __cplusplus
}
#endif

#endif
