/* SSSP on one CPU core for non-negative integer weights: Dijkstra's algorithm with a monotone
 * bucket queue instead of a comparison heap.
 *
 * - Dial's algorithm (Dial, CACM 12(11), 1969) when the largest weight C is at most
 *   SSSP_CPU_DIAL_MAX_W: a circular array of B buckets (B = C+1 rounded up to a power of two);
 *   bucket d mod B holds the vertices whose tentative distance is d. Every tentative distance lies
 *   in [d, d + C] while bucket d is settled, so the window never wraps onto itself. A bitmap of the
 *   non-empty buckets skips runs of empty ones. O(m + n + D/64) for the largest distance D.
 * - A radix heap otherwise (Ahuja, Mehlhorn, Orlin, Tarjan, JACM 37(2), 1990; the one-level
 *   variant): bucket 0 holds keys equal to the last minimum L, bucket i >= 1 the keys whose highest
 *   bit differing from L is bit i-1. When bucket 0 is empty the lowest non-empty bucket is
 *   redistributed around its minimum; a key moves down at most 32 times. O(m + n log C).
 *
 * Both queues are lazy: a vertex is pushed again whenever its distance drops and an entry is stale
 * when, once popped, the vertex's distance is no longer the entry's (no decrease-key, no per-vertex
 * queue state: the only per-vertex word is the distance, in the caller's row). All vertices of one
 * bucket have the same distance d and relaxing them cannot change each other, so they are settled
 * in batches of up to 128: first the distances and offsets of the whole batch are prefetched, then
 * its arc lists, then the distances of their targets, then the arcs are relaxed. Each step issues
 * independent cache misses, so the core waits for memory once per step rather than once per access:
 * that, more than the O(1) queue, is what makes this faster than a heap.
 *
 * Memory: buckets are lists of 512-byte chunks from a pool in the caller's workspace, sized for
 * n live entries plus one partial chunk per bucket plus a spare; when stale entries fill the pool
 * it is compacted (stale entries dropped; at most one live entry per vertex remains), so no source
 * ever allocates. The packed graph stores each vertex's arcs as 32-bit words (target << wbits |
 * weight) when n and the largest weight fit together, else as (target, weight) pairs, with 32-bit
 * offsets when m < 2^32. */
#include <string.h>

#include "sssp_cpu.h"

#define PACK_MAGIC 0x3150435053535354ULL /* "TSSSPCP1" */
#define NIL UINT32_MAX
#define CHUNK_SLOTS 128u /* uint32 slots per chunk: 512 bytes, eight cache lines */
#define BATCH CHUNK_SLOTS
#define RADIX_BUCKETS 33u
#define LAST_DIST (SSSP_INF - 1) /* distances saturate here */
#define ALIGN64(x) (((x) + 63) & ~(uint64_t)63)

/* The packed graph's first 64 bytes. */
struct packed_hdr
{
	uint64_t magic;
	uint64_t m;
	uint64_t off_at;   /* byte offset of the n+1 arc offsets (uint32 or uint64) */
	uint64_t arc_at;   /* byte offset of the arcs */
	uint32_t n, max_w;
	uint32_t queue;    /* enum sssp_cpu_queue, never AUTO */
	uint32_t nbuckets; /* Dial: power of two > max_w; radix: 33 */
	uint8_t off64, arc64, no_batch, wbits;
	uint32_t spare16;
};

/* A bucket: a chain of chunks, all full but the last (fill slots used). Empty: first == NIL,
 * fill == CHUNK_SLOTS, so that "fill == CHUNK_SLOTS" is the one test a push needs. */
struct list
{
	uint32_t first, last, fill, pad;
};

/* The state of one run, pointing into the packed graph and the workspace. */
struct run
{
	const struct packed_hdr *h;
	const void *off, *arcs;
	uint32_t *dist;
	struct list *lists; /* nbuckets + 1: the last one is the bucket being settled, detached */
	uint64_t *bits;     /* non-empty buckets */
	uint32_t *next;     /* per chunk: the next one in its list or in the free list */
	uint32_t *slots;    /* chunk c's slots are slots[c * CHUNK_SLOTS ...] */
	uint32_t free;      /* free list */
	uint32_t nlists;
	uint32_t esize;     /* slots per entry: 1 (Dial: vertex) or 2 (radix: key, vertex) */
	uint32_t cur;       /* Dial: the distance being settled; radix: the last minimum */
	uint32_t mask;      /* Dial: nbuckets - 1 */
	uint64_t nchunks;
	/* the summary */
	uint64_t sum;
	uint32_t reached, ecc;
};

