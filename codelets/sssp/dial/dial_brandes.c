/* The dial-brandes engine on a CPU core (dial_brandes.h explains the algorithm): 64 x W sources per
 * call, the dial traversal's visits logged (sssp_dial_cpu_run_log), then both sweeps over the log.
 * A pull takes the vertex's arcs in CSR order; for each arc the ring entry of its other end says in
 * one look whether the arc is tight in any of the visit's pairs, and the masks' AND which; each pair's
 * sum takes its terms in arc order, by chunks (brandes.h's canonical order). */
#include <errno.h>
#include <string.h>

#include "dial/dial_brandes.h"

#define CHUNK SSSP_BRANDES_CHUNK
#define NONE UINT32_MAX
#define AHEAD 8 /* visits whose ring entries are requested ahead */
#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* The ring: per slot (level mod R) and vertex x, the level of x's visit it holds, that visit's first
 * pair and its mask, side by side (2 + W words: one cache miss per arc of a pull). */
#define RING_WORDS(W) (2u + (W))

struct layout
{
	size_t ring, pairs, v, d, poff, mask, size;
	uint64_t cap;
};

static struct layout layout_of(uint32_t n, uint32_t wmax, unsigned words)
{
	struct layout l;
	size_t nn = n ? n : 1, R = (size_t)wmax + 1;
	l.cap = (uint64_t)nn * SSSP_DIAL_BRANDES_CPU_VISITS(words);
	l.ring = ALIGN64(sssp_dial_cpu_workspace_size_words(n, wmax, words));
	l.pairs = l.ring + ALIGN64(R * nn * RING_WORDS(words) * 8);
	l.v = l.pairs + ALIGN64(nn * 64 * words * sizeof(double));
	l.d = l.v + ALIGN64(l.cap * 4);
	l.poff = l.d + ALIGN64(l.cap * 4);
	l.mask = l.poff + ALIGN64(l.cap * 8);
	l.size = l.mask + ALIGN64(l.cap * 8 * words);
	return l;
}

size_t sssp_dial_brandes_cpu_workspace_size(uint32_t n, uint32_t wmax, unsigned words)
{
	return layout_of(n, wmax, words).size;
}

/* What both sweeps read. */
struct sweep
{
	const struct sssp_brandes_graph *g;
	const uint32_t *src;
	unsigned nsrc, W;
	uint32_t R;
	uint64_t *ring;
	double *pairs;
	const uint32_t *v, *d;
	const uint64_t *poff, *mask;
};

/* pre[q] = the set bits of words 0..q-1 of m. */
static inline void prefix(const uint64_t *m, unsigned W, unsigned *pre)
{
	unsigned c = 0;
	for (unsigned q = 0; q < W; q++)
	{
		pre[q] = c;
		c += (unsigned)__builtin_popcountll(m[q]);
	}
}

static inline unsigned rank_of(const uint64_t *m, const unsigned *pre, unsigned q, unsigned b)
{
	return pre[q] + (unsigned)__builtin_popcountll(m[q] & ((1ull << b) - 1));
}

/* Visit i's pairs pull over the arcs [a0, a1) of its pull side (forward: in-arcs, of sigma; backward:
 * out-arcs, of q, adding each tight arc's flows into edges when given): part[k] for its k-th pair, in
 * arc order from 0.0. */
static void pull(const struct sweep *S, int fwd, uint64_t i, uint64_t a0, uint64_t a1, const unsigned *npre,
		 const double *sv, double *part, struct tuccompi_exact *edges)
{
	const unsigned W = S->W;
	const uint32_t n = S->g->n, d = S->d[i];
	const uint64_t *nu = S->mask + i * W;
	const uint32_t *col = fwd ? S->g->in_col : S->g->col, *wt = fwd ? S->g->in_w : S->g->w;
	for (uint64_t a = a0; a < a1; a++)
	{
		const uint32_t w = wt[a];
		if (fwd && w > d)
			continue;
		const uint32_t lvl = fwd ? d - w : d + w;
		const uint64_t *e = S->ring + ((size_t)(lvl % S->R) * n + col[a]) * RING_WORDS(W);
		if (e[0] != lvl)
			continue; /* the other end has no pair at that level */
		const uint64_t *xm = e + 2;
		const double *xv = S->pairs + e[1];
		unsigned xpre[8];
		prefix(xm, W, xpre);
		for (unsigned q = 0; q < W; q++)
			for (uint64_t t = nu[q] & xm[q]; t; t &= t - 1)
			{
				const unsigned b = (unsigned)__builtin_ctzll(t), k = rank_of(nu, npre, q, b);
				const double x = xv[rank_of(xm, xpre, q, b)];
				part[k] += x;
				if (edges)
					tuccompi_exact_add(&edges[a], sv[k] * x);
			}
	}
}

/* The ring entries visit i's pulls will read, requested ahead (its arcs and levels are known before its
 * turn: a pull is latency-bound, one random line per arc). */
static inline void prefetch(const struct sweep *S, int fwd, uint64_t i)
{
	const uint32_t v = S->v[i], d = S->d[i], n = S->g->n;
	const uint64_t *row = fwd ? S->g->in_rowptr : S->g->rowptr;
	const uint32_t *col = fwd ? S->g->in_col : S->g->col, *wt = fwd ? S->g->in_w : S->g->w;
	for (uint64_t a = row[v], e = row[v + 1]; a < e; a++)
		if (!fwd || wt[a] <= d)
		{
			const uint32_t lvl = fwd ? d - wt[a] : d + wt[a];
			__builtin_prefetch(S->ring + ((size_t)(lvl % S->R) * n + col[a]) * RING_WORDS(S->W));
		}
}

