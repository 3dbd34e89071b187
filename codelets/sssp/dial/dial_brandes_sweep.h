/* The GPU sweeps of the dial-brandes engine (dial_brandes.h), as one thread of a warp sees them: the
 * state the kernels share, and each lane's steps as functions for the host and the device alike, so
 * that dial_brandes_gpu.cu's kernels and the host replica of tests/apsp/dial_brandes.c run the same
 * code on the same data. Plain C with SSSP_HD (sssp_types.h); no CUDA types.
 *
 * The state of a batch, after the traversal (dial_gpu.cu) logged its visits per warp (its share:
 * sssp_dial_gpu_share):
 *   head, mask  the log: visit i has head[4i..4i+3] = vertex, level, first pair, pairs, and its mask
 *               in mask[16i..16i+15] (immutable during the sweeps);
 *   count, cur  per share: its visits, and the sweep's cursor in them (forward: the next visit to
 *               take; backward: the visits left);
 *   ring        per slot (level mod R) and vertex, {level, visit} of the last visit written there;
 *   pairs       each visit's pairs' values from its first pair, in the order of their sources;
 *   heavy list  the level's visits whose pulls go to the whole grid: their visit, their first item
 *               and, when their pull side has several chunks, their first block of partial sums.
 * A level of a sweep is three kernels. visits: warp r takes the visits of share r at the level; a
 * light one (one chunk on its pull side, at most light_work arc-pair steps) it sweeps itself, a heavy
 * one it lists, with chunks x rounds items (a round: 32 of its pairs, one per lane). items: a warp per
 * item sums its chunk for its round's pairs, and writes their values (one chunk) or the partial sums
 * (several). combine: a warp per listed visit of several chunks adds its partial sums in chunk order;
 * the grid's last block then sets the next level. Every level's kernels read only what earlier levels
 * wrote, so no kernel waits for another's threads. */
#ifndef TUCCOMPI_SSSP_DIAL_BRANDES_SWEEP_H
#define TUCCOMPI_SSSP_DIAL_BRANDES_SWEEP_H

#include <stdint.h>
#include <tuccompi.h>

#include "brandes/brandes.h"
#include "sssp_types.h"

#ifdef __CUDA_ARCH__
#define DB_LDG(p) __ldg(p)
#else
#define DB_LDG(p) (*(p))
#endif

#define DB_FWD 0
#define DB_BWD 1
#define DB_NONE 0xffffffffu
#define DB_WORDS 16              /* 32-bit words of a mask: 512 sources */
#define DB_ITEM_BITS 36          /* the heavy list's counter: entries << 36 | items */
#define DB_LIGHT_WORK 512u       /* a warp sweeps a visit alone up to this many arc-pair steps */

/* The sweeps' control block. */
struct db_ctl
{
	uint32_t level;                /* the level being swept */
	uint32_t next;                 /* forward: the least level of a visit left (DB_NONE: none);
					* backward: the greatest, plus 1 (0: none) */
	uint32_t done, blocks;         /* the sweep is over; the combine kernel's blocks that ended */
	unsigned long long heavy;      /* the level's heavy list: entries << DB_ITEM_BITS | items */
	uint32_t parts, multi;         /* blocks of 32 partial sums taken; some entry has several chunks */
	uint32_t levels, bad;          /* levels swept; checks that failed (a bug: see bad_*) */
	uint32_t bad_vertex, bad_level, bad_what, pad;
	unsigned long long pairs_done; /* pairs swept (each sweep must sweep every pair once) */
};

/* What went wrong (db_ctl::bad_what). */
enum
{
	DB_BAD_SIGMA = 1, /* a pair other than its source's own with no path counted */
	DB_BAD_ZERO = 2,  /* a pair without a path count in the backward sweep */
	DB_BAD_PARTS = 3, /* more partial sums than the workspace holds */
};

/* Device (or host, in the replica) pointers of a batch's sweeps. */
struct db_sweep
{
	uint32_t n, nsrc, W, R, visits, light_work; /* visits: entries per vertex of a share */
	const uint64_t *rowptr, *in_rowptr;
	const uint32_t *col, *w, *in_col, *in_w;
	const uint32_t *head, *mask, *count, *src;
	uint32_t *cur, *ring;
	double *pairs;
	uint32_t *hrec, *hpb;
	unsigned long long *hbase;
	double *part;
	uint64_t part_cap; /* blocks of 32 partial sums */
	struct tuccompi_exact *acc, *eacc;
	struct db_ctl *ctl;
};