/* ------------------------------------------------------------------ sizes */

static uint32_t bits_for(uint32_t x)
{
	return x ? 32u - (uint32_t)__builtin_clz(x) : 0u;
}

static enum sssp_cpu_queue pick_queue(const struct sssp_graph *g, const struct sssp_cpu_options *o)
{
	if (o && o->queue != SSSP_CPU_QUEUE_AUTO)
		return o->queue;
	return g->max_w <= SSSP_CPU_DIAL_MAX_W ? SSSP_CPU_QUEUE_DIAL : SSSP_CPU_QUEUE_RADIX;
}

static int arcs_fit_32(const struct sssp_graph *g)
{
	uint32_t wbits = bits_for(g->max_w);
	return wbits + bits_for(g->n ? g->n - 1 : 0) <= 32;
}

size_t sssp_cpu_packed_size_opt(const struct sssp_graph *g, const struct sssp_cpu_options *o)
{
	(void)o;
	int off64 = g->m > UINT32_MAX;
	uint64_t size = ALIGN64(sizeof(struct packed_hdr));
	size += ALIGN64(((uint64_t)g->n + 1) * (off64 ? 8 : 4));
	size += ALIGN64(g->m * (arcs_fit_32(g) ? 4 : 8));
	return (size_t)size;
}

size_t sssp_cpu_packed_size(const struct sssp_graph *g)
{
	return sssp_cpu_packed_size_opt(g, NULL);
}

void sssp_cpu_pack_opt(const struct sssp_graph *g, const struct sssp_cpu_options *o, void *buf)
{
	struct packed_hdr *h = buf;
	memset(h, 0, sizeof(*h));
	h->magic = PACK_MAGIC;
	h->m = g->m;
	h->n = g->n;
	h->max_w = g->max_w;
	h->queue = pick_queue(g, o);
	if (h->queue == SSSP_CPU_QUEUE_DIAL)
	{
		uint32_t b = 1;
		while (b <= g->max_w)
			b <<= 1;
		h->nbuckets = b;
	}
	else
		h->nbuckets = RADIX_BUCKETS;
	h->off64 = g->m > UINT32_MAX;
	h->arc64 = !arcs_fit_32(g);
	h->wbits = (uint8_t)bits_for(g->max_w);
	h->no_batch = o && o->no_batch;
	h->spare16 = o && o->spare16 ? o->spare16 : 8;
	h->off_at = ALIGN64(sizeof(struct packed_hdr));
	h->arc_at = h->off_at + ALIGN64(((uint64_t)g->n + 1) * (h->off64 ? 8 : 4));
	char *base = buf;
	if (h->off64)
		memcpy(base + h->off_at, g->rowptr, ((size_t)g->n + 1) * sizeof(uint64_t));
	else
	{
		uint32_t *off = (uint32_t *)(base + h->off_at);
		for (uint64_t v = 0; v <= g->n; v++)
			off[v] = (uint32_t)g->rowptr[v];
	}
	if (h->arc64)
	{
		uint32_t *arc = (uint32_t *)(base + h->arc_at);
		for (uint64_t e = 0; e < g->m; e++)
		{
			arc[2 * e] = g->col[e];
			arc[2 * e + 1] = g->w[e];
		}
	}
	else
	{
		uint32_t *arc = (uint32_t *)(base + h->arc_at);
		for (uint64_t e = 0; e < g->m; e++)
			arc[e] = (g->col[e] << h->wbits) | g->w[e];
	}
}

void sssp_cpu_pack(const struct sssp_graph *g, void *buf)
{
	sssp_cpu_pack_opt(g, NULL, buf);
}

enum sssp_cpu_queue sssp_cpu_packed_queue(const void *packed)
{
	return ((const struct packed_hdr *)packed)->queue;
}

