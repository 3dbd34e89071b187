/* SSSP on one CPU core for non-negative integer weights: Dijkstra's algorithm with a monotone
 * bucket queue instead of a comparison heap, settling each bucket as a software pipeline.
 *
 * Queue (lazy: a vertex is pushed again whenever its distance drops, and an entry found stale when
 * popped is skipped; no decrease-key, no per-vertex queue state):
 * - Dial's buckets (R. B. Dial, CACM 12(11), 1969), the default: a circular array of B buckets of
 *   width 2^k; bucket (d >> k) mod B holds the vertices of tentative distance d, B being a power
 *   of two above (2^k - 1 + C) >> k for the largest weight C, so that the window of pending
 *   distances never wraps onto itself. A bitmap of the non-empty buckets skips runs of empty ones.
 *   k is the largest that at most 1/32 of the arcs are lighter than 2^k (k = 0 for weights 1..10,
 *   14 for 1..1,000,000), or more if needed to keep B <= 4096.
 *   - k = 0: label-setting, each bucket holds one distance d; an entry is stale when its vertex is
 *     settled already, which a bitmap of settled vertices (n bits, cache-resident) tells without
 *     touching dist[]. O(m + n + D/64) for the largest distance D.
 *   - k > 0: within a bucket, label-correcting (the sequential form of Meyer and Sanders'
 *     Delta-stepping, J. Algorithms 49(1), 2003): entries carry their key, a vertex lowered by a
 *     light arc (lighter than 2^k) from its own bucket is relaxed again. Buckets settled in order
 *     make the result exact; few light arcs make the extra work small, and wide buckets make long
 *     streams for the pipeline where large weights would leave one vertex per distance (k = 0
 *     and the radix heap keep one per distance).
 * - A radix heap on request (Ahuja, Mehlhorn, Orlin, Tarjan, JACM 37(2), 1990, one-level form):
 *   bucket 0 holds the keys equal to the last minimum L, bucket i >= 1 those whose highest bit
 *   differing from L is bit i-1; when bucket 0 is empty the lowest non-empty bucket is redistributed
 *   around its smallest key. O(m + n log C) whatever the weights.
 *
 * Settling: relaxing from distance d cannot bring a vertex below d, so the vertices of a bucket can
 * be settled ahead of relaxing their predecessors' arcs, and a bucket is one stream processed as a
 * software pipeline (settle_stream): a vertex's arc offsets are prefetched PIPE_K entries before it
 * is settled; settling it prefetches its arc list; PIPE_L - PIPE_L2 lists later its targets'
 * distances are prefetched; PIPE_L2 lists later its arcs are relaxed. On a graph without locality
 * each of these is a cache miss; the pipeline keeps many in flight instead of waiting for each in
 * turn, and that (more than the O(1) queue) is why this beats a heap, whose sift-down is a chain of
 * dependent misses.
 *
 * Packed graph (sssp_cpu_pack): arcs as 32-bit words (target << wbits | weight) when log2(n) plus
 * log2(C+1) fit in 32 bits, else (target, weight) pairs; 32-bit offsets when m < 2^32. When a few
 * vertices receive most arcs (R-MAT, social and web graphs: the 1/16 of vertices with the most
 * in-arcs receive a third of them or more), vertices are renumbered by decreasing in-degree so that
 * the distances most relaxations touch share a few cache lines; the run
 * then works on its own distance array and gathers the caller's row at the end.
 *
 * Memory: the buckets are chains of 512-byte chunks from a pool in the caller's workspace, sized
 * for n live entries, one partial chunk per bucket and a spare. When stale entries fill the pool it
 * is compacted (at most one live entry per vertex remains), so no source ever allocates. */
#include <string.h>

#include "cpu/sssp_cpu.h"

#define PACK_MAGIC 0x3250435053535354ULL /* "TSSSPCP2" */
#define NIL UINT32_MAX
#define CHUNK_SLOTS 128u /* uint32 slots per chunk: 512 bytes, eight cache lines */
#define RADIX_BUCKETS 33u
#define DIAL_MAX_BUCKETS 4096u /* chosen widths keep Dial's buckets (and their partial chunks) this few */
#define LAST_DIST (SSSP_INF - 1) /* distances saturate here, as in sssp_dijkstra() */
#define ALIGN64(x) (((x) + 63) & ~(uint64_t)63)

