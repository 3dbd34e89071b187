/* The contraction hierarchy builder (see ch.h for the algorithm and the layout).
 *
 * Parameters: witness searches settle at most CH_SIM_SETTLED vertices when estimating a
 * priority and CH_REAL_SETTLED when contracting, and scan no hub's whole list where a shorter
 * way answers them (CH_BACK_ARCS, witness()); priority = 2 * edge difference + contracted
 * neighbours + level. A round of the build, on a pool of threads:
 *   1. select: every remaining vertex whose (priority, hash of id) is below all its
 *      remaining neighbours' joins the independent set I;
 *   2. shortcuts: each x of I runs witness searches from its in-neighbours (read only);
 *   3. apply: thread t owns the vertices with (v / 16) % T == t and applies, in the order of
 *      I, every change to its vertices' lists (x removed, shortcuts merged, levels and
 *      contracted-neighbour counts raised), so the result does not depend on T;
 *   4. priorities of the neighbours of I are estimated again.
 * The lists of a contracted vertex are frozen: they are its arcs in the hierarchy. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sssp_env.h"
#include "phast/ch_internal.h"
#include "phast/pool.h"
#include "sssp.h"

#define CH_SIM_SETTLED 50
#define CH_REAL_SETTLED 1000
#define CH_SIM_HOPS 254
#define CH_DENSE 4.0     /* dense_core: a core this many times the input's average degree ... */
#define CH_DENSE_MIN 1024 /* ... with more vertices than this, and n / 16, is not contracted */
#define CH_DENSE_PAIRS 8.0 /* nor are vertices with this x CH_DENSE x n x (d0 + 1) in x out pairs */
#define CH_DENSE_PAIRS_MIN 4e6 /* (when there are more than this: smaller ones take seconds at most) */
#define CH_DENSE_SCANS 1024.0  /* before the first round, also first_scans() above this x CH_DENSE x n */
#define CH_BACK_ARCS 1024 /* a hub: more arcs; searched from, when this many times ... */
#define CH_BACK_RATIO 64  /* ... the targets: the searches run back from each target */
#define CH_DEFER_PAIRS 4e6     /* a vertex with more in x out pairs waits: its priority is not computed */
#define CH_DEFERRED (INT64_MAX / 4) /* the priority of a vertex that waits */
#define CH_STALE_LEN 64 /* job_apply drops contracted vertices from longer lists in one pass (unlink_arc) */
/* Shortcut weights stay below SSSP_INF, like the distances of sssp_dijkstra. */
#define CH_WMAX (SSSP_INF - 1)

enum
{
	REMAINING = 0,
	SELECTED = 1,
	CONTRACTED = 2
};

/* build.dirty's bits */
enum
{
	DIRTY = 1,     /* the vertex's priority is estimated again after this round */
	STALE_OUT = 2, /* its out list still holds vertices contracted this round (unlink_arc) */
	STALE_IN = 4
};

/* ================================================================ the graph being contracted */

struct darc
{
	uint32_t v, w, mid;
};

struct dlist
{
	struct darc *a;
	uint32_t len, cap;
};

static int dlist_push(struct dlist *l, uint32_t v, uint32_t w, uint32_t mid)
{
	if (l->len == l->cap)
	{
		uint32_t cap = l->cap ? 2 * l->cap : 4;
		struct darc *a = realloc(l->a, (size_t)cap * sizeof *a);
		if (!a)
			return -ENOMEM;
		l->a = a;
		l->cap = cap;
	}
	l->a[l->len++] = (struct darc){ v, w, mid };
	return 0;
}

/* The arc to v, or NULL (a linear search: the lists are not sorted once shortcuts join them). */
static struct darc *dlist_find(const struct dlist *l, uint32_t v)
{
	for (uint32_t i = 0; i < l->len; i++)
		if (l->a[i].v == v)
			return &l->a[i];
	return NULL;
}

/* Arc to v with weight w: a new arc, or a lighter weight for the existing one. */
static int dlist_merge(struct dlist *l, uint32_t v, uint32_t w, uint32_t mid)
{
	struct darc *a = dlist_find(l, v);
	if (!a)
		return dlist_push(l, v, w, mid);
	if (w < a->w)
	{
		a->w = w;
		a->mid = mid;
	}
	return 0;
}

/* Arcs by head, then by weight (a list's heads are distinct, but for an input row's parallel arcs). */
static int cmp_darc(const void *a, const void *b)
{
	const struct darc *x = a, *y = b;
	return x->v != y->v ? (x->v < y->v ? -1 : 1) : (x->w > y->w) - (x->w < y->w);
}

/* The list sorted by head, each head's lightest arc kept (dlist_merge over the whole list). */
static void in_order(struct dlist *l)
{
	qsort(l->a, l->len, sizeof *l->a, cmp_darc);
	uint32_t k = 0;
	for (uint32_t i = 0; i < l->len; i++)
		if (!k || l->a[i].v != l->a[k - 1].v)
			l->a[k++] = l->a[i];
	l->len = k;
}