/* The set bits of w below bit b. */
SSSP_HD static inline unsigned db_popc(uint32_t w)
{
#ifdef __CUDA_ARCH__
	return (unsigned)__popc(w);
#else
	return (unsigned)__builtin_popcount(w);
#endif
}

/* The position of the (k+1)-th set bit of w (k < popc(w)). */
SSSP_HD static inline unsigned db_nth_bit(uint32_t w, unsigned k)
{
#ifdef __CUDA_ARCH__
	return __fns(w, 0, (int)k + 1);
#else
	for (; k; k--)
		w &= w - 1;
	return (unsigned)__builtin_ctz(w);
#endif
}

/* The source of the k-th pair (k < the pairs) of the mask m (DB_WORDS words). */
SSSP_HD static inline unsigned db_select(const uint32_t *m, unsigned k)
{
	for (unsigned q = 0;; q++)
	{
		const uint32_t w = DB_LDG(&m[q]);
		const unsigned c = db_popc(w);
		if (k < c)
			return 32 * q + db_nth_bit(w, k);
		k -= c;
	}
}

/* The rank of source s among the pairs of mask m, whose word of s is w. */
SSSP_HD static inline unsigned db_rank(const uint32_t *m, unsigned s, uint32_t w)
{
	unsigned r = db_popc(w & ((1u << (s & 31)) - 1u));
	for (unsigned q = 0; q < s / 32; q++)
		r += db_popc(DB_LDG(&m[q]));
	return r;
}

/* Arc (x, w) of a pull at level d in direction dir (forward: an in-arc from x; backward: an out-arc to
 * x): the visit of x at the other end's level (DB_NONE: x has no pair there, or the level would be
 * negative). The same answer for every pair of the visit. */
SSSP_HD static inline uint32_t db_other(const struct db_sweep *S, int dir, uint32_t d, uint32_t x, uint32_t w)
{
	if (dir == DB_FWD && w > d)
		return DB_NONE;
	const uint32_t lvl = dir == DB_FWD ? d - w : d + w;
	const uint32_t *e = S->ring + 2 * ((uint64_t)(lvl % S->R) * S->n + x);
	return DB_LDG(&e[0]) == lvl ? DB_LDG(&e[1]) : DB_NONE;
}

/* Whether source s has a pair in visit i (of the other end), and then its value in *val. */
SSSP_HD static inline int db_value(const struct db_sweep *S, uint32_t i, unsigned s, double *val)
{
	const uint32_t *m = S->mask + (uint64_t)i * DB_WORDS;
	/* both loads before either is used: they are in flight together */
	const uint32_t w = DB_LDG(&m[s / 32]), first = DB_LDG(&S->head[4 * (uint64_t)i + 2]);
	if (!((w >> (s & 31)) & 1u))
		return 0;
	*val = S->pairs[first + db_rank(m, s, w)];
	return 1;
}

/* How a visit of c pairs with deg arcs on its pull side is swept: its chunks (at least 1) and rounds of
 * 32 pairs; 1 when its own warp sweeps it. */
SSSP_HD static inline int db_light(uint64_t deg, uint32_t c, uint32_t light_work, uint32_t *chunks, uint32_t *rounds)
{
	*chunks = deg > SSSP_BRANDES_CHUNK ? (uint32_t)((deg + SSSP_BRANDES_CHUNK - 1) / SSSP_BRANDES_CHUNK) : 1;
	*rounds = (c + 31) / 32;
	return *chunks == 1 && deg * *rounds <= light_work;
}

/* The heavy list's entry of item t: the last entry whose first item is at most t (entries are in the
 * order of their first items). */
SSSP_HD static inline uint32_t db_entry_of(const unsigned long long *hbase, uint32_t entries, unsigned long long t)
{
	uint32_t lo = 0, hi = entries - 1;
	while (lo < hi)
	{
		const uint32_t mid = (lo + hi + 1) / 2;
		if (hbase[mid] <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Whether source s is the vertex's own source (its path count is 1, and it adds no dependency). */
SSSP_HD static inline int db_own(const struct db_sweep *S, unsigned s, uint32_t v)
{
	return s < S->nsrc && DB_LDG(&S->src[s]) == v;
}

#endif