/* The packed graph's first 64 bytes; the arrays follow at 64-byte aligned offsets. */
struct packed_hdr
{
	uint64_t magic;
	uint64_t m;
	uint64_t off_at;   /* the n+1 arc offsets (uint32 or uint64) */
	uint64_t arc_at;   /* the arcs */
	uint64_t perm_at;  /* old2new[n], then new2old[n] at perm_at + ALIGN64(4n) (reserved even if unused) */
	uint32_t n, max_w;
	uint32_t nbuckets; /* Dial: power of two > (2^shift - 1 + max_w) >> shift; radix: 33 */
	uint8_t queue;     /* enum sssp_cpu_queue, never AUTO */
	uint8_t off64, arc64, wbits;
	uint8_t plain, relabel, spare16, shift; /* shift: Dial's buckets are 2^shift wide */
};

/* A bucket: a chain of chunks, all full but the last (fill slots used). Empty: first == NIL and
 * fill == CHUNK_SLOTS, so that "fill == CHUNK_SLOTS" is the one test a push makes. */
struct list
{
	uint32_t first, last, fill, pad;
};

/* One run's state, pointing into the packed graph and the workspace. */
struct run
{
	const struct packed_hdr *h;
	const void *off, *arcs;
	uint32_t *dist;     /* the caller's row, or the workspace's when renumbered */
	struct list *lists; /* nbuckets + 1: the last one is the bucket being settled, detached */
	uint64_t *bits;     /* non-empty buckets */
	uint64_t *done;     /* settled vertices */
	uint32_t *next;     /* per chunk: the next one in its list or in the free list */
	uint32_t *slots;    /* chunk c's slots: slots[c * CHUNK_SLOTS ...] */
	uint32_t free;      /* free list */
	uint32_t nlists;
	uint32_t esize;     /* slots per entry: 1 (Dial, width 1: vertex) or 2 (key, vertex) */
	uint32_t cur;       /* Dial: the bucket being settled (distance >> shift); radix: the last minimum */
	uint32_t mask;      /* Dial: nbuckets - 1 */
	uint64_t sum;
	uint32_t reached, ecc;
	struct sssp_harm harm;
};

/* ------------------------------------------------------------------ packing */

static uint32_t bits_for(uint32_t x)
{
	return x ? 32u - (uint32_t)__builtin_clz(x) : 0u;
}

static int arcs_fit_32(const struct sssp_graph *g)
{
	return bits_for(g->max_w) + bits_for(g->n ? g->n - 1 : 0) <= 32;
}

struct layout
{
	uint64_t off_at, arc_at, perm_at, n2o_at, size;
	int off64, arc64;
};

static struct layout pack_layout(const struct sssp_graph *g)
{
	struct layout l;
	l.off64 = g->m > UINT32_MAX;
	l.arc64 = !arcs_fit_32(g);
	l.off_at = ALIGN64(sizeof(struct packed_hdr));
	l.arc_at = l.off_at + ALIGN64(((uint64_t)g->n + 1) * (l.off64 ? 8 : 4));
	l.perm_at = l.arc_at + ALIGN64(g->m * (l.arc64 ? 8 : 4));
	l.n2o_at = l.perm_at + ALIGN64((uint64_t)g->n * 4);
	l.size = l.n2o_at + ALIGN64((uint64_t)g->n * 4);
	return l;
}

size_t sssp_cpu_packed_size_opt(const struct sssp_graph *g, const struct sssp_cpu_options *o)
{
	(void)o;
	return (size_t)pack_layout(g).size;
}

size_t sssp_cpu_packed_size(const struct sssp_graph *g)
{
	return sssp_cpu_packed_size_opt(g, NULL);
}

/* Renumber by decreasing in-degree (stable: ties keep their order) when the 1/16 of vertices with
 * the most in-arcs receive at least a third of all arcs, or when forced. Uses the offsets' area as
 * a histogram of in-degrees and the new2old area for the in-degrees: no allocation. On return
 * old2new / new2old hold the permutation (when it returns 1). */