/* Chunks: n entries, one partial chunk per list, one for the batch in hand, and the spare. */
static uint64_t pool_chunks(const struct packed_hdr *h)
{
	uint64_t per = CHUNK_SLOTS / (h->queue == SSSP_CPU_QUEUE_DIAL ? 1 : 2);
	uint64_t live = ((uint64_t)h->n + per - 1) / per;
	uint64_t spare = ((uint64_t)h->n * h->spare16 / 16 + per - 1) / per;
	return live + (h->nbuckets + 1) + 2 + spare;
}

/* Workspace: lists, bitmap, next[], slots (64-byte aligned relative to the start). */
static uint64_t ws_layout(const struct packed_hdr *h, uint64_t *bits_at, uint64_t *next_at, uint64_t *slots_at)
{
	uint64_t nlists = (uint64_t)h->nbuckets + 1, nch = pool_chunks(h);
	*bits_at = ALIGN64(nlists * sizeof(struct list));
	*next_at = *bits_at + ALIGN64((nlists + 63) / 64 * 8);
	*slots_at = *next_at + ALIGN64(nch * 4);
	return *slots_at + nch * CHUNK_SLOTS * 4;
}

size_t sssp_cpu_workspace_size(const void *packed)
{
	uint64_t a, b, c;
	return (size_t)ws_layout(packed, &a, &b, &c);
}

/* ------------------------------------------------------------------ chunk lists */

static inline void bit_set(uint64_t *bits, uint32_t i)
{
	bits[i / 64] |= 1ULL << (i % 64);
}

static inline void bit_clear(uint64_t *bits, uint32_t i)
{
	bits[i / 64] &= ~(1ULL << (i % 64));
}

static inline void list_empty(struct list *l)
{
	l->first = l->last = NIL;
	l->fill = CHUNK_SLOTS;
}

static inline void chunk_free(struct run *r, uint32_t c)
{
	r->next[c] = r->free;
	r->free = c;
}

/* Is an entry (its slots at e) of list li still live, i.e. its vertex's distance is the entry's? */
static inline int entry_live(const struct run *r, uint32_t li, const uint32_t *e)
{
	if (r->esize == 2)
		return r->dist[e[1]] == e[0];
	uint32_t d = r->cur; /* Dial: the detached list and bucket cur & mask hold distance cur */
	if (li != r->nlists - 1)
		d += (li - r->cur) & r->mask;
	return r->dist[e[0]] == d;
}

/* Drop the stale entries of every list, keeping the order, and return emptied chunks to the pool.
 * Afterwards the pool holds at most one live entry per unsettled vertex. */
static void compact(struct run *r)
{
	const uint32_t es = r->esize;
	for (uint32_t li = 0; li < r->nlists; li++)
	{
		struct list *l = &r->lists[li];
		if (l->first == NIL)
			continue;
		uint32_t wc = l->first, wi = 0; /* write cursor */
		uint64_t kept = 0;
		for (uint32_t rc = l->first;; rc = r->next[rc])
		{
			uint32_t cnt = rc == l->last ? l->fill : CHUNK_SLOTS;
			const uint32_t *rs = r->slots + (uint64_t)rc * CHUNK_SLOTS;
			for (uint32_t i = 0; i < cnt; i += es)
			{
				if (!entry_live(r, li, rs + i))
					continue;
				if (wi == CHUNK_SLOTS)
				{
					wc = r->next[wc];
					wi = 0;
				}
				uint32_t *ws = r->slots + (uint64_t)wc * CHUNK_SLOTS + wi;
				ws[0] = rs[i];
				if (es == 2)
					ws[1] = rs[i + 1];
				wi += es;
				kept++;
			}
			if (rc == l->last)
				break;
		}
		uint32_t tail = kept ? r->next[wc] : l->first;
		if (kept)
		{
			r->next[wc] = NIL;
			l->last = wc;
			l->fill = wi;
		}
		else
		{
			list_empty(l);
			if (li != r->nlists - 1)
				bit_clear(r->bits, li);
		}
		/* the chunks after the write cursor are empty now (the old last ends the chain) */
		while (tail != NIL)
		{
			uint32_t nx = r->next[tail];
			chunk_free(r, tail);
			tail = nx;
		}
	}
}

/* A new last chunk for list li, which is full or empty. Returns 0, or 1 when compaction freed
 * room in li itself (its fill is below CHUNK_SLOTS then: write there). */
