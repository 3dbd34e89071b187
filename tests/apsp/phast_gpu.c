/* GPU PHAST (codelets/sssp/phast/phast_gpu.cu): with the hierarchy's buffers copied to the device,
 * every distance row and summary equals the reference Dijkstra's (tests/apsp/sssp_ref.h) for
 * 32, 64, 128 and 256 lanes per pass, on hand-made cases (a single vertex, disconnected parts,
 * one-way arcs, zero-weight cycles, ties that need the same-round witness rule), random
 * graphs with zero weights, a grid of equal weights, R-MAT and road-like graphs, with
 * duplicate sources and a last pass that is not full; bad arguments are refused with
 * -EINVAL and a message; each under four plans of the sweeps' levels (chained or grid-wide, a
 * warp per vertex or split). Every pass also gathers target columns on the device
 * (sssp_phast_gpu_out: a list with a repeat and the last vertex), each equal to the reference's
 * distance, and one plan runs without the harmonic sum (left 0, the rest unchanged); then the
 * summaries alone (no rows, no columns: the lowest level's rows are not stored; 16-bit rows below
 * the split levels, or everywhere in the plan without splits, run again with 32-bit ones where a
 * distance reaches 65,534: paths to 65,533 and 65,534, a grid of heavy weights and the road-like
 * graph, with the narrow passes counted; a broom forest summed by one block, whose threads add up
 * more than 2^16 vertices each and whose lanes' sums pass 2^32). Exits 77 (skipped) without a CUDA device. */
#include <cuda_runtime_api.h>

#include "graph.h"
#include "phast/ch.h"
#include "phast/phast_gpu.h"
#include "sssp_ref.h"
#include "testutil.h"

struct dev_ch
{
	void *buf[SSSP_CH_NBUF];
	struct sssp_ch_view view;
};

static void upload(const struct sssp_ch *ch, struct dev_ch *d)
{
	const void *p[SSSP_CH_NBUF];
	size_t sz[SSSP_CH_NBUF];
	sssp_ch_buffers(ch, p, sz, SSSP_CH_NBUF);
	for (int i = 0; i < SSSP_CH_NBUF; i++)
	{
		ASSERT_CUDA(cudaMalloc(&d->buf[i], sz[i] ? sz[i] : 8));
		if (sz[i])
			ASSERT_CUDA(cudaMemcpy(d->buf[i], p[i], sz[i], cudaMemcpyHostToDevice));
	}
	struct sssp_ch_dims dims;
	sssp_ch_dims(ch, &dims);
	sssp_ch_view_from(&dims, (const void *const *)d->buf, &d->view);
}

static void release(struct dev_ch *d)
{
	for (int i = 0; i < SSSP_CH_NBUF; i++)
		cudaFree(d->buf[i]);
}

/* The level plans of the sweeps, chosen through the kernel's knobs (struct sssp_phast_gpu_knobs): the
 * default; a warp per vertex everywhere, unfiltered, 16-bit rows in every summaries-alone pass;
 * nothing chained and vertices split as finely as possible, on a third of the GPU (share 3); and
 * long chains in block 0 (split there too), 16-bit rows below the split levels. */
#define NPLANS 4
static const char *const plans[NPLANS] = { "default plan", "a warp per vertex", "no chains, finest split",
					   "long chains" };

static void plan(int i, struct sssp_phast_gpu_knobs *k)
{
	sssp_phast_gpu_knobs_default(k);
	if (i == 1)
	{
		k->split = 0;
		k->filter = 0;
		k->narrow = 2; /* nothing split: every row of a summaries-alone pass is 16-bit, every pass */
	}
	if (i == 2)
	{
		k->chain_vertices = 0;
		k->split_min = 1;
		k->narrow = 0;
	}
	if (i == 3)
	{
		k->narrow = 1; /* 16-bit rows below the split levels, a hierarchy that did not fit remembered */
		k->chain_vertices = 64;
		k->chain_arcs = 100000;
		k->split_min = 1;
	}
}