static int renumber(const struct sssp_graph *g, int force, uint32_t *hist, uint32_t *o2n, uint32_t *n2o)
{
	uint32_t n = g->n;
	if (force < 0 || n < 2)
		return 0;
	uint32_t *indeg = n2o, maxdeg = 0;
	memset(indeg, 0, (size_t)n * 4);
	for (uint64_t e = 0; e < g->m; e++)
		indeg[g->col[e]]++;
	memset(hist, 0, ((size_t)n + 1) * 4); /* in-degrees are below n: no parallel arcs */
	for (uint32_t v = 0; v < n; v++)
	{
		hist[indeg[v]]++;
		maxdeg = indeg[v] > maxdeg ? indeg[v] : maxdeg;
	}
	if (!force)
	{
		uint64_t want = n / 16, took = 0, arcs = 0;
		for (uint32_t k = maxdeg; k > 0 && took < want; k--)
		{
			uint64_t c = hist[k] < want - took ? hist[k] : want - took;
			took += c;
			arcs += c * k;
		}
		if (want == 0 || arcs * 3 < g->m)
			return 0;
	}
	/* counting sort, largest in-degree first */
	uint32_t pos = 0;
	for (uint64_t k = (uint64_t)maxdeg + 1; k-- > 0;)
	{
		uint32_t c = hist[k];
		hist[k] = pos;
		pos += c;
	}
	for (uint32_t v = 0; v < n; v++)
		o2n[v] = hist[indeg[v]]++;
	for (uint32_t v = 0; v < n; v++)
		n2o[o2n[v]] = v;
	return 1;
}

/* Dial's bucket width, 2^shift: the widest that at most 1/32 of the arcs are lighter than, and no
 * narrower than keeps the buckets below DIAL_MAX_BUCKETS (zero weights and a few huge ones). Within a
 * bucket a light arc may lower a vertex relaxed already, which is then relaxed again; with few light
 * arcs that is rare, and wide buckets make long pipelined streams where weights are large. Weights
 * 1..10: width 1, exact Dial; 1..1,000,000: width 2^14. */
static uint32_t pick_shift(const struct sssp_graph *g)
{
	uint64_t hist[33] = { 0 }, light = 0;
	uint32_t k = 0, kmin = 0;
	while ((g->max_w >> kmin) >= DIAL_MAX_BUCKETS - 1) /* and few enough buckets */
		kmin++;
	for (uint64_t e = 0; e < g->m; e++)
		hist[bits_for(g->w[e])]++;
	for (uint32_t j = 0; j <= 20; j++)
	{
		light += hist[j]; /* the arcs lighter than 2^j */
		if (light * 32 > g->m)
			break;
		k = j;
	}
	return k > kmin ? k : kmin;
}

static void off_put(void *off, uint32_t v, uint64_t x, int off64)
{
	if (off64)
		((uint64_t *)off)[v] = x;
	else
		((uint32_t *)off)[v] = (uint32_t)x;
}

static void arc_put(uint32_t *arcs, uint64_t a, uint32_t t, uint32_t w, const struct packed_hdr *h)
{
	if (h->arc64)
	{
		arcs[2 * a] = t;
		arcs[2 * a + 1] = w;
	}
	else
		arcs[a] = (t << h->wbits) | w;
}

