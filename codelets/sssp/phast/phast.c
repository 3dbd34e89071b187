/* PHAST on a CPU core: see phast.h for the algorithm, ch.h for the hierarchy's layout. */
#include <errno.h>
#include <string.h>

#include "phast/phast.h"

#define L SSSP_PHAST_LANES
#define PREFETCH 16
/* 1: the sweep stores every row, also the lowest level's that nothing reads when no output asks
 * for rows or columns (for measuring what leaving them out buys: docs/apsp.md) */
#ifndef PHAST_CPU_STORE_ALL
#define PHAST_CPU_STORE_ALL 0
#endif
#define INF SSSP_INF
#define CAP (SSSP_INF - 1)

/* Function clones per instruction set, chosen when the program loads (GCC >= 6 and Clang >=
 * 14 on x86-64 with an ifunc-capable C library). */
#if defined(__x86_64__) && defined(__GNUC__) && (!defined(__clang__) || __clang_major__ >= 14) && defined(__linux__)
#define PHAST_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PHAST_CLONES
#endif

/* A row of L lanes: 64 bytes, one cache line. */
struct row
{
	uint32_t d[L];
} __attribute__((aligned(64)));

struct work
{
	struct row *dist;   /* n rows */
	uint8_t *touched;   /* n: reached by the upward step of this group */
	uint32_t *heap;     /* n: positions (max-heap) */
};

