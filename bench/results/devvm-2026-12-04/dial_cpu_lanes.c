/* A prototype, not the tree's code (docs/apsp.md, "Why the CPU units run the bucket queue"): the dial
 * engine's bit-parallel CPU form with W 64-bit words per mask (64 W sources per call), the level's
 * vertices gathered in a list and the ring entries of the arcs of the vertex PF visits ahead
 * prefetched, and every lane's per-level counts (as the summaries need). Built against the tree's
 * static libraries; run on the development VM (2 cores) on 2026-12-04:
 *   gcc -O3 -march=native -DW=8 -DPF=4 -I include -I apps/apsp/graph -I apps/apsp -I codelets/sssp -I bench -I lib \
 *     bench/results/devvm-2026-12-04/dial_cpu_lanes.c -o /tmp/dpc8 codelets/sssp/.libs/libtuccompi-sssp.a \
 *     apps/apsp/.libs/libapsp-cli.a apps/apsp/graph/.libs/libtuccompi-graph.a lib/.libs/libtuccompi-starpu.so -lm -lpthread
 *   /tmp/dpc8 random:1049088 */
#include "bench.h"
#include "sssp.h"
#include "dial.h"
#ifndef W
#define W 8
#endif
#ifndef PF
#define PF 8
#endif
typedef struct { uint64_t x[W]; } mask;
int main(int argc, char **argv)
{
	struct graph gr;
	bench_load(NULL, argv[1], 1, &gr);
	struct sssp_graph g = apsp_graph_view(&gr);
	uint32_t wmax; char why[200];
	if (!sssp_dial_weights(&g, &wmax, why, sizeof why)) bench_die("%s", why);
	uint32_t n = g.n, R = wmax + 1; size_t nw = (n + 63) / 64;
	mask *seen = aligned_alloc(64, sizeof(mask) * n), *ring = aligned_alloc(64, sizeof(mask) * n * R);
	uint64_t *bm = calloc(R * nw, 8);
	uint32_t *list = malloc(4ul * n);
	memset(seen, 0, sizeof(mask) * n); memset(ring, 0, sizeof(mask) * n * R);
	uint64_t s = 7; uint32_t src[64 * W];
	for (int i = 0; i < 64 * W; i++) src[i] = bench_splitmix(&s) % n;
	uint64_t visits = 0, arcs = 0, sum0 = 0; static uint32_t cnt[64 * W];
	double t0 = bench_now();
	for (int i = 0; i < 64 * W; i++) { uint32_t v = src[i]; bm[v / 64] |= 1ull << (v % 64); ring[v].x[i / 64] |= 1ull << (i % 64); }
	uint32_t d, lastd = 0;
	for (d = 0; d < lastd + R + 1; d++) {
		uint32_t slot = d % R; mask *pend = ring + (size_t)slot * n; uint64_t *map = bm + slot * nw;
		uint32_t nl = 0;
		for (size_t wi = 0; wi < nw; wi++) {
			uint64_t x = map[wi]; if (!x) continue; map[wi] = 0;
			do { list[nl++] = wi * 64 + __builtin_ctzll(x); x &= x - 1; } while (x);
		}
		if (nl) lastd = d;
		for (uint32_t i = 0; i < nl; i++) {
			if (i + PF < nl) {
				uint32_t pv = list[i + PF];
				for (uint64_t e = g.rowptr[pv]; e < g.rowptr[pv + 1]; e++)
					__builtin_prefetch(ring + (size_t)((d + g.w[e]) % R) * n + g.col[e], 1);
			}
			uint32_t v = list[i];
			mask nu; uint64_t or = 0;
			for (int k = 0; k < W; k++) { nu.x[k] = pend[v].x[k] & ~seen[v].x[k]; pend[v].x[k] = 0; or |= nu.x[k]; }
			if (!or) continue;
			for (int k = 0; k < W; k++) seen[v].x[k] |= nu.x[k];
			for (int k = 0; k < W; k++) for (uint64_t b = nu.x[k]; b; b &= b - 1) cnt[k * 64 + __builtin_ctzll(b)]++; sum0 += cnt[0];
			visits++;
			for (uint64_t e = g.rowptr[v]; e < g.rowptr[v + 1]; e++) {
				uint32_t t = (d + g.w[e]) % R, u = g.col[e];
				mask *q = ring + (size_t)t * n + u;
				bm[t * nw + u / 64] |= 1ull << (u % 64);
				for (int k = 0; k < W; k++) q->x[k] |= nu.x[k];
				arcs++;
			}
		}
	}
	double t1 = bench_now();
	printf("W=%d PF=%d: %d sources %.3f s, %.1f SSSP/s, levels %u visits/vertex %.2f arcs %lu sum0 %lu\n", W, PF, 64 * W, t1 - t0, 64 * W / (t1 - t0), lastd, (double)visits / n, arcs, sum0);
	return 0;
}