void sssp_cpu_pack_opt(const struct sssp_graph *g, const struct sssp_cpu_options *o, void *buf)
{
	struct layout l = pack_layout(g);
	struct packed_hdr *h = buf;
	char *base = buf;
	memset(h, 0, sizeof(*h));
	h->magic = PACK_MAGIC;
	h->m = g->m;
	h->n = g->n;
	h->max_w = g->max_w;
	h->off_at = l.off_at;
	h->arc_at = l.arc_at;
	h->perm_at = l.perm_at;
	h->off64 = (uint8_t)l.off64;
	h->arc64 = (uint8_t)l.arc64;
	h->wbits = (uint8_t)bits_for(g->max_w);
	enum sssp_cpu_queue q = o && o->queue == SSSP_CPU_QUEUE_RADIX ? SSSP_CPU_QUEUE_RADIX : SSSP_CPU_QUEUE_DIAL;
	h->queue = (uint8_t)q;
	if (q == SSSP_CPU_QUEUE_DIAL)
	{
		uint32_t k = 0;
		if (o && o->delta)
			while (k < 20 && (2u << k) <= o->delta)
				k++;
		else
			k = pick_shift(g);
		h->shift = (uint8_t)k;
		uint32_t b = 1, top = (uint32_t)((((uint64_t)1 << k) - 1 + g->max_w) >> k);
		while (b <= top)
			b <<= 1;
		h->nbuckets = b;
	}
	else
		h->nbuckets = RADIX_BUCKETS;
	h->plain = o && o->plain;
	h->spare16 = (uint8_t)(o && o->spare16 ? (o->spare16 < 255 ? o->spare16 : 255) : 8);
	uint32_t *o2n = (uint32_t *)(base + l.perm_at), *n2o = (uint32_t *)(base + l.n2o_at);
	h->relabel = (uint8_t)renumber(g, o ? o->relabel : 0, (uint32_t *)(base + l.off_at), o2n, n2o);
	/* offsets in the new numbering, then the arcs */
	uint64_t a = 0;
	for (uint32_t i = 0; i < g->n; i++)
	{
		uint32_t u = h->relabel ? n2o[i] : i;
		off_put(base + l.off_at, i, a, h->off64);
		a += g->rowptr[u + 1] - g->rowptr[u];
	}
	off_put(base + l.off_at, g->n, a, h->off64);
	/* each list in its original order (sorting renumbered lists by their new targets costs a sort
	 * per list and gains no locality the renumbering has not given) */
	uint32_t *arcs = (uint32_t *)(base + l.arc_at);
	a = 0;
	for (uint32_t i = 0; i < g->n; i++)
	{
		uint32_t u = h->relabel ? n2o[i] : i;
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++, a++)
			arc_put(arcs, a, h->relabel ? o2n[g->col[e]] : g->col[e], g->w[e], h);
	}
}

void sssp_cpu_pack(const struct sssp_graph *g, void *buf)
{
	sssp_cpu_pack_opt(g, NULL, buf);
}

enum sssp_cpu_queue sssp_cpu_packed_queue(const void *packed)
{
	return (enum sssp_cpu_queue)((const struct packed_hdr *)packed)->queue;
}

int sssp_cpu_packed_renumbered(const void *packed)
{
	return ((const struct packed_hdr *)packed)->relabel;
}

/* ------------------------------------------------------------------ workspace */

/* Chunks: n entries, a partial chunk per list, one more, and the spare (spare16/16 n entries). */
static uint64_t pool_chunks(const struct packed_hdr *h)
{
	uint64_t per = CHUNK_SLOTS / (h->queue == SSSP_CPU_QUEUE_DIAL && !h->shift ? 1 : 2);
	uint64_t live = ((uint64_t)h->n + per - 1) / per;
	uint64_t spare = ((uint64_t)h->n * h->spare16 / 16 + per - 1) / per;
	return live + (h->nbuckets + 1) + 2 + spare;
}

struct ws_layout
{
	uint64_t bits_at, done_at, dist_at, next_at, slots_at, size;
};

/* lists, bucket bitmap, settled bitmap, own distances (renumbered), next[], slots */
static struct ws_layout ws_layout(const struct packed_hdr *h)
{
	struct ws_layout w;
	uint64_t nlists = (uint64_t)h->nbuckets + 1, nch = pool_chunks(h);
	w.bits_at = ALIGN64(nlists * sizeof(struct list));
	w.done_at = w.bits_at + ALIGN64((nlists + 63) / 64 * 8);
	w.dist_at = w.done_at + ALIGN64(((uint64_t)h->n + 63) / 64 * 8);
	w.next_at = w.dist_at + (h->relabel ? ALIGN64((uint64_t)h->n * 4) : 0);
	w.slots_at = w.next_at + ALIGN64(nch * 4);
	w.size = w.slots_at + nch * CHUNK_SLOTS * 4;
	return w;
}