static void check(const char *what, const struct graph *g, int all)
{
	struct sssp_graph gv = { g->n, g->m, g->rowptr, g->col, g->w, g->min_out, g->max_w };
	struct sssp_ch *ch;
	char err[512];
	if (sssp_ch_build(&gv, 2, &ch, NULL, err, sizeof err) < 0)
		FAIL("%s: %s", what, err);
	struct dev_ch d;
	upload(ch, &d);
	unsigned k = all ? g->n : 300; /* 300: a full pass and one that is not, for every lane count */
	uint32_t *src = malloc(k * sizeof *src);
	for (unsigned i = 0; i < k; i++)
		src[i] = all ? i : (uint32_t)(((uint64_t)i * 2654435761u) % g->n);
	if (k > 40)
		src[40] = src[7];
	uint32_t **rows = calloc(k, sizeof *rows);
	for (unsigned i = 0; i < k; i++)
		if (i % 3 != 1) /* some sources without a row */
			ASSERT_CUDA(cudaMallocHost((void **)&rows[i], g->n * sizeof(uint32_t)));
	struct sssp_summary *out = calloc(k, sizeof *out), *want = calloc(k, sizeof *want);
	uint32_t *refs = malloc((size_t)k * g->n * sizeof *refs);
	if (!out || !want || !refs)
		FAIL("%s: out of memory", what);
	for (unsigned i = 0; i < k; i++)
	{
		sssp_ref(g, src[i], refs + (size_t)i * g->n);
		sssp_summarize(refs + (size_t)i * g->n, g->n, src[i], &want[i]);
	}
	/* target columns: a repeat, the last vertex */
	uint32_t nt = g->n < 23 ? g->n : 23, tgt[23], *dtgt, *cols;
	for (uint32_t j = 0; j < nt; j++)
		tgt[j] = j + 1 == nt ? g->n - 1 : (uint32_t)(((uint64_t)j * 40503u) % g->n);
	if (nt > 3)
		tgt[3] = tgt[0];
	ASSERT_CUDA(cudaMalloc((void **)&dtgt, nt * sizeof(uint32_t)));
	ASSERT_CUDA(cudaMemcpy(dtgt, tgt, nt * sizeof(uint32_t), cudaMemcpyHostToDevice));
	ASSERT_CUDA(cudaMallocHost((void **)&cols, (size_t)k * nt * sizeof(uint32_t)));
	static const unsigned lanes[] = { 32, 64, 128, 256 };
	for (int pi = 0; pi < NPLANS; pi++)
	{
		struct sssp_phast_gpu_knobs kn;
		plan(pi, &kn);
		for (int li = 0; li < 4; li++)
		{
			size_t ws = sssp_phast_gpu_workspace_size_cols(g->n, lanes[li], nt);
			void *work;
			ASSERT_CUDA(cudaMalloc(&work, ws));
			ASSERT_CUDA(cudaMemset(work, 0xab, ws)); /* stale contents must not matter */
			for (unsigned i = 0; i < k; i++)
				if (rows[i])
					memset(rows[i], 0x5a, g->n * sizeof(uint32_t));
			memset(cols, 0x5a, (size_t)k * nt * sizeof(uint32_t));
			struct sssp_phast_out po = { .rows = rows, .targets = dtgt, .ntargets = nt, .cols = cols, .harmonic = pi != 1 };
			int rc = sssp_phast_gpu_out(&d.view, src, k, lanes[li], work, ws, out, &po, NULL, pi == 2 ? 3 : 1, &kn, err,
						    sizeof err);
			if (rc < 0)
				FAIL("%s, %u lanes, %s: %s", what, lanes[li], plans[pi], err);
			for (unsigned i = 0; i < k; i++)
			{
				const uint32_t *ref = refs + (size_t)i * g->n;
				for (uint32_t j = 0; j < nt; j++)
					if (cols[(size_t)i * nt + j] != ref[tgt[j]])
						FAIL("%s, %u lanes, %s: source %u, target %u (vertex %u): GPU %u, Dijkstra %u", what,
						     lanes[li], plans[pi], src[i], j, tgt[j], cols[(size_t)i * nt + j], ref[tgt[j]]);
				if (rows[i])
					for (uint32_t t = 0; t < g->n; t++)
						if (rows[i][t] != ref[t])
							FAIL("%s, %u lanes, %s: source %u, vertex %u: GPU %u, Dijkstra %u", what,
							     lanes[li], plans[pi], src[i], t, rows[i][t], ref[t]);
				if (out[i].source != src[i] || out[i].sum != want[i].sum || out[i].ecc != want[i].ecc ||
				    out[i].reached != want[i].reached || out[i].overflow != want[i].overflow ||
				    out[i].harmonic != (po.harmonic ? want[i].harmonic : 0))
					FAIL("%s, %u lanes, %s: source %u: summary (sum %llu, ecc %u, reached %u, harmonic %.17g) "
					     "against Dijkstra's (%llu, %u, %u, %.17g)",
					     what, lanes[li], plans[pi], src[i], (unsigned long long)out[i].sum, out[i].ecc,
					     out[i].reached, out[i].harmonic, (unsigned long long)want[i].sum, want[i].ecc,
					     want[i].reached, want[i].harmonic);
			}
			/* the summaries alone: no output reads rows, so the lowest level's are not stored */
			memset(out, 0x5a, k * sizeof *out);
			ASSERT_CUDA(cudaMemset(work, 0xab, ws)); /* no row of the run above to fall back on */
			struct sssp_phast_out so = { .harmonic = 1 };
			if (sssp_phast_gpu_out(&d.view, src, k, lanes[li], work, ws, out, &so, NULL, 1, &kn, err, sizeof err) < 0)
				FAIL("%s, %u lanes, %s, summaries alone: %s", what, lanes[li], plans[pi], err);
			for (unsigned i = 0; i < k; i++)
				if (out[i].source != src[i] || out[i].sum != want[i].sum || out[i].ecc != want[i].ecc ||
				    out[i].reached != want[i].reached || out[i].overflow != want[i].overflow ||
				    out[i].harmonic != want[i].harmonic)
					FAIL("%s, %u lanes, %s, summaries alone: source %u: (sum %llu, ecc %u, reached %u) "
					     "against Dijkstra's (%llu, %u, %u)",
					     what, lanes[li], plans[pi], src[i], (unsigned long long)out[i].sum, out[i].ecc,
					     out[i].reached, (unsigned long long)want[i].sum, want[i].ecc, want[i].reached);
			ASSERT_CUDA(cudaFree(work));
		}
	}
	printf("%-28s n=%-6u sources=%u: equal to Dijkstra for 32, 64, 128 and 256 lanes, %d plans, with and without rows\n",
	       what, g->n, k, NPLANS);
	ASSERT_CUDA(cudaFree(dtgt));
	ASSERT_CUDA(cudaFreeHost(cols));
	free(refs);
	free(want);
	for (unsigned i = 0; i < k; i++)
		if (rows[i])
			cudaFreeHost(rows[i]);
	free(rows);
	free(out);
	free(src);
	release(&d);
	sssp_ch_free(ch);
}