static void dlist_remove(struct dlist *l, uint32_t v)
{
	struct darc *a = dlist_find(l, v);
	if (a)
		*a = l->a[--l->len];
}

struct shortcut
{
	uint32_t u, w, len;
};

struct label
{
	uint64_t key;   /* distance << 1 | flag */
	uint32_t stamp; /* == the search's number: key is valid */
	uint32_t hops;  /* arcs on the path of the key */
};

struct hitem
{
	uint64_t k;
	uint32_t v;
};

/* One thread's scratch: witness search state, the shortcuts it found this round, the
 * vertices it owns whose priority must be estimated again. */
struct worker
{
	struct label *lab; /* per vertex: key, stamp and hops together (one cache line per relaxation) */
	uint32_t *target; /* == tcur: a target of the current searches */
	uint32_t cur, tcur;
	struct hitem *heap;
	size_t hlen, hcap;
	struct shortcut *sc;
	size_t sclen, sccap;
	uint32_t *dirty;
	size_t dlen, dcap;
	uint64_t settled; /* statistics */
};

struct build
{
	uint32_t n;
	unsigned T;   /* threads running */
	unsigned nwk; /* workers allocated */
	struct dlist *out, *in;
	uint8_t *state, *dirty;
	uint32_t *level, *cn;
	int64_t *prio;
	uint32_t *rem, nrem;
	uint32_t *sel, nsel;
	uint8_t *is_min;
	uint32_t *sc_thread;
	size_t *sc_off, *sc_cnt;
	struct worker *wk;
	unsigned sim_settled, real_settled, sim_hops;
	int failed;
	int no_waiting; /* the guard is off and only waiting vertices remain: they are evaluated */
};

static inline uint32_t owner(const struct build *b, uint32_t v)
{
	return (v >> 4) % b->T;
}