static uint32_t list_grow(struct run *r, uint32_t li)
{
	struct list *l = &r->lists[li];
	if (r->free == NIL)
	{
		compact(r);
		if (l->fill < CHUNK_SLOTS)
			return 1;
		if (r->free == NIL) /* cannot happen: pool_chunks() leaves room for every live entry */
			__builtin_trap();
	}
	uint32_t c = r->free;
	r->free = r->next[c];
	r->next[c] = NIL;
	if (l->first == NIL)
	{
		l->first = c;
		if (li != r->nlists - 1)
			bit_set(r->bits, li);
	}
	else
		r->next[l->last] = c;
	l->last = c;
	l->fill = 0;
	return 0;
}

static inline void push1(struct run *r, uint32_t li, uint32_t v)
{
	struct list *l = &r->lists[li];
	if (__builtin_expect(l->fill == CHUNK_SLOTS, 0))
		list_grow(r, li);
	r->slots[(uint64_t)l->last * CHUNK_SLOTS + l->fill++] = v;
}

static inline void push2(struct run *r, uint32_t li, uint32_t key, uint32_t v)
{
	struct list *l = &r->lists[li];
	if (__builtin_expect(l->fill == CHUNK_SLOTS, 0))
		list_grow(r, li);
	uint32_t *s = r->slots + (uint64_t)l->last * CHUNK_SLOTS + l->fill;
	s[0] = key;
	s[1] = v;
	l->fill += 2;
}

/* Move list src to dst (empty) and empty src. */
static inline void list_detach(struct run *r, uint32_t src, uint32_t dst)
{
	r->lists[dst] = r->lists[src];
	list_empty(&r->lists[src]);
	bit_clear(r->bits, src);
}

/* Take the first chunk of list li: copy its slots to buf, free it; returns the slot count. */
static inline uint32_t list_pop_chunk(struct run *r, uint32_t li, uint32_t *buf)
{
	struct list *l = &r->lists[li];
	uint32_t c = l->first;
	uint32_t cnt = c == l->last ? l->fill : CHUNK_SLOTS;
	memcpy(buf, r->slots + (uint64_t)c * CHUNK_SLOTS, cnt * sizeof(uint32_t));
	if (c == l->last)
		list_empty(l);
	else
		l->first = r->next[c];
	chunk_free(r, c);
	return cnt;
}

/* ------------------------------------------------------------------ settling a batch */

static inline uint64_t off_get(const void *off, uint32_t v, const int off64)
{
	return off64 ? ((const uint64_t *)off)[v] : ((const uint32_t *)off)[v];
}

static inline void arc_get(const void *arcs, uint64_t a, const int arc64, uint32_t wbits, uint32_t *t, uint32_t *w)
{
	if (arc64)
	{
		*t = ((const uint32_t *)arcs)[2 * a];
		*w = ((const uint32_t *)arcs)[2 * a + 1];
	}
	else
	{
		uint32_t x = ((const uint32_t *)arcs)[a];
		*t = x >> wbits;
		*w = x & ((1u << wbits) - 1);
	}
}

static inline const void *arc_addr(const void *arcs, uint64_t a, const int arc64)
{
	return (const uint32_t *)arcs + (arc64 ? 2 * a : a);
}

/* dist[t] = min(dist[t], d + w), saturated at LAST_DIST; push t when it dropped. */
static inline __attribute__((always_inline)) void relax(struct run *r, uint32_t t, uint32_t d, uint32_t w,
							 const int radix, const int sat)
{
	uint32_t nd = d + w;
	if (sat && (nd < d || nd > LAST_DIST))
		nd = LAST_DIST;
	if (nd >= r->dist[t])
		return;
	r->dist[t] = nd;
	if (radix)
	{
		uint32_t x = nd ^ r->cur;
		push2(r, x ? 32u - (uint32_t)__builtin_clz(x) : 0u, nd, t);
	}
	else
		push1(r, nd & r->mask, t);
}


#define PF_AHEAD 16 /* arcs ahead whose target's distance is prefetched in a long arc list */