static void bad_arguments(void)
{
	struct graph g;
	struct graph_error gerr;
	ASSERT_EQ(graph_gen_grid(8, 8, 1, 5, 2, &g, &gerr), 0);
	struct sssp_graph gv = { g.n, g.m, g.rowptr, g.col, g.w, g.min_out, g.max_w };
	struct sssp_ch *ch;
	char err[512];
	ASSERT_EQ(sssp_ch_build(&gv, 1, &ch, NULL, err, sizeof err), 0);
	struct dev_ch d;
	upload(ch, &d);
	size_t ws = sssp_phast_gpu_workspace_size(g.n, 32);
	ASSERT_EQ(sssp_phast_gpu_workspace_size(g.n, 48), 0);
	void *work;
	ASSERT_CUDA(cudaMalloc(&work, ws));
	struct sssp_summary out[2];
	uint32_t src[2] = { 3, 64 };
	ASSERT_EQ(sssp_phast_gpu(&d.view, src, 2, 32, work, ws, out, NULL, NULL, 1, NULL, err, sizeof err), -EINVAL);
	ASSERT_STR_CONTAINS(err, "source 64");
	src[1] = 5;
	ASSERT_EQ(sssp_phast_gpu(&d.view, src, 2, 48, work, ws, out, NULL, NULL, 1, NULL, err, sizeof err), -EINVAL);
	ASSERT_STR_CONTAINS(err, "48 lanes");
	struct sssp_phast_out po = { .ntargets = 2, .cols = (uint32_t *)out }; /* columns without their device array */
	ASSERT_EQ(sssp_phast_gpu_out(&d.view, src, 2, 32, work, ws, out, &po, NULL, 1, NULL, err, sizeof err), -EINVAL);
	ASSERT_STR_CONTAINS(err, "workspace"); /* too small for the columns, checked first */
	ASSERT_EQ(sssp_phast_gpu(&d.view, src, 2, 32, work, ws - 1, out, NULL, NULL, 1, NULL, err, sizeof err), -EINVAL);
	ASSERT_STR_CONTAINS(err, "workspace");
	ASSERT_EQ(sssp_phast_gpu(&d.view, src, 2, 32, work, ws, out, NULL, NULL, 1, NULL, err, sizeof err), 0);
	cudaFree(work);
	release(&d);
	sssp_ch_free(ch);
	graph_free(&g);
}

