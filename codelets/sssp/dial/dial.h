/* The "dial" engine's algorithm: many shortest-path trees at once by bit-parallel levels, for graphs
 * whose weights are small positive integers (1..SSSP_DIAL_WMAX).
 *
 * Dial's algorithm settles vertices in buckets of equal distance; with integer weights >= 1 every
 * bucket d is final once buckets < d are expanded. Run for B sources at once, bucket d of every source
 * is one set of (vertex, source) pairs: per vertex a mask of B bits, "the sources whose distance to
 * this vertex is exactly d" (the multi-source BFS of Then et al., "The more the merrier: efficient
 * multi-source graph traversal", VLDB 2014, where every arc weighs 1; an arc of weight w delays its
 * bits by w buckets). Level d takes the vertices with pairs pending at d, keeps the pairs not seen
 * before (new = pending & ~seen), and ORs them into pending[d + w] of each out-neighbour. Pending
 * masks live in a ring of R = wmax + 1 slots (level d reads slot d mod R while writing d+1..d+wmax,
 * never its own), each with a bitmap of the vertices
 * that have pairs pending there. No distance is read or compared: a pair is final when first seen,
 * and the per-source summaries are per-level counts (sum += d c, ecc = d, harmonic += c / d).
 *
 * Work: each (vertex, level) with new pairs costs one pass over the vertex's out-arcs, shared by all
 * B sources; its cost grows with the spread of a vertex's distances over the sources and with the
 * number of levels (the largest distance), so the engine suits shallow graphs with small weights
 * (random, R-MAT, social), not deep ones (grids, roads: PHAST). Distances are exact.
 *
 * The CPU implementation is here (dial.c: 64 to 512 sources per call, 1 to 8 64-bit words per mask per
 * vertex and slot); the GPU's (dial_gpu.cu: 512 sources per traversal) follows the same rules. Plain C. */
#ifndef TUCCOMPI_SSSP_DIAL_H
#define TUCCOMPI_SSSP_DIAL_H

#include <stddef.h>
#include <stdint.h>

#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The heaviest arc the engine takes: the ring has wmax + 1 slots of n masks. */
#define SSSP_DIAL_WMAX 64
/** Sources per call of sssp_dial_cpu_run(). */
#define SSSP_DIAL_CPU_LANES 64
/** Most sources per call of sssp_dial_cpu_run_words() (8 words per mask). */
#define SSSP_DIAL_CPU_LANES_MAX 512

/** The weights of @p g: 1 if every arc weighs 1..SSSP_DIAL_WMAX (and *wmax the heaviest, 1 for a
 *  graph without arcs), else 0 with the reason in @p why. */
int sssp_dial_weights(const struct sssp_graph *g, uint32_t *wmax, char *why, size_t whylen);

/** Bytes of the CPU workspace for @p n vertices and weights up to @p wmax. */
size_t sssp_dial_cpu_workspace_size(uint32_t n, uint32_t wmax);

/** Up to SSSP_DIAL_CPU_LANES trees of @p g (weights 1..wmax) from src[0..nsrc): the summaries in
 *  out[i] (source, sum, ecc, reached, harmonic; phases = levels), and with @p rows (NULL: none) each
 *  source's distances in rows[i][0..n) (SSSP_INF where unreachable). @p work: a workspace of
 *  sssp_dial_cpu_workspace_size() bytes, 64-byte aligned, any contents (the first call clears it;
 *  calls leave it ready for the next one on the same n and wmax). */
void sssp_dial_cpu_run(const struct sssp_graph *g, uint32_t wmax, const uint32_t *src, unsigned nsrc, void *work,
		       struct sssp_summary *out, uint32_t *const *rows);

/** Bytes of the CPU workspace of sssp_dial_cpu_run_words() with @p words 64-bit words per mask (1, 2, 4
 *  or 8): about (wmax + 2) x 8 x words bytes per vertex. */
size_t sssp_dial_cpu_workspace_size_words(uint32_t n, uint32_t wmax, unsigned words);

/** sssp_dial_cpu_run() for up to 64 x @p words sources (1, 2, 4 or 8 words; any other value runs as 1)
 *  with a workspace of sssp_dial_cpu_workspace_size_words() bytes. A call costs about the same per
 *  (vertex, distinct distance) whatever its width, so wider calls cost less per source and take
 *  longer. */
void sssp_dial_cpu_run_words(const struct sssp_graph *g, uint32_t wmax, unsigned words, const uint32_t *src,
			     unsigned nsrc, void *work, struct sssp_summary *out, uint32_t *const *rows);

/** The distances to a few vertices (the targets of an OD matrix) from a call of the CPU form: slot[v] is
 *  vertex v's slot (SSSP_DIAL_NO_SLOT for the other vertices), and the call writes source i's distance
 *  to v in dist[slot[v] x 64 x words + i] as it finds it. A vertex's lanes lie together, so this costs
 *  a cache line or two per target and level; rows (a line per lane) cost far more (docs/apsp.md). */
struct sssp_dial_targets
{
	const uint32_t *slot; /* n entries */
	uint32_t *dist;       /* sssp_dial_cpu_targets_size(slots, words) bytes, any contents */
};
#define SSSP_DIAL_NO_SLOT UINT32_MAX

/** Bytes of sssp_dial_targets::dist for @p nslots slots at @p words words per mask. */
size_t sssp_dial_cpu_targets_size(uint32_t nslots, unsigned words);

/** sssp_dial_cpu_run_words() that also records the distances to the vertices with a slot in @p tg. Only
 *  the pairs the call reaches are written: read them with sssp_dial_cpu_target_at() before the
 *  workspace's next call. */
void sssp_dial_cpu_run_targets(const struct sssp_graph *g, uint32_t wmax, unsigned words, const uint32_t *src,
			       unsigned nsrc, void *work, struct sssp_summary *out, const struct sssp_dial_targets *tg);

/** Lane @p i's distance to vertex @p v (which has a slot) after sssp_dial_cpu_run_targets() on @p work:
 *  SSSP_INF where unreachable. */
uint32_t sssp_dial_cpu_target_at(const void *work, const struct sssp_dial_targets *tg, uint32_t v, unsigned i);

#ifdef __cplusplus
}
#endif

#endif
