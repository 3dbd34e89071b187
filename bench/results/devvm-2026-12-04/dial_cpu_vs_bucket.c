/* A prototype, not the tree's code: one core's SSSP/s of the bucket-queue engine (sssp_cpu_run, one
 * source per call, K sources) against the dial engine's CPU form (sssp_dial_cpu_run, 64 sources in one
 * call), the same sources; built as dial_cpu_lanes.c is; run as: dial_cpu_vs_bucket random:1049088 8 */
#include "bench.h"
#include "sssp.h"
#include "sssp_cpu.h"
#include "dial.h"
int main(int argc, char **argv)
{
	struct graph gr;
	bench_load(NULL, argv[1], 1, &gr);
	struct sssp_graph g = apsp_graph_view(&gr);
	unsigned k = atoi(argv[2]);
	uint32_t wmax; char why[200];
	if (!sssp_dial_weights(&g, &wmax, why, sizeof why)) bench_die("%s", why);
	size_t ps = sssp_cpu_packed_size(&g);
	void *packed = aligned_alloc(64, (ps + 63) & ~63ul);
	sssp_cpu_pack(&g, packed);
	uint32_t *dist = malloc(4ul * g.n);
	void *cw = aligned_alloc(64, (sssp_cpu_workspace_size(packed) + 63) & ~63ul);
	struct sssp_summary out[64];
	uint32_t src[64];
	uint64_t s = 7;
	for (int i = 0; i < 64; i++) src[i] = bench_splitmix(&s) % g.n;
	double t0 = bench_now();
	uint64_t chk = 0;
	for (unsigned i = 0; i < k; i++) { sssp_cpu_run(packed, src[i], dist, cw, &out[i]); chk += out[i].sum; }
	double t1 = bench_now();
	printf("bucket: %u sources %.3f s, %.1f SSSP/s (chk %lu)\n", k, t1 - t0, k / (t1 - t0), chk);
	size_t ws = sssp_dial_cpu_workspace_size(g.n, wmax);
	void *w = aligned_alloc(64, (ws + 63) & ~63ul);
	memset(w, 0, ws);
	t0 = bench_now();
	sssp_dial_cpu_run(&g, wmax, src, 64, w, out, NULL);
	t1 = bench_now();
	uint64_t chk2 = 0; for (unsigned i = 0; i < k; i++) chk2 += out[i].sum;
	printf("dial64: 64 sources %.3f s, %.1f SSSP/s, levels %u (chk %lu)\n", t1 - t0, 64 / (t1 - t0), out[0].phases, chk2);
	return 0;
}