/* Settle the k vertices vs[] popped at distance d (stale entries skipped) and relax their arcs. */
static inline __attribute__((always_inline)) void settle(struct run *r, const uint32_t *vs, uint32_t k, uint32_t d,
							  const int radix, const int off64, const int arc64)
{
	uint32_t *dist = r->dist;
	const void *off = r->off, *arcs = r->arcs;
	const uint32_t wbits = r->h->wbits;
	const int sat = d > LAST_DIST - r->h->max_w;
	uint32_t nset = 0;
	if (r->h->no_batch)
	{
		for (uint32_t i = 0; i < k; i++)
		{
			uint32_t v = vs[i];
			if (dist[v] != d)
				continue;
			nset++;
			uint64_t e = off_get(off, v + 1, off64);
			for (uint64_t a = off_get(off, v, off64); a < e; a++)
			{
				uint32_t t, w;
				arc_get(arcs, a, arc64, wbits, &t, &w);
				relax(r, t, d, w, radix, sat);
			}
		}
	}
	else
	{
		uint64_t beg[BATCH], end[BATCH];
		uint32_t nl = 0;
		/* 1: the batch's distances and offsets */
		for (uint32_t i = 0; i < k; i++)
		{
			__builtin_prefetch(&dist[vs[i]]);
			__builtin_prefetch(off64 ? (const void *)((const uint64_t *)off + vs[i])
						 : (const void *)((const uint32_t *)off + vs[i]));
		}
		/* 2: drop stale entries; the live ones' arc lists */
		for (uint32_t i = 0; i < k; i++)
		{
			uint32_t v = vs[i];
			if (dist[v] != d)
				continue;
			nset++;
			uint64_t b = off_get(off, v, off64), e = off_get(off, v + 1, off64);
			if (b == e)
				continue;
			__builtin_prefetch(arc_addr(arcs, b, arc64));
			__builtin_prefetch(arc_addr(arcs, e - 1, arc64));
			beg[nl] = b;
			end[nl++] = e;
		}
		/* 3: the distances of the targets (the first PF_AHEAD of each list) */
		for (uint32_t j = 0; j < nl; j++)
		{
			uint64_t lim = end[j] - beg[j] > PF_AHEAD ? beg[j] + PF_AHEAD : end[j];
			for (uint64_t a = beg[j]; a < lim; a++)
			{
				uint32_t t, w;
				arc_get(arcs, a, arc64, wbits, &t, &w);
				__builtin_prefetch(&dist[t]);
			}
		}
		/* 4: relax */
		for (uint32_t j = 0; j < nl; j++)
		{
			uint64_t e = end[j];
			for (uint64_t a = beg[j]; a < e; a++)
			{
				uint32_t t, w;
				if (a + PF_AHEAD < e)
				{
					arc_get(arcs, a + PF_AHEAD, arc64, wbits, &t, &w);
					__builtin_prefetch(&dist[t]);
				}
				arc_get(arcs, a, arc64, wbits, &t, &w);
				relax(r, t, d, w, radix, sat);
			}
		}
	}
	r->reached += nset;
	r->sum += (uint64_t)nset * d;
	if (nset)
		r->ecc = d;
}

/* ------------------------------------------------------------------ the two queues */

/* The first set bit at or after @p from, circularly over nwords words. */
static inline int find_next(const uint64_t *bits, uint32_t nwords, uint32_t from, uint32_t *out)
{
	uint32_t wi = from / 64;
	uint64_t w = bits[wi] & (~0ULL << (from % 64));
	for (uint32_t step = 0; step <= nwords; step++)
	{
		if (w)
		{
			*out = wi * 64 + (uint32_t)__builtin_ctzll(w);
			return 1;
		}
		wi = wi + 1 == nwords ? 0 : wi + 1;
		w = bits[wi];
	}
	return 0;
}

static inline __attribute__((always_inline)) void run_dial(struct run *r, const int off64, const int arc64)
{
	const uint32_t nb = r->h->nbuckets, det = r->nlists - 1, nwords = (nb + 63) / 64;
	uint32_t buf[CHUNK_SLOTS];
	for (;;)
	{
		uint32_t b0 = r->cur & r->mask, b;
		if (!find_next(r->bits, nwords, b0, &b))
			break;
		r->cur += (b - b0) & r->mask;
		do /* zero-weight arcs refill bucket b while it is settled */
		{
			list_detach(r, b, det);
			while (r->lists[det].first != NIL)
			{
				uint32_t k = list_pop_chunk(r, det, buf);
				settle(r, buf, k, r->cur, 0, off64, arc64);
			}
		} while (r->lists[b].first != NIL);
	}
}

