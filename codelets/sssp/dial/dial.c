/* The "dial" engine on a CPU core: 64 x W sources per call by bit-parallel levels (dial.h explains the
 * algorithm), W = 1, 2, 4 or 8 64-bit words per mask (one cache line at 8). The ring and its bitmaps
 * are left clear by every call, so a call clears only the seen masks. The visits per vertex follow
 * the distinct distances to it, not the sources, so wider masks cost less per source (docs/apsp.md,
 * "The dial engine"). */
#include <stdio.h>
#include <string.h>

#include "dial/dial.h"

#define DIAL_MAGIC 0x6469616c31ull /* "dial1" */

/* The workspace: a header, then seen[n][W], ring[R][n][W], bitmaps[R][n/64]. */
struct ws_hdr
{
	uint64_t magic;
	uint32_t n, slots, words;
	uint32_t pad0;
	uint64_t pad[5];
};

static size_t words64(uint32_t n)
{
	return ((size_t)n + 63) / 64;
}

size_t sssp_dial_cpu_workspace_size_words(uint32_t n, uint32_t wmax, unsigned words)
{
	size_t R = (size_t)wmax + 1;
	return sizeof(struct ws_hdr) + 8 * ((size_t)words * n + R * words * (size_t)n + R * words64(n));
}

size_t sssp_dial_cpu_workspace_size(uint32_t n, uint32_t wmax)
{
	return sssp_dial_cpu_workspace_size_words(n, wmax, 1);
}

int sssp_dial_weights(const struct sssp_graph *g, uint32_t *wmax, char *why, size_t whylen)
{
	uint32_t lo = UINT32_MAX, hi = 1;
	for (uint64_t e = 0; e < g->m; e++)
	{
		uint32_t w = g->w[e];
		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
	}
	if (g->m && lo == 0)
	{
		snprintf(why, whylen, "arcs of weight 0 (the dial engine needs weights 1..%d)", SSSP_DIAL_WMAX);
		return 0;
	}
	if (hi > SSSP_DIAL_WMAX)
	{
		snprintf(why, whylen, "arcs up to weight %u (the dial engine takes weights 1..%d)", hi, SSSP_DIAL_WMAX);
		return 0;
	}
	*wmax = hi;
	return 1;
}

/* One call with W words per mask; W is a constant in each caller below, so that the compiler unrolls
 * the mask loops. */
static inline __attribute__((always_inline)) void run_words(const struct sssp_graph *g, uint32_t wmax, const unsigned W,
							    const uint32_t *src, unsigned nsrc, void *work,
							    struct sssp_summary *out, uint32_t *const *rows,
							    const struct sssp_dial_targets *tg)
{
	const uint32_t n = g->n, R = wmax + 1;
	const size_t nw = words64(n);
	struct ws_hdr *h = work;
	uint64_t *seen = (uint64_t *)(h + 1), *ring = seen + (size_t)W * n, *bm = ring + (size_t)R * W * n;
	if (h->magic != DIAL_MAGIC || h->n != n || h->slots != R || h->words != W)
	{
		memset(ring, 0, 8 * ((size_t)R * W * n + (size_t)R * nw));
		h->magic = DIAL_MAGIC, h->n = n, h->slots = R, h->words = W;
	}
	memset(seen, 0, 8 * (size_t)W * n);
	if (nsrc > 64 * W)
		nsrc = 64 * W;
	for (unsigned i = 0; i < nsrc; i++)
	{
		out[i] = (struct sssp_summary){ .source = src[i] };
		if (rows)
			for (uint32_t v = 0; v < n; v++)
				rows[i][v] = SSSP_INF;
	}
	struct sssp_harm harm[SSSP_DIAL_CPU_LANES_MAX];
	uint32_t cnt[SSSP_DIAL_CPU_LANES_MAX];
	memset(harm, 0, sizeof(harm[0]) * nsrc);
	uint64_t live[SSSP_DIAL_WMAX + 2] = { 0 }; /* vertices pending per slot */
	uint64_t nlive = 0;
	for (unsigned i = 0; i < nsrc; i++)
	{
		uint32_t s = src[i];
		uint64_t *q = ring + (size_t)W * s, any = 0;
		for (unsigned k = 0; k < W; k++)
			any |= q[k];
		if (!any)
			bm[s / 64] |= 1ull << (s % 64), live[0]++, nlive++;
		q[i / 64] |= 1ull << (i % 64);
	}
	uint32_t d = 0;
	for (; nlive; d++)
	{
		const uint32_t slot = d % R;
		if (!live[slot])
			continue;
		nlive -= live[slot];
		live[slot] = 0;
		uint64_t *pend = ring + (size_t)slot * W * n, *map = bm + (size_t)slot * nw;
		memset(cnt, 0, sizeof(cnt[0]) * nsrc);
		for (size_t wi = 0; wi < nw; wi++)
		{
			uint64_t x = map[wi];
			if (!x)
				continue;
			map[wi] = 0;
			do
			{
				uint32_t v = (uint32_t)(wi * 64 + (unsigned)__builtin_ctzll(x));
				x &= x - 1;
				uint64_t nu[8], any = 0;
				uint64_t *pv = pend + (size_t)W * v, *sv = seen + (size_t)W * v;
				for (unsigned k = 0; k < W; k++)
				{
					nu[k] = pv[k] & ~sv[k];
					pv[k] = 0;
					sv[k] |= nu[k];
					any |= nu[k];
				}
				if (!any)
					continue;
				uint32_t *dt = tg && tg->slot[v] != SSSP_DIAL_NO_SLOT ? tg->dist + (size_t)64 * W * tg->slot[v] : NULL;
				for (unsigned k = 0; k < W; k++)
					for (uint64_t b = nu[k]; b; b &= b - 1)
					{
						unsigned i = 64 * k + (unsigned)__builtin_ctzll(b);
						cnt[i]++;
						if (rows)
							rows[i][v] = d;
						if (dt)
							dt[i] = d;
					}
				for (uint64_t e = g->rowptr[v]; e < g->rowptr[v + 1]; e++)
				{
					uint32_t t = (d + g->w[e]) % R, u = g->col[e];
					uint64_t *q = ring + ((size_t)t * n + u) * W, was = 0;
					for (unsigned k = 0; k < W; k++)
					{
						was |= q[k];
						q[k] |= nu[k];
					}
					if (!was)
					{
						bm[(size_t)t * nw + u / 64] |= 1ull << (u % 64);
						live[t]++, nlive++;
					}
				}
			} while (x);
		}
		struct sssp_harm term = sssp_harm_term(d);
		for (unsigned i = 0; i < nsrc; i++)
			if (cnt[i])
			{
				out[i].reached += cnt[i];
				out[i].sum += (uint64_t)d * cnt[i];
				out[i].ecc = d;
				sssp_harm_add_times(&harm[i], term, cnt[i]);
			}
	}
	for (unsigned i = 0; i < nsrc; i++)
	{
		out[i].harmonic = sssp_harm_value(harm[i]);
		out[i].phases = d;
	}
}