/* The path 0 - 1 - 2 (arcs both ways, weights a then b) and the arc 3 -> 2 of weight 0: the largest
 * distance is a + b, from vertex 0 and from vertex 3 alike. Checked with every plan; how many narrow
 * passes that made in *passes, and how many of them ran again in *reruns. */
static void narrow_path(const char *what, uint32_t a, uint32_t b, unsigned long long *passes, unsigned long long *reruns)
{
	const uint32_t arcs[] = { 0, 1, a, 1, 0, a, 1, 2, b, 2, 1, b, 3, 2, 0 };
	unsigned long long p0, r0, p1, r1;
	struct graph g;
	sssp_phast_gpu_narrow_counts(&p0, &r0);
	sssp_ref_graph(&g, 4, sizeof arcs / sizeof arcs[0] / 3, arcs);
	check(what, &g, 1);
	graph_free(&g);
	sssp_phast_gpu_narrow_counts(&p1, &r1);
	*passes = p1 - p0;
	*reruns = r1 - r0;
}

/* The narrow kernels' sums, in registers up to 2^16 vertices at a time, then in the block's two words:
 * a broom forest (hubs 0..K-1 on a path of weight 0, each with N / K leaves, arcs both ways of
 * 32,700..32,766) summed by one block alone (share: larger than the GPU's resident blocks), so that
 * each warp adds up about N / 32 leaves or more (a block has at most 32 warps) of at least 65,400 from
 * a leaf: more than 2^16 vertices per thread (its registers go to the block's words before the end)
 * and more than 2^32 in each lane's sum, carried to the block's high word. From leaf s, every hub is
 * at w_s and leaf j at w_s + w_j: the sum is (K + N - 2) w_s + W (W: every leaf's weight), the
 * eccentricity w_s + the largest other weight. One narrow pass of 256 lanes, not run again. The
 * hierarchy is built with the dense-core guard on (the hubs' 220 x 220 pairs are above its limit
 * before the first round, but their leaves' searches cost nothing: ch_build.c's first_scans). */
static void narrow_carry(void)
{
	const uint32_t K = 10000, N = 2200000, lanes = 256;
	uint32_t *arcs = malloc(((size_t)N + K) * 6 * sizeof *arcs), *w = malloc(((size_t)N + K) * sizeof *w);
	ASSERT(arcs != NULL && w != NULL);
	uint64_t W = 0, m = 0;
	uint32_t top1 = 0, top2 = 0; /* the two largest leaf weights */
	for (uint32_t h = 0; h + 1 < K; h++)
	{
		uint32_t *a = arcs + 3 * m;
		a[0] = h, a[1] = h + 1, a[2] = 0, a[3] = h + 1, a[4] = h, a[5] = 0;
		m += 2;
	}
	for (uint32_t j = 1; j <= N; j++)
	{
		uint32_t v = K - 1 + j, x = 32700 + (uint32_t)(((uint64_t)j * 2654435761u >> 7) % 67);
		w[v] = x;
		W += x;
		if (x > top1)
		{
			top2 = top1;
			top1 = x;
		}
		else if (x > top2)
			top2 = x;
		uint32_t *a = arcs + 3 * m;
		a[0] = (j - 1) % K, a[1] = v, a[2] = x, a[3] = v, a[4] = (j - 1) % K, a[5] = x;
		m += 2;
	}
	ASSERT(N / 32 - 64 > 65536 && (uint64_t)N * 65400 > (1ull << 32)); /* a flush per thread; a carry */
	struct graph g;
	sssp_ref_graph(&g, N + K, m, arcs);
	free(arcs);
	struct sssp_graph gv = { g.n, g.m, g.rowptr, g.col, g.w, g.min_out, g.max_w };
	struct sssp_ch *ch;
	char err[512];
	int rc = sssp_ch_build(&gv, 4, &ch, NULL, err, sizeof err);
	if (rc < 0)
		FAIL("broom of %u leaves: %s", N, err);
	struct dev_ch d;
	upload(ch, &d);
	size_t ws = sssp_phast_gpu_workspace_size(g.n, lanes);
	void *work;
	ASSERT_CUDA(cudaMalloc(&work, ws));
	uint32_t src[256];
	struct sssp_summary out[256];
	for (unsigned i = 0; i < lanes; i++)
		src[i] = K + (uint32_t)(((uint64_t)i * 8191) % N);
	struct sssp_phast_gpu_knobs kn;
	sssp_phast_gpu_knobs_default(&kn);
	kn.narrow = 2;
	unsigned long long p0, r0, p1, r1;
	sssp_phast_gpu_narrow_counts(&p0, &r0);
	if (sssp_phast_gpu(&d.view, src, lanes, lanes, work, ws, out, NULL, NULL, 1u << 30, &kn, err, sizeof err) < 0)
		FAIL("broom of %u leaves, one block: %s", N, err);
	sssp_phast_gpu_narrow_counts(&p1, &r1);
	if (p1 - p0 != 1 || r1 != r0)
		FAIL("broom: %llu narrow passes, %llu run again; want 1 and none", p1 - p0, r1 - r0);
	for (unsigned i = 0; i < lanes; i++)
	{
		uint32_t x = w[src[i]];
		uint64_t sum = (uint64_t)(K + N - 2) * x + W;
		uint32_t ecc = x + (x == top1 && top2 < top1 ? top2 : top1);
		if (out[i].source != src[i] || out[i].sum != sum || out[i].ecc != ecc || out[i].reached != N + K)
			FAIL("broom, lane %u (leaf %u): sum %llu ecc %u reached %u, want %llu %u %u", i, src[i],
			     (unsigned long long)out[i].sum, out[i].ecc, out[i].reached, (unsigned long long)sum, ecc, N + K);
	}
	printf("broom of %u leaves on one block: every lane's sum (about %.1f x 2^32) exact\n", N,
	       (double)((uint64_t)(K + N - 2) * w[src[0]] + W) / 4294967296.0);
	cudaFree(work);
	release(&d);
	sssp_ch_free(ch);
	graph_free(&g);
	free(w);
}