size_t sssp_cpu_workspace_size(const void *packed)
{
	return (size_t)ws_layout(packed).size;
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

static inline int bit_get(const uint64_t *bits, uint32_t i)
{
	return (bits[i / 64] >> (i % 64)) & 1;
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

/* ------------------------------------------------------------------ reading the packed graph */

static inline uint64_t off_get(const void *off, uint32_t v, const int off64)
{
	return off64 ? ((const uint64_t *)off)[v] : ((const uint32_t *)off)[v];
}

static inline const void *off_addr(const void *off, uint32_t v, const int off64)
{
	return off64 ? (const void *)((const uint64_t *)off + v) : (const void *)((const uint32_t *)off + v);
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

/* ------------------------------------------------------------------ settling */

/* How a bucket's entries look and are settled. */
enum mode
{
	MODE_DIAL = 0,  /* Dial, width 1: entries are vertices, all at the bucket's distance */
	MODE_RADIX = 1, /* radix heap bucket 0: (key, vertex), all keys equal to the last minimum */
	MODE_DELTA = 2, /* Dial, width 2^shift: (key, vertex), keys differ, label-correcting */
};

/* dist[t] = min(dist[t], d + w), saturated at LAST_DIST; push t when it dropped. A settled t
 * needs no test of its own: its distance is at most d. */
static inline __attribute__((always_inline)) void relax(struct run *r, uint32_t t, uint32_t d, uint32_t w,
							 const int mode, const int sat)
{
	uint32_t nd = d + w;
	if (sat && (nd < d || nd > LAST_DIST))
		nd = LAST_DIST;
	if (nd >= r->dist[t])
		return;
	r->dist[t] = nd;
	if (mode == MODE_RADIX)
	{
		uint32_t x = nd ^ r->cur;
		push2(r, x ? 32u - (uint32_t)__builtin_clz(x) : 0u, nd, t);
	}
	else if (mode == MODE_DELTA)
		push2(r, (nd >> r->h->shift) & r->mask, nd, t);
	else
		push1(r, nd & r->mask, t);
}

#define PIPE_K 16   /* entries ahead whose arc offsets are prefetched */
#define PIPE_L 16   /* arc lists in flight: prefetched, then their targets' distances, then relaxed */
#define PIPE_L2 8   /* of which the last PIPE_L2 have their targets' distances prefetched */
#define PF_AHEAD 16 /* in a long arc list: arcs ahead whose target's distance is prefetched */
#define RING 32     /* > PIPE_L, power of two */

/* Copy the first chunk of list li into vertices vs[] and (two-slot entries) keys ks[]; returns
 * how many entries. */
static inline uint32_t stream_load(struct run *r, uint32_t li, uint32_t *vs, uint32_t *ks, const int mode)
{
	if (mode == MODE_DIAL)
		return list_pop_chunk(r, li, vs);
	uint32_t tmp[CHUNK_SLOTS];
	uint32_t k = list_pop_chunk(r, li, tmp);
	for (uint32_t j = 0; j < k; j += 2)
	{
		ks[j / 2] = tmp[j];
		vs[j / 2] = tmp[j + 1];
	}
	return k / 2;
}

/* The vertex @p ahead entries into list li (for prefetching); 0 when there is none. */
static inline int stream_peek(const struct run *r, uint32_t li, uint32_t ahead, const int mode, uint32_t *v)
{
	const struct list *l = &r->lists[li];
	if (l->first == NIL)
		return 0;
	uint32_t cnt = l->first == l->last ? l->fill : CHUNK_SLOTS;
	uint32_t at = mode != MODE_DIAL ? 2 * ahead + 1 : ahead;
	if (at >= cnt)
		return 0;
	*v = r->slots[(uint64_t)l->first * CHUNK_SLOTS + at];
	return 1;
}

/* Settle every entry of list li (the detached bucket) and relax its arcs, as the pipeline of the
 * opening comment; or, when plain, one entry at a time. MODE_DIAL and MODE_RADIX: every entry is
 * at distance d and a stale one is a settled vertex (the bitmap). MODE_DELTA: each entry has its
 * own key, stale when the vertex's distance is no longer the key; a vertex may be relaxed again
 * from the same bucket if a light arc lowers it (the summary is then taken from dist[] at the end). */
static inline __attribute__((always_inline)) void settle_stream(struct run *r, uint32_t li, uint32_t d,
								 const int mode, const int off64, const int arc64)
{
	uint64_t *done = r->done;
	uint32_t *dist = r->dist;
	const void *off = r->off, *arcs = r->arcs;
	const uint32_t wbits = r->h->wbits, satfrom = LAST_DIST - r->h->max_w;
	uint32_t vs[CHUNK_SLOTS], ks[CHUNK_SLOTS / 2];
	uint32_t nset = 0;
	if (r->h->plain)
	{
		while (r->lists[li].first != NIL)
		{
			uint32_t k = stream_load(r, li, vs, ks, mode);
			for (uint32_t i = 0; i < k; i++)
			{
				uint32_t v = vs[i], dv = d;
				if (mode == MODE_DELTA)
				{
					dv = ks[i];
					if (dist[v] != dv)
						continue;
				}
				else
				{
					if (bit_get(done, v))
						continue;
					bit_set(done, v);
					nset++;
				}
				int sat = dv > satfrom;
				uint64_t e = off_get(off, v + 1, off64);
				for (uint64_t a = off_get(off, v, off64); a < e; a++)
				{
					uint32_t t, w;
					arc_get(arcs, a, arc64, wbits, &t, &w);
					relax(r, t, dv, w, mode, sat);
				}
			}
		}
		goto out;
	}
	uint64_t rb[RING], re[RING];
	uint32_t rd[RING];
	uint32_t cnt = stream_load(r, li, vs, ks, mode), i = 0;
	uint32_t head = 0, s3 = 0, s4 = 0; /* arc lists: produced, targets prefetched, relaxed */
	int more = 1;
	for (uint32_t j = 0; j < PIPE_K && j < cnt; j++)
	{
		__builtin_prefetch(off_addr(off, vs[j], off64));
		if (mode == MODE_DELTA)
			__builtin_prefetch(&dist[vs[j]]);
	}
	for (;;)
	{
		/* settle entries until PIPE_L arc lists are in flight */
		while (more && head - s4 < PIPE_L)
		{
			if (i == cnt)
			{
				if (r->lists[li].first == NIL)
				{
					more = 0;
					break;
				}
				cnt = stream_load(r, li, vs, ks, mode);
				i = 0;
			}
			uint32_t pv = vs[i];
			if (i + PIPE_K < cnt)
				pv = vs[i + PIPE_K];
			else
				stream_peek(r, li, i + PIPE_K - cnt, mode, &pv);
			__builtin_prefetch(off_addr(off, pv, off64));
			uint32_t dv = d;
			if (mode == MODE_DELTA)
			{
				__builtin_prefetch(&dist[pv]);
				dv = ks[i];
				if (dist[vs[i]] != dv)
				{
					i++;
					continue; /* stale */
				}
			}
			uint32_t v = vs[i++];
			if (mode != MODE_DELTA)
			{
				if (bit_get(done, v))
					continue; /* stale */
				bit_set(done, v);
				nset++;
			}
			uint64_t b = off_get(off, v, off64), e = off_get(off, v + 1, off64);
			if (b == e)
				continue;
			__builtin_prefetch(arc_addr(arcs, b, arc64));
			__builtin_prefetch(arc_addr(arcs, e - 1, arc64));
			rb[head % RING] = b;
			re[head % RING] = e;
			rd[head % RING] = dv;
			head++;
		}
		if (s4 == head)
			break;
		/* the targets' distances of the lists PIPE_L2 ahead (the first PF_AHEAD arcs of each) */
		for (; s3 != head && s3 - s4 < PIPE_L2; s3++)
		{
			uint64_t b = rb[s3 % RING], e = re[s3 % RING];
			uint64_t lim = e - b > PF_AHEAD ? b + PF_AHEAD : e;
			for (uint64_t a = b; a < lim; a++)
			{
				uint32_t t, w;
				arc_get(arcs, a, arc64, wbits, &t, &w);
				__builtin_prefetch(&dist[t]);
			}
		}
		/* relax the oldest list */
		uint64_t e = re[s4 % RING];
		uint32_t dv = rd[s4 % RING];
		int sat = dv > satfrom;
		for (uint64_t a = rb[s4 % RING]; a < e; a++)
		{
			uint32_t t, w;
			if (a + PF_AHEAD < e)
			{
				arc_get(arcs, a + PF_AHEAD, arc64, wbits, &t, &w);
				__builtin_prefetch(&dist[t]);
			}
			arc_get(arcs, a, arc64, wbits, &t, &w);
			relax(r, t, dv, w, mode, sat);
		}
		s4++;
	}
out:
	r->reached += nset;
	r->sum += (uint64_t)nset * d;
	if (nset)
	{
		r->ecc = d;
		sssp_harm_add_times(&r->harm, sssp_harm_term(d), nset); /* one division per distance */
	}
}

/* ------------------------------------------------------------------ the queues */

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

/* Dial's buckets; r->cur is the index (distance >> shift) of the bucket being settled. */
static inline __attribute__((always_inline)) void run_dial(struct run *r, const int mode, const int off64,
							    const int arc64)
{
	const uint32_t det = r->nlists - 1, nwords = (r->h->nbuckets + 63) / 64;
	for (;;)
	{
		uint32_t b0 = r->cur & r->mask, b;
		if (!find_next(r->bits, nwords, b0, &b))
			break;
		/* arcs lighter than a bucket may refill bucket b while it is settled: the next round
		 * finds it again */
		r->cur += (b - b0) & r->mask;
		list_detach(r, b, det);
		settle_stream(r, det, r->cur, mode, off64, arc64);
	}
}

static inline __attribute__((always_inline)) void run_radix(struct run *r, const int off64, const int arc64)
{
	const uint32_t det = r->nlists - 1;
	uint32_t buf[CHUNK_SLOTS];
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
			/* every key of bucket i now belongs to a lower bucket */
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
		settle_stream(r, det, r->cur, MODE_RADIX, off64, arc64);
	}
}

#define DISPATCH(call3)                                                                                          \
	switch (h->off64 * 2 + h->arc64)                                                                         \
	{                                                                                                        \
	case 0: call3(0, 0); break;                                                                              \
	case 1: call3(0, 1); break;                                                                              \
	case 2: call3(1, 0); break;                                                                              \
	default: call3(1, 1); break;                                                                             \
	}
#define RUN_DIAL(o, a) run_dial(&r, MODE_DIAL, o, a)
#define RUN_DELTA(o, a) run_dial(&r, MODE_DELTA, o, a)
#define RUN_RADIX(o, a) run_radix(&r, o, a)

void sssp_cpu_run(const void *packed, uint32_t src, uint32_t *dist, void *work, struct sssp_summary *out)
{
	const struct packed_hdr *h = packed;
	struct ws_layout wl = ws_layout(h);
	char *ws = work;
	const uint32_t *o2n = (const uint32_t *)((const char *)packed + h->perm_at);
	struct run r = {
		.h = h,
		.off = (const char *)packed + h->off_at,
		.arcs = (const char *)packed + h->arc_at,
		.dist = h->relabel ? (uint32_t *)(ws + wl.dist_at) : dist,
		.lists = (struct list *)ws,
		.bits = (uint64_t *)(ws + wl.bits_at),
		.done = (uint64_t *)(ws + wl.done_at),
		.next = (uint32_t *)(ws + wl.next_at),
		.slots = (uint32_t *)(ws + wl.slots_at),
		.nlists = h->nbuckets + 1,
		.esize = h->queue == SSSP_CPU_QUEUE_DIAL && !h->shift ? 1 : 2,
		.mask = h->nbuckets - 1,
	};
	for (uint32_t i = 0; i < r.nlists; i++)
		list_empty(&r.lists[i]);
	memset(r.bits, 0, (r.nlists + 63) / 64 * 8);
	memset(r.done, 0, ((size_t)h->n + 63) / 64 * 8);
	uint64_t nch = pool_chunks(h);
	for (uint64_t c = 0; c < nch; c++) /* every chunk free, in order */
		r.next[c] = c + 1 < nch ? (uint32_t)(c + 1) : NIL;
	r.free = 0;
	memset(r.dist, 0xff, (size_t)h->n * sizeof(uint32_t));
	uint32_t s = h->relabel ? o2n[src] : src;
	r.dist[s] = 0;
	if (h->queue == SSSP_CPU_QUEUE_RADIX)
	{
		push2(&r, 0, 0, s);
		DISPATCH(RUN_RADIX);
	}
	else if (h->shift)
	{
		push2(&r, 0, 0, s);
		DISPATCH(RUN_DELTA);
		/* a vertex may have been relaxed more than once: summarise the final distances */
		sssp_summarize(r.dist, h->n, src, out);
		r.sum = out->sum;
		r.ecc = out->ecc;
		r.reached = out->reached;
	}
	else
	{
		push1(&r, 0, s);
		DISPATCH(RUN_DIAL);
	}
	if (h->relabel) /* back to the caller's numbering */
		for (uint32_t v = 0; v < h->n; v++)
			dist[v] = r.dist[o2n[v]];
	out->source = src;
	out->sum = r.sum;
	out->ecc = r.ecc;
	out->reached = r.reached;
	out->phases = 0;
	out->overflow = r.ecc >= SSSP_DIST_LIMIT;
	if (!(h->queue != SSSP_CPU_QUEUE_RADIX && h->shift)) /* the delta mode's came with the summary */
		out->harmonic = sssp_harm_value(r.harm);
}