static inline __attribute__((always_inline)) void run_radix(struct run *r, const int off64, const int arc64)
{
	const uint32_t det = r->nlists - 1;
	uint32_t buf[CHUNK_SLOTS], vs[CHUNK_SLOTS / 2];
	for (;;)
	{
		if (r->lists[0].first == NIL)
		{
			uint64_t w = r->bits[0] & ((1ULL << RADIX_BUCKETS) - 1);
			if (!w)
				break;
			/* the new minimum: the smallest key of the lowest non-empty bucket */
			uint32_t i = (uint32_t)__builtin_ctzll(w), mn = UINT32_MAX;
			const struct list *l = &r->lists[i];
			for (uint32_t c = l->first;; c = r->next[c])
			{
				uint32_t cnt = c == l->last ? l->fill : CHUNK_SLOTS;
				const uint32_t *s = r->slots + (uint64_t)c * CHUNK_SLOTS;
				for (uint32_t j = 0; j < cnt; j += 2)
					mn = s[j] < mn ? s[j] : mn;
				if (c == l->last)
					break;
			}
			r->cur = mn;
			/* every key of bucket i now falls into a lower bucket */
			list_detach(r, i, det);
			while (r->lists[det].first != NIL)
			{
				uint32_t k = list_pop_chunk(r, det, buf);
				for (uint32_t j = 0; j < k; j += 2)
				{
					uint32_t x = buf[j] ^ mn;
					push2(r, x ? 32u - (uint32_t)__builtin_clz(x) : 0u, buf[j], buf[j + 1]);
				}
			}
		}
		list_detach(r, 0, det);
		while (r->lists[det].first != NIL)
		{
			uint32_t k = list_pop_chunk(r, det, buf);
			for (uint32_t j = 0; j < k; j += 2)
				vs[j / 2] = buf[j + 1];
			settle(r, vs, k / 2, r->cur, 1, off64, arc64);
		}
	}
}

void sssp_cpu_run(const void *packed, uint32_t src, uint32_t *dist, void *work, struct sssp_summary *out)
{
	const struct packed_hdr *h = packed;
	uint64_t bits_at, next_at, slots_at;
	ws_layout(h, &bits_at, &next_at, &slots_at);
	char *ws = work;
	struct run r = {
		.h = h,
		.off = (const char *)packed + h->off_at,
		.arcs = (const char *)packed + h->arc_at,
		.dist = dist,
		.lists = (struct list *)ws,
		.bits = (uint64_t *)(ws + bits_at),
		.next = (uint32_t *)(ws + next_at),
		.slots = (uint32_t *)(ws + slots_at),
		.free = NIL,
		.nlists = h->nbuckets + 1,
		.esize = h->queue == SSSP_CPU_QUEUE_DIAL ? 1 : 2,
		.mask = h->nbuckets - 1,
		.nchunks = pool_chunks(h),
	};
	for (uint32_t i = 0; i < r.nlists; i++)
		list_empty(&r.lists[i]);
	memset(r.bits, 0, (r.nlists + 63) / 64 * 8);
	/* all chunks free, chained in order */
	for (uint64_t c = 0; c < r.nchunks; c++)
		r.next[c] = c + 1 < r.nchunks ? (uint32_t)(c + 1) : NIL;
	r.free = 0;
	memset(dist, 0xff, (size_t)h->n * sizeof(uint32_t));
	dist[src] = 0;
	if (r.esize == 1)
	{
		push1(&r, 0, src);
		switch (h->off64 * 2 + h->arc64)
		{
		case 0: run_dial(&r, 0, 0); break;
		case 1: run_dial(&r, 0, 1); break;
		case 2: run_dial(&r, 1, 0); break;
		default: run_dial(&r, 1, 1); break;
		}
	}
	else
	{
		push2(&r, 0, 0, src);
		switch (h->off64 * 2 + h->arc64)
		{
		case 0: run_radix(&r, 0, 0); break;
		case 1: run_radix(&r, 0, 1); break;
		case 2: run_radix(&r, 1, 0); break;
		default: run_radix(&r, 1, 1); break;
		}
	}
	out->source = src;
	out->sum = r.sum;
	out->ecc = r.ecc;
	out->reached = r.reached;
	out->phases = 0;
	out->overflow = r.ecc >= SSSP_DIST_LIMIT;
}