/* The 4 widths, each compiled with its constant W. */
static void run_any(const struct sssp_graph *g, uint32_t wmax, unsigned words, const uint32_t *src, unsigned nsrc,
		    void *work, struct sssp_summary *out, uint32_t *const *rows, const struct sssp_dial_targets *tg)
{
	switch (words)
	{
	case 8:
		run_words(g, wmax, 8, src, nsrc, work, out, rows, tg);
		break;
	case 4:
		run_words(g, wmax, 4, src, nsrc, work, out, rows, tg);
		break;
	case 2:
		run_words(g, wmax, 2, src, nsrc, work, out, rows, tg);
		break;
	default:
		run_words(g, wmax, 1, src, nsrc, work, out, rows, tg);
		break;
	}
}

void sssp_dial_cpu_run_words(const struct sssp_graph *g, uint32_t wmax, unsigned words, const uint32_t *src,
			     unsigned nsrc, void *work, struct sssp_summary *out, uint32_t *const *rows)
{
	run_any(g, wmax, words, src, nsrc, work, out, rows, NULL);
}

void sssp_dial_cpu_run(const struct sssp_graph *g, uint32_t wmax, const uint32_t *src, unsigned nsrc, void *work,
		       struct sssp_summary *out, uint32_t *const *rows)
{
	run_any(g, wmax, 1, src, nsrc, work, out, rows, NULL);
}

size_t sssp_dial_cpu_targets_size(uint32_t nslots, unsigned words)
{
	return (size_t)64 * (words == 2 || words == 4 || words == 8 ? words : 1) * nslots * sizeof(uint32_t);
}

void sssp_dial_cpu_run_targets(const struct sssp_graph *g, uint32_t wmax, unsigned words, const uint32_t *src,
			       unsigned nsrc, void *work, struct sssp_summary *out, const struct sssp_dial_targets *tg)
{
	run_any(g, wmax, words, src, nsrc, work, out, NULL, tg);
}

uint32_t sssp_dial_cpu_target_at(const void *work, const struct sssp_dial_targets *tg, uint32_t v, unsigned i)
{
	const struct ws_hdr *h = work;
	const uint64_t *seen = (const uint64_t *)(h + 1);
	const unsigned W = h->words;
	if (!(seen[(size_t)W * v + i / 64] >> (i % 64) & 1)) /* the seen masks of the last call */
		return SSSP_INF;
	return tg->dist[(size_t)64 * W * tg->slot[v] + i];
}