/* Visit i: its pairs' sums over the pull side by chunks (brandes.h), then their values; backward, their
 * dependencies into acc; then its ring entry. */
static void visit(const struct sweep *S, int fwd, uint64_t i, struct tuccompi_exact *acc, struct tuccompi_exact *edges)
{
	const unsigned W = S->W;
	const uint32_t v = S->v[i], d = S->d[i];
	const uint64_t *nu = S->mask + i * W;
	double *val = S->pairs + S->poff[i];
	unsigned npre[8];
	prefix(nu, W, npre);
	const unsigned c = npre[W - 1] + (unsigned)__builtin_popcountll(nu[W - 1]);
	double tot[SSSP_DIAL_CPU_LANES_MAX], part[SSSP_DIAL_CPU_LANES_MAX];
	const uint64_t *row = fwd ? S->g->in_rowptr : S->g->rowptr;
	const uint64_t b = row[v], e = row[v + 1];
	for (unsigned k = 0; k < c; k++)
		tot[k] = 0.0;
	for (uint64_t cb = b; cb < e; cb += CHUNK)
	{
		for (unsigned k = 0; k < c; k++)
			part[k] = 0.0;
		pull(S, fwd, i, cb, cb + CHUNK < e ? cb + CHUNK : e, npre, val, part, edges);
		for (unsigned k = 0; k < c; k++)
			tot[k] += part[k];
	}
	unsigned k = 0;
	for (unsigned q = 0; q < W; q++)
		for (uint64_t t = nu[q]; t; t &= t - 1, k++)
		{
			const unsigned s = 64 * q + (unsigned)__builtin_ctzll(t);
			const int own = s < S->nsrc && S->src[s] == v;
			if (fwd)
			{
				val[k] = own ? 1.0 : tot[k];
				continue;
			}
			const double sv = val[k], dv = sv * tot[k];
			val[k] = (1.0 + dv) / sv;
			if (!own && dv != 0.0)
				tuccompi_exact_add(&acc[v], dv);
		}
	uint64_t *re = S->ring + ((size_t)(d % S->R) * S->g->n + v) * RING_WORDS(W);
	re[0] = d;
	re[1] = S->poff[i];
	memcpy(re + 2, nu, 8 * W);
}

int sssp_dial_brandes_cpu_run(const struct sssp_brandes_graph *g, uint32_t wmax, unsigned words, const uint32_t *src,
			      unsigned nsrc, void *work, struct sssp_summary *out, struct tuccompi_exact *acc,
			      struct tuccompi_exact *edges)
{
	if (words != 2 && words != 4 && words != 8)
		words = 1;
	if (nsrc > 64 * words)
		nsrc = 64 * words;
	const struct layout l = layout_of(g->n, wmax, words);
	char *base = work;
	struct sssp_dial_log log = {
		.v = (uint32_t *)(base + l.v),
		.d = (uint32_t *)(base + l.d),
		.mask = (uint64_t *)(base + l.mask),
		.cap = l.cap < NONE ? l.cap : NONE,
	};
	const struct sssp_graph sg = { .n = g->n, .m = g->m, .rowptr = g->rowptr, .col = g->col, .w = g->w };
	sssp_dial_cpu_run_log(&sg, wmax, words, src, nsrc, work, out, &log);
	if (log.overflow)
		return -ENOSPC;
	struct sweep S = {
		.g = g,
		.src = src,
		.nsrc = nsrc,
		.W = words,
		.R = wmax + 1,
		.ring = (uint64_t *)(base + l.ring),
		.pairs = (double *)(base + l.pairs),
		.v = log.v,
		.d = log.d,
		.poff = (uint64_t *)(base + l.poff),
		.mask = log.mask,
	};
	memset(S.ring, 0xff, (size_t)S.R * g->n * RING_WORDS(words) * 8); /* no level is all ones */
	uint64_t *poff = (uint64_t *)(base + l.poff), at = 0;
	for (uint64_t i = 0; i < log.count; i++)
	{
		poff[i] = at;
		for (unsigned q = 0; q < words; q++)
			at += (uint64_t)__builtin_popcountll(log.mask[i * words + q]);
	}
	for (uint64_t i = 0; i < log.count; i++)
	{
		if (i + AHEAD < log.count)
			prefetch(&S, 1, i + AHEAD);
		visit(&S, 1, i, acc, NULL);
	}
	/* the ring's entries stay right for the backward sweep: an entry that names a level names the
	 * other end's visit at that level, whichever sweep wrote it */
	for (uint64_t i = log.count; i-- > 0;)
	{
		if (i >= AHEAD)
			prefetch(&S, 0, i - AHEAD);
		visit(&S, 0, i, acc, edges);
	}
	return 0;
}

void sssp_dial_brandes_shape_of(const struct sssp_brandes_graph *g, struct sssp_dial_brandes_shape *s)
{
	uint64_t side[2] = { 0, 0 };
	for (uint32_t v = 0; v < g->n; v++)
	{
		const uint64_t deg[2] = { g->in_rowptr[v + 1] - g->in_rowptr[v], g->rowptr[v + 1] - g->rowptr[v] };
		for (int k = 0; k < 2; k++)
			side[k] += deg[k] > CHUNK ? (deg[k] + CHUNK - 1) / CHUNK : 0;
	}
	s->heavy_chunks = side[0] > side[1] ? side[0] : side[1];
}