static inline uint32_t vhash(uint32_t v)
{
	uint64_t x = v * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

static void fail(struct build *b, int rc)
{
	__atomic_store_n(&b->failed, rc, __ATOMIC_RELAXED);
}

static int heap_push(struct worker *w, uint64_t k, uint32_t v)
{
	if (w->hlen == w->hcap)
	{
		size_t cap = w->hcap ? 2 * w->hcap : 256;
		struct hitem *h = realloc(w->heap, cap * sizeof *h);
		if (!h)
			return -ENOMEM;
		w->heap = h;
		w->hcap = cap;
	}
	size_t i = w->hlen++;
	while (i > 0 && w->heap[(i - 1) / 2].k > k)
	{
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = (struct hitem){ k, v };
	return 0;
}

static struct hitem heap_pop(struct worker *w)
{
	struct hitem top = w->heap[0], last = w->heap[--w->hlen];
	size_t i = 0, len = w->hlen;
	for (;;)
	{
		size_t c = 2 * i + 1;
		if (c >= len)
			break;
		if (c + 1 < len && w->heap[c + 1].k < w->heap[c].k)
			c++;
		if (w->heap[c].k >= last.k)
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (len)
		w->heap[i] = last;
	return top;
}

/* Relax arc y -> z of weight w (or z -> y, searching backwards) from key k at hops h. */
static inline int relax(const struct build *b, struct worker *wk, uint64_t k, uint32_t h, uint32_t z, uint32_t w,
			int flags)
{
	uint64_t nk = k + ((uint64_t)w << 1);
	if (flags && b->state[z] == SELECTED)
		nk |= 1;
	struct label *lz = &wk->lab[z];
	if (lz->stamp != wk->cur || nk < lz->key)
	{
		*lz = (struct label){ nk, wk->cur, h };
		return heap_push(wk, nk, z);
	}
	return 0;
}

/* Witness search: Dijkstra from s in the remaining graph without x, along @p adj (b->out: paths
 * from s; b->in: paths to s, backwards), keys dist << 1 | flag, flag = the path passes through a
 * vertex selected in this round (only when @p flags; the ends of a witness, x's neighbours, never
 * are): lexicographic (distance, flag) is monotone, so Dijkstra gives the least key. Stops when
 * the next key exceeds maxkey, after @p limit settled vertices, or once its @p targets (the heads
 * of @p tl, marked in wk->target when @p stop is NO_STOP, else stop alone) are settled; key/stamp
 * then hold upper bounds of real paths. A vertex of more than CH_BACK_ARCS arcs (a hub) reached on
 * the way relaxes only its arcs to the targets, found in their own lists when those are shorter:
 * a witness through a hub then ends at a target, which keeps the keys upper bounds. */
#define NO_STOP UINT32_MAX
static void witness(struct build *b, struct worker *wk, const struct dlist *adj, uint32_t s, uint32_t x,
		    uint64_t maxkey, unsigned limit, unsigned maxhops, int flags, const struct dlist *tl, uint32_t targets,
		    uint32_t stop)
{
	if (++wk->cur == 0)
	{
		for (uint32_t v = 0; v < b->n; v++)
			wk->lab[v].stamp = 0;
		wk->cur = 1;
	}
	const struct dlist *radj = adj == b->out ? b->in : b->out;
	wk->hlen = 0;
	wk->lab[s] = (struct label){ 0, wk->cur, 0 };
	if (heap_push(wk, 0, s) < 0)
	{
		fail(b, -ENOMEM);
		return;
	}
	unsigned settled = 0;
	while (wk->hlen)
	{
		struct hitem it = heap_pop(wk);
		uint32_t y = it.v;
		if (it.k != wk->lab[y].key)
			continue;
		if (it.k > maxkey || ++settled > limit)
			break;
		/* every target settled: their keys are final */
		if ((stop == NO_STOP ? wk->target[y] == wk->tcur : y == stop) && y != s && --targets == 0)
			break;
		if (wk->lab[y].hops >= maxhops)
			continue;
		uint32_t h = wk->lab[y].hops + 1;
		const struct dlist *l = &adj[y];
		int rc = 0, hub = y != s && l->len > CH_BACK_ARCS;
		if (hub)
		{
			/* the targets' own lists, if they are shorter in all than the hub's */
			uint64_t other = 0;
			for (uint32_t j = 0; j < tl->len; j++)
				other += tl->a[j].v == y ? 0 : radj[tl->a[j].v].len;
			hub = other < l->len;
		}
		if (hub)
			for (uint32_t j = 0; j < tl->len && rc == 0; j++)
			{
				uint32_t t = tl->a[j].v;
				const struct darc *a = t == y ? NULL : dlist_find(&radj[t], y);
				if (a)
					rc = relax(b, wk, it.k, h, t, a->w, flags);
			}
		else
			for (uint32_t i = 0; i < l->len && rc == 0; i++)
				if (l->a[i].v != x)
					rc = relax(b, wk, it.k, h, l->a[i].v, l->a[i].w, flags);
		if (rc < 0)
		{
			fail(b, -ENOMEM);
			return;
		}
	}
	wk->settled += settled;
}

/* The shortcuts that contracting x needs now: counted, and kept in wk->sc when @p real. */
static uint64_t contract(struct build *b, struct worker *wk, uint32_t x, int real)
{
	const struct dlist *in = &b->in[x], *out = &b->out[x];
	uint64_t count = 0;
	uint32_t maxout = 0;
	if (++wk->tcur == 0)
	{
		memset(wk->target, 0, (size_t)b->n * sizeof *wk->target);
		wk->tcur = 1;
	}
	for (uint32_t j = 0; j < out->len; j++)
	{
		wk->target[out->a[j].v] = wk->tcur;
		if (out->a[j].w > maxout)
			maxout = out->a[j].w;
	}
	unsigned limit = real ? b->real_settled : b->sim_settled, hops = real ? 255 : b->sim_hops;
	for (uint32_t i = 0; i < in->len; i++)
	{
		uint32_t u = in->a[i].v, wu = in->a[i].w;
		uint32_t targets = out->len - (wk->target[u] == wk->tcur);
		if (targets == 0)
			continue;
		/* from a hub, one search scans its whole list: search back from each target instead */
		int back = b->out[u].len > CH_BACK_ARCS && (uint64_t)targets * CH_BACK_RATIO < b->out[u].len;
		struct darc ua = { u, 0, 0 };
		const struct dlist one = { &ua, 1, 1 };
		if (!back)
			witness(b, wk, b->out, u, x, ((uint64_t)wu + maxout) << 1, limit, hops, real, out, targets, NO_STOP);
		for (uint32_t j = 0; j < out->len; j++)
		{
			uint32_t w = out->a[j].v, end = w;
			if (w == u)
				continue;
			uint64_t len = (uint64_t)wu + out->a[j].w;
			if (back)
			{
				witness(b, wk, b->in, w, x, len << 1, limit, hops, real, &one, 1, u);
				end = u;
			}
			if (wk->lab[end].stamp == wk->cur && wk->lab[end].key <= len << 1)
				continue; /* witness */
			count++;
			if (!real)
				continue;
			if (wk->sclen == wk->sccap)
			{
				size_t cap = wk->sccap ? 2 * wk->sccap : 1024;
				struct shortcut *s = realloc(wk->sc, cap * sizeof *s);
				if (!s)
				{
					fail(b, -ENOMEM);
					return count;
				}
				wk->sc = s;
				wk->sccap = cap;
			}
			wk->sc[wk->sclen++] = (struct shortcut){ u, w, len < CH_WMAX ? (uint32_t)len : CH_WMAX };
		}
	}
	return count;
}

/* A vertex whose in x out shortcut candidates are more than CH_DEFER_PAIRS (a hub) waits: its witness
 * searches alone would cost more than a round of the rest, and contracting its neighbours first
 * shrinks it (a star's leaves go, and its hub is left with no arc at all). It is never selected while
 * it waits, and its priority is computed again whenever a neighbour is contracted. */
static int waits(const struct build *b, uint32_t x)
{
	return !b->no_waiting && (double)b->in[x].len * b->out[x].len > CH_DEFER_PAIRS;
}

static int64_t priority(struct build *b, struct worker *wk, uint32_t x)
{
	if (waits(b, x))
		return CH_DEFERRED;
	int64_t added = (int64_t)contract(b, wk, x, 0);
	int64_t removed = (int64_t)b->in[x].len + b->out[x].len;
	return 2 * (added - removed) + b->cn[x] + b->level[x];
}

/* ---------------------------------------------------------------- the phases of a round */

static void job_priority_all(struct sssp_pool *p, unsigned tid)
{
	struct build *b = p->ctx;
	uint64_t s, e;
	while (sssp_pool_chunk(p, 256, &s, &e))
		for (uint64_t i = s; i < e; i++)
			b->prio[i] = priority(b, &b->wk[tid], (uint32_t)i);
}

static void job_priority_rem(struct sssp_pool *p, unsigned tid)
{
	struct build *b = p->ctx;
	uint64_t s, e;
	while (sssp_pool_chunk(p, 256, &s, &e))
		for (uint64_t i = s; i < e; i++)
			b->prio[b->rem[i]] = priority(b, &b->wk[tid], b->rem[i]);
}

static inline int before(const struct build *b, uint32_t x, uint32_t y)
{
	if (b->prio[x] != b->prio[y])
		return b->prio[x] < b->prio[y];
	uint32_t hx = vhash(x), hy = vhash(y);
	return hx != hy ? hx < hy : x < y;
}

static void job_select(struct sssp_pool *p, unsigned tid)
{
	struct build *b = p->ctx;
	uint64_t s, e;
	while (sssp_pool_chunk(p, 1024, &s, &e))
		for (uint64_t i = s; i < e; i++)
		{
			uint32_t x = b->rem[i];
			int ok = b->prio[x] < CH_DEFERRED;
			for (uint32_t k = 0; ok && k < b->out[x].len; k++)
				ok = before(b, x, b->out[x].a[k].v);
			for (uint32_t k = 0; ok && k < b->in[x].len; k++)
				ok = before(b, x, b->in[x].a[k].v);
			b->is_min[i] = (uint8_t)ok;
		}
}

static void job_shortcuts(struct sssp_pool *p, unsigned tid)
{
	struct build *b = p->ctx;
	struct worker *wk = &b->wk[tid];
	uint64_t s, e;
	while (sssp_pool_chunk(p, 16, &s, &e))
		for (uint64_t i = s; i < e; i++)
		{
			size_t off = wk->sclen;
			contract(b, wk, b->sel[i], 1);
			b->sc_thread[i] = tid;
			b->sc_off[i] = off;
			b->sc_cnt[i] = wk->sclen - off;
		}
}

static void mark_dirty(struct build *b, struct worker *wk, uint32_t y)
{
	if (b->dirty[y] & DIRTY)
		return;
	b->dirty[y] |= DIRTY;
	if (wk->dlen == wk->dcap)
	{
		size_t cap = wk->dcap ? 2 * wk->dcap : 1024;
		uint32_t *d = realloc(wk->dirty, cap * sizeof *d);
		if (!d)
		{
			fail(b, -ENOMEM);
			return;
		}
		wk->dirty = d;
		wk->dcap = cap;
	}
	wk->dirty[wk->dlen++] = y;
}

/* x, being contracted, leaves y's list l. A short list loses it at once. A long one (a hub's, whose
 * neighbours are contracted by the thousand in one round) keeps it, flagged, until the end of
 * job_apply drops all of this round's contracted vertices in one pass: a hub with k contracted
 * neighbours then costs one pass over its list, not k searches of it (a star's leaves cost the square
 * of their number before: docs/apsp.md, "PHAST"). That pass keeps the order of the arcs it keeps; a
 * short list moves its last arc into x's place, as before, so graphs without long lists contract
 * exactly as they did. Only y's owner calls this, and no merge looks for x in the meantime: shortcuts
 * never join two vertices of I. */
static void unlink_arc(struct build *b, struct worker *wk, struct dlist *l, uint32_t y, uint32_t x, uint8_t stale)
{
	mark_dirty(b, wk, y);
	if (l->len <= CH_STALE_LEN)
		dlist_remove(l, x);
	else
		b->dirty[y] |= stale;
}

static void drop_selected(const struct build *b, struct dlist *l)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < l->len; i++)
		if (b->state[l->a[i].v] != SELECTED)
			l->a[k++] = l->a[i];
	l->len = k;
}

/* Every thread walks all of I in order and changes only the vertices it owns. */
static void job_apply(struct sssp_pool *p, unsigned tid)
{
	struct build *b = p->ctx;
	struct worker *wk = &b->wk[tid];
	for (uint32_t i = 0; i < b->nsel; i++)
	{
		uint32_t x = b->sel[i], lx = b->level[x] + 1;
		const struct dlist *in = &b->in[x], *out = &b->out[x];
		for (uint32_t k = 0; k < in->len; k++)
		{
			uint32_t u = in->a[k].v;
			if (owner(b, u) != tid)
				continue;
			unlink_arc(b, wk, &b->out[u], u, x, STALE_OUT);
			if (b->level[u] < lx)
				b->level[u] = lx;
			b->cn[u]++;
		}
		for (uint32_t k = 0; k < out->len; k++)
		{
			uint32_t w = out->a[k].v;
			if (owner(b, w) != tid)
				continue;
			unlink_arc(b, wk, &b->in[w], w, x, STALE_IN);
			if (b->level[w] < lx)
				b->level[w] = lx;
			/* a vertex both in- and out-neighbour counts once */
			int both = 0;
			for (uint32_t j = 0; j < in->len && !both; j++)
				both = in->a[j].v == w;
			if (!both)
				b->cn[w]++;
		}
		const struct shortcut *sc = b->wk[b->sc_thread[i]].sc + b->sc_off[i];
		for (size_t k = 0; k < b->sc_cnt[i]; k++)
		{
			if (owner(b, sc[k].u) == tid && dlist_merge(&b->out[sc[k].u], sc[k].w, sc[k].len, x) < 0)
				fail(b, -ENOMEM);
			if (owner(b, sc[k].w) == tid && dlist_merge(&b->in[sc[k].w], sc[k].u, sc[k].len, x) < 0)
				fail(b, -ENOMEM);
		}
	}
	/* every vertex this thread unlinked from is in its dirty list */
	for (size_t k = 0; k < wk->dlen; k++)
	{
		uint32_t y = wk->dirty[k];
		if (b->dirty[y] & STALE_OUT)
			drop_selected(b, &b->out[y]);
		if (b->dirty[y] & STALE_IN)
			drop_selected(b, &b->in[y]);
		b->dirty[y] &= DIRTY;
	}
}

/* The dirty vertices of all threads, as one sequence of items. */
static void job_reprioritise(struct sssp_pool *p, unsigned tid)
{
	struct build *b = p->ctx;
	uint64_t s, e;
	while (sssp_pool_chunk(p, 64, &s, &e))
		for (uint64_t i = s; i < e; i++)
		{
			uint64_t k = i;
			unsigned t = 0;
			while (k >= b->wk[t].dlen)
				k -= b->wk[t++].dlen;
			uint32_t y = b->wk[t].dirty[k];
			b->prio[y] = priority(b, &b->wk[tid], y);
		}
}

/* ---------------------------------------------------------------- the result */

/* Lay the frozen lists out by position. */
static struct sssp_ch *assemble(struct build *b)
{
	uint32_t n = b->n, levels = 0;
	uint64_t up = 0, down = 0;
	for (uint32_t v = 0; v < n; v++)
	{
		if (b->level[v] + 1 > levels)
			levels = b->level[v] + 1;
		up += b->out[v].len;
		down += b->in[v].len;
	}
	struct sssp_ch *ch = sssp_ch_alloc(n, levels, up, down);
	if (!ch)
		return NULL;
	/* counting sort by level, highest first, stable in the original ids */
	memset(ch->level_start, 0, ((size_t)levels + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++)
		ch->level_start[levels - b->level[v]]++;
	for (uint32_t l = 0; l < levels; l++)
		ch->level_start[l + 1] += ch->level_start[l];
	for (uint32_t v = 0; v < n; v++)
	{
		uint32_t p = ch->level_start[levels - 1 - b->level[v]]++;
		ch->pos[v] = p;
		ch->orig[p] = v;
	}
	for (uint32_t l = levels; l > 0; l--)
		ch->level_start[l] = ch->level_start[l - 1];
	ch->level_start[0] = 0;

	uint64_t nu = 0, nd = 0, shortcuts = 0;
	for (uint32_t p = 0; p < n; p++)
	{
		uint32_t v = ch->orig[p];
		ch->up_start[p] = nu;
		ch->down_start[p] = nd;
		for (int dir = 0; dir < 2; dir++)
		{
			struct dlist *l = dir ? &b->in[v] : &b->out[v];
			for (uint32_t k = 0; k < l->len; k++)
				l->a[k].v = ch->pos[l->a[k].v];
			if (l->len) /* an empty list may have no array at all */
				qsort(l->a, l->len, sizeof *l->a, cmp_darc);
			for (uint32_t k = 0; k < l->len; k++)
			{
				struct sssp_ch_arc a = { l->a[k].v, l->a[k].w };
				shortcuts += l->a[k].mid != NONE;
				if (dir)
				{
					ch->down[nd] = a;
					ch->down_mid[nd++] = l->a[k].mid;
				}
				else
				{
					ch->up[nu] = a;
					ch->up_mid[nu++] = l->a[k].mid;
				}
			}
		}
	}
	ch->up_start[n] = nu;
	ch->down_start[n] = nd;
	/* upin: the up arcs grouped by head, tails in increasing position */
	memset(ch->upin_start, 0, ((size_t)n + 1) * sizeof(uint64_t));
	for (uint64_t e = 0; e < up; e++)
		ch->upin_start[ch->up[e].v + 1]++;
	for (uint32_t p = 0; p < n; p++)
		ch->upin_start[p + 1] += ch->upin_start[p];
	for (uint32_t p = 0; p < n; p++)
		for (uint64_t e = ch->up_start[p]; e < ch->up_start[p + 1]; e++)
			ch->upin[ch->upin_start[ch->up[e].v]++] = (struct sssp_ch_arc){ p, ch->up[e].w };
	for (uint32_t p = n; p > 0; p--)
		ch->upin_start[p] = ch->upin_start[p - 1];
	ch->upin_start[0] = 0;

	ch->st.shortcuts = shortcuts;
	ch->st.up_arcs = up;
	ch->st.down_arcs = down;
	ch->st.levels = levels;
	return ch;
}

static void build_free(struct build *b)
{
	if (b->out)
		for (uint32_t v = 0; v < b->n; v++)
			free(b->out[v].a);
	if (b->in)
		for (uint32_t v = 0; v < b->n; v++)
			free(b->in[v].a);
	free(b->out);
	free(b->in);
	free(b->state);
	free(b->dirty);
	free(b->level);
	free(b->cn);
	free(b->prio);
	free(b->rem);
	free(b->sel);
	free(b->is_min);
	free(b->sc_thread);
	free(b->sc_off);
	free(b->sc_cnt);
	if (b->wk)
		for (unsigned t = 0; t < b->nwk; t++)
		{
			free(b->wk[t].lab);
			free(b->wk[t].target);
			free(b->wk[t].heap);
			free(b->wk[t].sc);
			free(b->wk[t].dirty);
		}
	free(b->wk);
}

/* The arcs the first priorities' witness searches scan, to first order: the search for vertex x
 * from its in-neighbour u scans the arcs of u's out-neighbours (x's own are its compares), so each
 * non-waiting x costs the sum of h(u) = sum(out-degree of u's out-neighbours) over its u that have
 * a shortcut candidate (x has another out-neighbour than u). A leaf (one neighbour) has none, and a
 * hub's leaves cost it its compares only; an R-MAT vertex's u reach hubs of thousands of arcs (an
 * upper estimate: witness() relaxes only a hub's arcs to the targets where that is shorter).
 * Negative when the h array cannot be allocated. */
static double first_scans(const struct build *b)
{
	uint64_t *h = malloc((size_t)b->n * sizeof *h);
	if (!h)
		return -1;
	for (uint32_t u = 0; u < b->n; u++)
	{
		h[u] = 0;
		for (uint32_t k = 0; k < b->out[u].len; k++)
			h[u] += b->out[b->out[u].a[k].v].len;
	}
	double scans = 0;
	for (uint32_t x = 0; x < b->n; x++)
		if (!waits(b, x))
			for (uint32_t k = 0; k < b->in[x].len; k++)
			{
				uint32_t u = b->in[x].a[k].v;
				const struct dlist *o = &b->out[x];
				if (o->len > 1 || (o->len == 1 && o->a[0].v != u)) /* else no pair needs a search */
					scans += (double)h[u];
			}
	free(h);
	return scans;
}

/* Road networks and grids contract from the periphery in: while many vertices remain, their average
 * degree stays near the input's. Graphs without that structure (random, R-MAT, social) grow a dense
 * core instead, and each round costs more than the last; R-MAT's hubs make vertices that each need
 * in x out shortcut candidates from the start. The build stops, with -EDOM, after the first round
 * (or before the first) that leaves either more than CH_DENSE_MIN vertices (and n / 16) at more
 * than CH_DENSE times the input's average out-degree d0 (and 16), or sum(in x out degree) of the
 * remaining vertices above CH_DENSE_PAIRS x CH_DENSE x n x (d0 + 1) and CH_DENSE_PAIRS_MIN. The
 * pairs are what the next round's priorities cost, so vertices that wait (hubs, waits()) do not
 * count: they are evaluated only once their neighbours are gone; a core made only of vertices that
 * wait cannot go on and counts as dense. Before the first round, the pairs refuse the graph only
 * when the first priorities' searches cost too (first_scans above CH_DENSE_SCANS x CH_DENSE x n): a
 * broom's hubs have as many pairs for their size as R-MAT's vertices, but their neighbours are
 * leaves, whose searches end at once. Hubs that stop waiting bring their pairs at once, and lose
 * them as their last neighbours go: pairs above the limit (and at most 16 times it: hubs of 2,000
 * or more leaves stop waiting at 4e6 pairs, at most 16 times the limit's share of their leaves)
 * that came with them (under the limit at the check before, fewer vertices waiting now) are given
 * rounds while they fall by a quarter a round. *was holds the previous check's pairs and waiting
 * vertices (pairs negative before the first round), updated. The thresholds and the profiles they
 * were set from (road-like, grids, random, R-MAT, hubs) are in docs/apsp.md (PHAST).
 * TUCCOMPI_CH_DENSE=X sets the factor; 0 turns the guard off (a core of waiting vertices is then
 * contracted all the same). */
struct dense_was
{
	double pairs;     /* negative before the first check */
	uint32_t waiting;
	int grace;        /* above the limit by hubs that stopped waiting: the pairs must fall */
};

static int dense_core(const struct build *b, double factor, double d0, double *deg, struct dense_was *was)
{
	if (!b->nrem)
		return 0;
	uint64_t arcs = 0;
	double pairs = 0;
	uint32_t waiting = 0;
	for (uint32_t i = 0; i < b->nrem; i++)
	{
		uint32_t v = b->rem[i];
		arcs += b->out[v].len;
		if (waits(b, v))
			waiting++;
		else
			pairs += (double)b->out[v].len * b->in[v].len;
	}
	*deg = (double)arcs / b->nrem;
	if (factor <= 0)
		return 0;
	if (waiting == b->nrem)
		return 1;
	double limit = CH_DENSE_PAIRS * factor * ((double)b->n * d0 + b->n);
	struct dense_was prev = *was;
	*was = (struct dense_was){ pairs, waiting, 0 };
	if (pairs > CH_DENSE_PAIRS_MIN && pairs > limit)
	{
		if (prev.pairs < 0)
		{
			/* before the first round: the pairs refuse the graph if its searches cost too */
			double scans = first_scans(b);
			if (scans < 0 || scans > CH_DENSE_SCANS * factor * b->n)
				return 1;
		}
		else
		{
			/* hubs stopped waiting, or their pairs keep falling: another round */
			int hubs_came = prev.pairs <= limit && waiting < prev.waiting && pairs <= 16 * limit;
			if (!hubs_came && !(prev.grace && pairs <= 0.75 * prev.pairs))
				return 1;
		}
		was->grace = 1;
	}
	return b->nrem > CH_DENSE_MIN && b->nrem > b->n / 16 && *deg > factor * d0 && *deg > 16;
}

int sssp_ch_build(const struct sssp_graph *g, unsigned nthreads, struct sssp_ch **out, struct sssp_ch_stats *st,
		  char *err, size_t errlen)
{
	double t0 = tuccompi_wtime();
	*out = NULL;
	uint32_t n = g->n;
	double dense;
	if (sssp_env_number("TUCCOMPI_CH_DENSE", CH_DENSE, 0, 1e9, &dense, err, errlen) < 0)
		return -EINVAL;
	if (n > INT32_MAX)
		return sssp_fail(err, errlen, -EINVAL, "contraction hierarchy: %" PRIu32 " vertices, at most %d supported", n,
			       INT32_MAX);
	if (nthreads == 0)
	{
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		nthreads = c > 0 ? (unsigned)c : 1;
	}
	if (nthreads > 1024)
		nthreads = 1024;
	struct build b = { .n = n, .T = nthreads, .nwk = nthreads, .sim_settled = CH_SIM_SETTLED,
			   .real_settled = CH_REAL_SETTLED, .sim_hops = CH_SIM_HOPS };
	int rc = -ENOMEM;
	size_t nn = (size_t)n + 1;
	b.out = calloc(nn, sizeof *b.out);
	b.in = calloc(nn, sizeof *b.in);
	b.state = calloc(nn, 1);
	b.dirty = calloc(nn, 1);
	b.level = calloc(nn, sizeof *b.level);
	b.cn = calloc(nn, sizeof *b.cn);
	b.prio = calloc(nn, sizeof *b.prio);
	b.rem = malloc(nn * sizeof *b.rem);
	b.sel = malloc(nn * sizeof *b.sel);
	b.is_min = malloc(nn);
	b.sc_thread = malloc(nn * sizeof *b.sc_thread);
	b.sc_off = malloc(nn * sizeof *b.sc_off);
	b.sc_cnt = malloc(nn * sizeof *b.sc_cnt);
	b.wk = calloc(b.nwk, sizeof *b.wk);
	if (!b.out || !b.in || !b.state || !b.dirty || !b.level || !b.cn || !b.prio || !b.rem || !b.sel || !b.is_min ||
	    !b.sc_thread || !b.sc_off || !b.sc_cnt || !b.wk)
		goto nomem;
	for (unsigned t = 0; t < b.nwk; t++)
		if (!(b.wk[t].lab = calloc(nn, sizeof(struct label))) || !(b.wk[t].target = calloc(nn, sizeof(uint32_t))))
			goto nomem;

	/* The input's arcs. A row out of order or with parallel arcs (outside the API's promise) is sorted
	 * and its parallel arcs merge into the lightest (in_order), as if it had come sorted: the same
	 * hierarchy, and no search of the list per arc (N^2 on a hub). */
	for (uint32_t u = 0; u < n; u++)
	{
		int sorted = 1;
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			if (g->col[e] >= n)
			{
				build_free(&b);
				return sssp_fail(err, errlen, -EINVAL,
					       "contraction hierarchy: arc %" PRIu32 " -> %" PRIu32 " leaves the graph (n = %" PRIu32 ")", u,
					       g->col[e], n);
			}
			if (e > g->rowptr[u] && g->col[e] <= g->col[e - 1])
				sorted = 0;
		}
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
			if (g->col[e] != u && dlist_push(&b.out[u], g->col[e], g->w[e], NONE) < 0)
				goto nomem;
		if (!sorted && b.out[u].len > 1)
			in_order(&b.out[u]);
	}
	for (uint32_t u = 0; u < n; u++)
		for (uint32_t k = 0; k < b.out[u].len; k++)
			if (dlist_push(&b.in[b.out[u].a[k].v], u, b.out[u].a[k].w, NONE) < 0)
				goto nomem;

	/* the guard against graphs that do not contract (dense_core) */
	uint64_t arcs0 = 0;
	for (uint32_t u = 0; u < n; u++)
		arcs0 += b.out[u].len;
	double d0 = arcs0 ? (double)arcs0 / n : 1, core_deg = 0;

	struct sssp_pool pool;
	sssp_pool_start(&pool, b.T, &b);
	b.T = pool.n; /* the workers beyond stay unused */
	for (uint32_t v = 0; v < n; v++)
		b.rem[v] = v;
	b.nrem = n;
	unsigned rounds = 0;
	/* hubs already make the first priorities cost in x out witness searches each */
	struct dense_was was = { -1, 0, 0 };
	int is_dense = dense_core(&b, dense, d0, &core_deg, &was);
	if (!is_dense)
		sssp_pool_run(&pool, job_priority_all, n);
	while (b.nrem && !b.failed && !is_dense)
	{
		rounds++;
		sssp_pool_run(&pool, job_select, b.nrem);
		if (!b.no_waiting)
		{
			int any = 0;
			for (uint32_t i = 0; i < b.nrem && !any; i++)
				any = b.is_min[i];
			if (!any)
			{
				/* only waiting vertices are left (the guard is off): evaluate them now */
				b.no_waiting = 1;
				sssp_pool_run(&pool, job_priority_rem, b.nrem);
				sssp_pool_run(&pool, job_select, b.nrem);
			}
		}
		b.nsel = 0;
		uint32_t keep = 0;
		for (uint32_t i = 0; i < b.nrem; i++)
			if (b.is_min[i])
			{
				b.sel[b.nsel++] = b.rem[i];
				b.state[b.rem[i]] = SELECTED;
			}
			else
				b.rem[keep++] = b.rem[i];
		b.nrem = keep;
		for (unsigned t = 0; t < b.T; t++)
			b.wk[t].sclen = b.wk[t].dlen = 0;
		sssp_pool_run(&pool, job_shortcuts, b.nsel);
		if (b.failed)
			break;
		sssp_pool_run(&pool, job_apply, b.nsel);
		for (uint32_t i = 0; i < b.nsel; i++)
			b.state[b.sel[i]] = CONTRACTED;
		uint64_t ndirty = 0;
		for (unsigned t = 0; t < b.T; t++)
			ndirty += b.wk[t].dlen;
		sssp_pool_run(&pool, job_reprioritise, ndirty);
		for (unsigned t = 0; t < b.T; t++)
			for (size_t k = 0; k < b.wk[t].dlen; k++)
				b.dirty[b.wk[t].dirty[k]] = 0;
		is_dense = dense_core(&b, dense, d0, &core_deg, &was);
	}
	sssp_pool_stop(&pool);
	if (b.failed)
	{
		rc = b.failed;
		goto nomem;
	}
	if (is_dense)
	{
		rc = sssp_fail(err, errlen, -EDOM,
			     "contraction hierarchy: the graph does not contract (it is not road-like): after %u rounds "
			     "(%.1f s), %" PRIu32 " of its %" PRIu32 " vertices remain in a dense core (%.1f arcs each on "
			     "average; the input has %.1f), and each further round would cost more; use the batched "
			     "engine (--engine batched; auto takes it), or TUCCOMPI_CH_DENSE=0 to build anyway",
			     rounds, tuccompi_wtime() - t0, b.nrem, n, core_deg, d0);
		build_free(&b);
		return rc;
	}
	struct sssp_ch *ch = assemble(&b);
	if (!ch)
		goto nomem;
	build_free(&b);
	ch->st.rounds = rounds;
	ch->st.threads = b.T;
	ch->st.build_s = tuccompi_wtime() - t0;
	if (st)
		*st = ch->st;
	*out = ch;
	return 0;
nomem:
	build_free(&b);
	return sssp_fail(err, errlen, rc, "contraction hierarchy: out of memory for %" PRIu32 " vertices, %" PRIu64 " arcs", n,
		       g->m);
}