int main(void)
{
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0)
	{
		printf("phast_gpu: no CUDA device, skipped\n");
		return TEST_SKIP;
	}
	struct graph g;
	struct graph_error err;
	sssp_ref_graph(&g, 1, 0, NULL);
	check("single vertex", &g, 1);
	graph_free(&g);
	static const uint32_t parts[] = { 0, 1, 4, 1, 2, 0, 2, 0, 0, 0, 2, 7, 2, 3, 1, 3, 4, 2, 4, 0, 9, 6, 7,
					  1, 7, 8, 1, 8, 6, 5, 6, 8, 3, 7, 6, 2, 0, 1, 3, 2, 1, 0 };
	sssp_ref_graph(&g, 10, sizeof parts / sizeof parts[0] / 3, parts);
	check("parts, one-way, zero cycle", &g, 1);
	graph_free(&g);
	/* 16-bit rows (sssp_phast_gpu_knobs::narrow: plans 0 and 3 with knob 1, plan 1 with 2): the
	 * summaries-alone passes of 128 and 256 lanes are narrow while the distances fit; 65,533 is the
	 * largest that does, 65,534 makes the pass run again with 32-bit rows. */
	unsigned long long np, nr;
	narrow_path("path to 65,533 (16-bit rows)", 30000, 35533, &np, &nr);
	if (!np || nr)
		FAIL("path to 65,533: %llu narrow passes, %llu run again; want some, none again", np, nr);
	narrow_path("path to 65,534 (32-bit again)", 30000, 35534, &np, &nr);
	if (!nr)
		FAIL("path to 65,534: no narrow pass ran again with 32-bit rows");
	/* an arc heavier than a 16-bit row holds (the 16x2 fold clamps it to 65,534) */
	narrow_path("an arc of 100,000 (32-bit again)", 3, 100000, &np, &nr);
	if (!nr)
		FAIL("an arc of 100,000: no narrow pass ran again with 32-bit rows");
	ASSERT_EQ(graph_gen_grid(30, 30, 1000, 3000, 4, &g, &err), 0);
	check("grid 30x30 1000..3000 (wide)", &g, 0);
	graph_free(&g);
	sssp_phast_gpu_narrow_counts(&np, &nr);
	printf("narrow passes: %llu, run again with 32-bit rows: %llu\n", np, nr);
	ASSERT_EQ(graph_gen_random(3000, 0, 4, 0, 2, 8, &g, &err), 0);
	check("random 0..2 (zero weights)", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_random(2000, 1, 5, 1, 10, 7, &g, &err), 0);
	check("random 1..10 (directed)", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_grid(40, 50, 1, 1, 9, &g, &err), 0);
	check("grid 40x50 unit (ties)", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_rmat(11, 4, 0.57, 0.19, 0.19, 1, 10, 3, &g, &err), 0);
	check("R-MAT 11", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_road(20000, 5, &g, &err), 0);
	check("road 20000", &g, 0);
	graph_free(&g);
	bad_arguments();
	narrow_carry();
	printf("phast_gpu: all checks passed\n");
	return 0;
}