static size_t align64(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

size_t sssp_phast_cpu_workspace_size(uint32_t n, unsigned nsrc)
{
	(void)nsrc;
	return 64 + align64((size_t)n * sizeof(struct row)) + align64(n) + align64((size_t)n * sizeof(uint32_t));
}

static void work_layout(void *buf, uint32_t n, struct work *w)
{
	uintptr_t p = ((uintptr_t)buf + 63) & ~(uintptr_t)63;
	w->dist = (struct row *)p;
	p += align64((size_t)n * sizeof(struct row));
	w->touched = (uint8_t *)p;
	p += align64(n);
	w->heap = (uint32_t *)p;
}

/* acc = min(acc, d + w) lane by lane, d + w saturating at CAP and INF staying INF. */
static inline void relax(struct row *restrict acc, const struct row *restrict d, uint32_t w)
{
	uint32_t cw = CAP - w;
	for (int l = 0; l < L; l++)
	{
		uint32_t x = d->d[l];
		uint32_t t = (x < cw ? x : cw) + w;
		t = x == INF ? INF : t;
		acc->d[l] = t < acc->d[l] ? t : acc->d[l];
	}
}

static inline void row_fill(struct row *r, uint32_t x)
{
	for (int l = 0; l < L; l++)
		r->d[l] = x;
}

static inline void heap_push(uint32_t *h, uint32_t *len, uint32_t p)
{
	uint32_t i = (*len)++;
	while (i > 0 && h[(i - 1) / 2] < p)
	{
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = p;
}

static inline uint32_t heap_pop(uint32_t *h, uint32_t *len)
{
	uint32_t top = h[0], last = h[--*len], n = *len, i = 0;
	for (;;)
	{
		uint32_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1] > h[c])
			c++;
		if (h[c] <= last)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
	return top;
}

/* Step 1: the upward search spaces of the group's sources, in decreasing position order. */
PHAST_CLONES static void upward(const struct sssp_ch_view *v, const uint32_t *srcpos, unsigned k, struct work *w)
{
	uint32_t len = 0;
	for (unsigned l = 0; l < k; l++)
	{
		uint32_t p = srcpos[l];
		if (!w->touched[p])
		{
			w->touched[p] = 1;
			row_fill(&w->dist[p], INF);
			heap_push(w->heap, &len, p);
		}
		w->dist[p].d[l] = 0;
	}
	while (len)
	{
		uint32_t p = heap_pop(w->heap, &len);
		const struct row *rp = &w->dist[p];
		for (uint64_t e = v->up_start[p]; e < v->up_start[p + 1]; e++)
		{
			uint32_t q = v->up[e].v;
			if (!w->touched[q])
			{
				w->touched[q] = 1;
				row_fill(&w->dist[q], INF);
				heap_push(w->heap, &len, q);
			}
			relax(&w->dist[q], rp, v->up[e].w);
		}
	}
}

/* Step 2: the downward sweep, with the summaries of the lanes. Rows are stored for the positions
 * below @p keep_end: the rows at and past it (the lowest level's, when no output reads rows) are
 * read by no later vertex of the sweep. */
PHAST_CLONES static void sweep(const struct sssp_ch_view *v, struct work *w, uint64_t *sum, uint32_t *ecc,
			       uint32_t *reached, struct sssp_harm *harm, int harmonic, uint32_t keep_end)
{
	uint32_t n = v->n;
	struct row rsum_lo, rsum_hi, recc, rcnt; /* sums in two 32-bit halves: no 64-bit vectors needed */
	uint64_t h2[L], h1[L], h0[L]; /* harmonic terms in 31-bit digits (h2 2^62 + h1 2^31 + h0), summed: no carries */
	row_fill(&rsum_lo, 0);
	row_fill(&rsum_hi, 0);
	row_fill(&recc, 0);
	row_fill(&rcnt, 0);
	for (int l = 0; l < L; l++)
		h2[l] = h1[l] = h0[l] = 0;
	for (uint32_t p = 0; p < n; p++)
	{
		/* The rows this loop reads are scattered: ask for those of a vertex PREFETCH
		 * positions ahead, so that their misses overlap. */
		if (p + PREFETCH < n)
			for (uint64_t e = v->down_start[p + PREFETCH]; e < v->down_start[p + PREFETCH + 1]; e++)
				__builtin_prefetch(&w->dist[v->down[e].v]);
		struct row acc;
		if (w->touched[p])
			acc = w->dist[p];
		else
			row_fill(&acc, INF);
		for (uint64_t e = v->down_start[p]; e < v->down_start[p + 1]; e++)
			relax(&acc, &w->dist[v->down[e].v], v->down[e].w);
		if (p < keep_end)
			w->dist[p] = acc;
		for (int l = 0; l < L; l++)
		{
			uint32_t x = acc.d[l], fin = x != INF;
			uint32_t add = fin ? x : 0, lo = rsum_lo.d[l] + add;
			rsum_hi.d[l] += lo < add;
			rsum_lo.d[l] = lo;
			rcnt.d[l] += fin;
			recc.d[l] = add > recc.d[l] ? add : recc.d[l];
		}
		/* sssp_harm_term's q 2^31 (< 2^92) as vector code can make it: no branch, 32-bit
		 * conversions, in three 31-bit digits. q 2^-31 < 2^30 truncates to the top digit; r = q -
		 * that 2^31 is exact (Sterbenz) and below 2^31: its integer part is the middle digit, and
		 * its fraction (exact, of at most 23 bits) times 2^31 the last. Asked for only: the
		 * divisions cost about as much as the rest of the sweep (docs/apsp.md, "What the outputs
		 * cost"). */
		for (int l = 0; harmonic && l < L; l++)
		{
			uint32_t x = acc.d[l], ok = (x != 0) & (x != INF);
			double q = SSSP_HARM_SCALE / (double)(x * ok + (1 - ok));
			int32_t t2 = (int32_t)(q * 0x1p-31);
			double r = q - (double)t2 * 0x1p31;
			int32_t t1 = (int32_t)r;
			int32_t t0 = (int32_t)((r - (double)t1) * 0x1p31);
			h2[l] += (uint32_t)t2 & -ok;
			h1[l] += (uint32_t)t1 & -ok;
			h0[l] += (uint32_t)t0 & -ok;
		}
	}
	for (int l = 0; l < L; l++)
	{
		sum[l] = (uint64_t)rsum_hi.d[l] << 32 | rsum_lo.d[l];
		ecc[l] = recc.d[l];
		reached[l] = rcnt.d[l];
		struct sssp_harm d2 = { h2[l] << 62, h2[l] >> 2 }, d1 = { h1[l] << 31, h1[l] >> 33 }, d0 = { h0[l], 0 };
		harm[l] = d2;
		sssp_harm_add(&harm[l], d1);
		sssp_harm_add(&harm[l], d0);
	}
}

int sssp_phast_cpu(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, void *work,
		   struct sssp_summary *out, uint32_t *const *rows)
{
	struct sssp_phast_out o = { .rows = rows };
	return sssp_phast_cpu_out(v, src, nsrc, work, out, &o);
}

int sssp_phast_cpu_out(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, void *work,
		       struct sssp_summary *out, const struct sssp_phast_out *o)
{
	uint32_t n = v->n;
	uint32_t *const *rows = o->rows;
	for (unsigned i = 0; i < nsrc; i++)
		if (src[i] >= n)
			return -EINVAL;
	struct work w;
	work_layout(work, n, &w);
	/* no vertex is below the lowest level: its rows are read afterwards only for the outputs */
	uint32_t keep_end = rows || (o->cols && o->ntargets) || PHAST_CPU_STORE_ALL || !v->levels
				    ? n
				    : v->level_start[v->levels - 1];
	for (unsigned g = 0; g < nsrc; g += L)
	{
		unsigned k = nsrc - g < L ? nsrc - g : L;
		uint32_t srcpos[L];
		for (unsigned l = 0; l < k; l++)
			srcpos[l] = v->pos[src[g + l]];
		memset(w.touched, 0, n);
		upward(v, srcpos, k, &w);
		uint64_t sum[L];
		uint32_t ecc[L], reached[L];
		struct sssp_harm harm[L];
		sweep(v, &w, sum, ecc, reached, harm, o->harmonic, keep_end);
		for (unsigned l = 0; l < k; l++)
		{
			struct sssp_summary *s = &out[g + l];
			s->source = src[g + l];
			s->sum = sum[l];
			s->ecc = ecc[l];
			s->reached = reached[l];
			s->phases = 0;
			s->overflow = ecc[l] >= SSSP_DIST_LIMIT;
			s->harmonic = o->harmonic ? sssp_harm_value(harm[l]) : 0;
		}
		/* a target's row holds the group's k distances in one cache line */
		for (uint32_t j = 0; o->cols && j < o->ntargets; j++)
		{
			const struct row *r = &w.dist[v->pos[o->targets[j]]];
			for (unsigned l = 0; l < k; l++)
				o->cols[(size_t)(g + l) * o->ntargets + j] = r->d[l];
		}
		if (rows)
			for (unsigned l = 0; l < k; l++)
				if (rows[g + l])
				{
					uint32_t *r = rows[g + l];
					for (uint32_t p = 0; p < n; p++)
						r[v->orig[p]] = w.dist[p].d[l];
				}
	}
	return 0;
}
