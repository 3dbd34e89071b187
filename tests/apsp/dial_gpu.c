/* The dial engine on a GPU (codelets/sssp/dial/dial_gpu.cu) against the independent reference
 * (tests/apsp/sssp_ref.h): every summary field of every source, the distance rows (64 sources) and
 * the target columns (duplicates among the targets), on random (with unreachable parts), R-MAT, grid
 * (hundreds of levels) and cycle graphs (thousands of levels: the ring wraps many times), weights 1..10
 * and 1..64, with 512, 37 and 1 sources (duplicates among them), the whole GPU and a quarter of it
 * (share 4), one workspace reused from call to call and starting full of garbage. The heavy vertices'
 * grid-wide pushes: hubs of 20,000 arcs (a graph of four hubs), every vertex heavy, a heavy list that
 * overflows (3 entries), and none. Bad arguments are refused with -EINVAL. Exit 77 without a GPU. */
#include <cuda_runtime_api.h>

#include "graph.h"
#include "cli.h"
#include "dial/dial_gpu.h"
#include "sssp.h"
#include "sssp_ref.h"
#include "testutil.h"

static cudaStream_t stream;
static unsigned grid_max; /* DIAL_GRID_MAX: the level loop's blocks (0: as many as fit) */
static const char *only;  /* argv[1]: only the graphs whose name contains it */
static uint32_t heavy_deg, heavy_cap; /* the calls' heavy_deg and heavy_cap (0: defaults) */
static void *work;
static size_t work_size;

struct dgraph
{
	struct sssp_dial_dgraph g;
	uint32_t wmax;
};

static void upload(const struct graph *gr, struct dgraph *d)
{
	struct sssp_graph g = apsp_graph_view(gr);
	char why[160];
	if (!sssp_dial_weights(&g, &d->wmax, why, sizeof why))
		FAIL("weights refused: %s", why);
	void *r, *c, *w;
	size_t m4 = (g.m ? g.m : 1) * 4;
	ASSERT_CUDA(cudaMalloc(&r, ((size_t)g.n + 1) * 8));
	ASSERT_CUDA(cudaMalloc(&c, m4));
	ASSERT_CUDA(cudaMalloc(&w, m4));
	ASSERT_CUDA(cudaMemcpy(r, g.rowptr, ((size_t)g.n + 1) * 8, cudaMemcpyHostToDevice));
	if (g.m)
	{
		ASSERT_CUDA(cudaMemcpy(c, g.col, g.m * 4, cudaMemcpyHostToDevice));
		ASSERT_CUDA(cudaMemcpy(w, g.w, g.m * 4, cudaMemcpyHostToDevice));
	}
	d->g = (struct sssp_dial_dgraph){ .n = g.n, .m = g.m, .rowptr = r, .col = c, .w = w };
}

static void release(struct dgraph *d)
{
	cudaFree((void *)d->g.rowptr);
	cudaFree((void *)d->g.col);
	cudaFree((void *)d->g.w);
}

static void *workspace(size_t size)
{
	if (size > work_size)
	{
		cudaFree(work);
		ASSERT_CUDA(cudaMalloc(&work, size));
		/* stale contents must not matter; cudaMemset runs on the legacy stream, which the test's
		 * non-blocking stream does not wait for: wait here, or the fill races the engine's clear */
		ASSERT_CUDA(cudaMemset(work, 0xab, size));
		ASSERT_CUDA(cudaDeviceSynchronize());
		work_size = size;
	}
	return work;
}

/* One call: nsrc sources, with rows or with targets or neither, at @p share. */
static void check_call(const struct graph *gr, const struct dgraph *d, const uint32_t *src, unsigned nsrc,
		       int with_rows, uint32_t ntargets, unsigned share, const char *what)
{
	uint32_t n = gr->n;
	uint32_t *rows = NULL, *cols = NULL, *targets = NULL, *dtargets = NULL;
	if (with_rows)
		ASSERT_CUDA(cudaMallocHost((void **)&rows, (size_t)nsrc * n * 4));
	if (ntargets)
	{
		ASSERT_CUDA(cudaMallocHost((void **)&cols, (size_t)nsrc * ntargets * 4));
		targets = malloc(ntargets * 4);
		ASSERT(targets);
		for (uint32_t j = 0; j < ntargets; j++)
			targets[j] = (uint32_t)((uint64_t)(j % (ntargets - ntargets / 4)) * 40503u % n);
		ASSERT_CUDA(cudaMalloc((void **)&dtargets, ntargets * 4));
		ASSERT_CUDA(cudaMemcpy(dtargets, targets, ntargets * 4, cudaMemcpyHostToDevice));
	}
	struct sssp_dial_params p = {
		.wmax = d->wmax, .share = share, .targets = dtargets, .ntargets = ntargets, .cols = cols, .grid_max = grid_max,
		.heavy_deg = heavy_deg, .heavy_cap = heavy_cap };
	static struct sssp_summary out[SSSP_DIAL_GPU_LANES];
	memset(out, 0x77, sizeof out);
	char err[256] = "";
	void *ws = workspace(sssp_dial_gpu_workspace_size(n, d->wmax, with_rows, ntargets));
	int ret = sssp_dial_gpu_run(&d->g, src, nsrc, ws, &p, stream, out, rows, err, sizeof err);
	if (ret < 0)
		FAIL("%s: sssp_dial_gpu_run: %d: %s", what, ret, err);
	uint32_t *want = malloc((size_t)n * 4);
	ASSERT(want);
	for (unsigned i = 0; i < nsrc; i++)
	{
		struct sssp_summary sum;
		sssp_ref(gr, src[i], want);
		sssp_summarize(want, n, src[i], &sum);
		const struct sssp_summary *got = &out[i];
		if (got->source != sum.source || got->reached != sum.reached || got->sum != sum.sum ||
		    got->ecc != sum.ecc || got->overflow != 0 || got->harmonic != sum.harmonic)
			FAIL("%s, source %u (lane %u of %u): summary (reached %u, sum %" PRIu64
			     ", ecc %u, harmonic %.17g), want (%u, %" PRIu64 ", %u, %.17g)",
			     what, src[i], i, nsrc, got->reached, got->sum, got->ecc, got->harmonic, sum.reached, sum.sum,
			     sum.ecc, sum.harmonic);
		if (rows)
			for (uint32_t v = 0; v < n; v++)
				if (rows[(size_t)i * n + v] != want[v])
					FAIL("%s, source %u: dist[%u] = %u, reference %u", what, src[i], v,
					     rows[(size_t)i * n + v], want[v]);
		for (uint32_t j = 0; j < ntargets; j++)
			if (cols[(size_t)i * ntargets + j] != want[targets[j]])
				FAIL("%s, source %u: column %u (vertex %u) = %u, reference %u", what, src[i], j, targets[j],
				     cols[(size_t)i * ntargets + j], want[targets[j]]);
	}
	free(want);
	cudaFreeHost(rows);
	cudaFreeHost(cols);
	cudaFree(dtargets);
	free(targets);
}

static void check_graph(const struct graph *gr, const char *what)
{
	if (only && !strstr(what, only))
		return;
	struct dgraph d;
	upload(gr, &d);
	uint32_t n = gr->n;
	static uint32_t src[SSSP_DIAL_GPU_LANES];
	for (unsigned i = 0; i < SSSP_DIAL_GPU_LANES; i++)
		src[i] = (uint32_t)((uint64_t)(i % 500) * 2654435761u % n); /* 12 duplicates */
	char name[200];
	snprintf(name, sizeof name, "%s, 512 sources", what);
	check_call(gr, &d, src, SSSP_DIAL_GPU_LANES, 0, 0, 1, name);
	snprintf(name, sizeof name, "%s, 512 sources, share 4, targets", what);
	check_call(gr, &d, src, SSSP_DIAL_GPU_LANES, 0, 40, 4, name);
	snprintf(name, sizeof name, "%s, 64 sources, rows", what);
	check_call(gr, &d, src + 100, SSSP_DIAL_GPU_ROW_LANES, 1, 0, 2, name);
	snprintf(name, sizeof name, "%s, 37 sources, rows and targets", what);
	check_call(gr, &d, src + 200, 37, 1, 9, 1, name);
	snprintf(name, sizeof name, "%s, 1 source", what);
	check_call(gr, &d, src + 300, 1, 0, 0, 1, name);
	/* the heavy path: every vertex of more than one arc heavy; the list overflowing; no heavy vertex */
	heavy_deg = 1;
	snprintf(name, sizeof name, "%s, 512 sources, every vertex heavy", what);
	check_call(gr, &d, src, SSSP_DIAL_GPU_LANES, 0, 0, 2, name);
	heavy_cap = 3;
	snprintf(name, sizeof name, "%s, 64 sources, rows, heavy list of 3", what);
	check_call(gr, &d, src + 7, SSSP_DIAL_GPU_ROW_LANES, 1, 0, 1, name);
	heavy_deg = UINT32_MAX, heavy_cap = 0;
	snprintf(name, sizeof name, "%s, 37 sources, targets, no heavy vertex", what);
	check_call(gr, &d, src + 50, 37, 0, 11, 1, name);
	heavy_deg = 0;
	release(&d);
	printf("dial_gpu: %s: equal\n", what);
}

static void check_generated(int ret, struct graph *g, const struct graph_error *err, const char *what)
{
	if (ret < 0)
		FAIL("%s: %s", what, err->msg);
	check_graph(g, what);
	graph_free(g);
}

int main(int argc, char **argv)
{
	only = argc > 1 ? argv[1] : NULL;
	grid_max = getenv("DIAL_GRID_MAX") ? (unsigned)atoi(getenv("DIAL_GRID_MAX")) : 0;
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0)
	{
		printf("no CUDA device: skipped\n");
		return TEST_SKIP;
	}
	ASSERT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
	struct graph g = { 0 };
	struct graph_error err;

	/* bad arguments */
	check_generated(graph_gen_random(100, 1, 3, 1, 10, 9, &g, &err), &g, &err, "random 100");
	{
		if (graph_gen_random(100, 1, 3, 1, 10, 9, &g, &err) < 0)
			FAIL("%s", err.msg);
		struct dgraph d;
		upload(&g, &d);
		void *ws = workspace(sssp_dial_gpu_workspace_size(100, d.wmax, 1, 0));
		uint32_t src[SSSP_DIAL_GPU_LANES + 1] = { 0 }, bad = 100;
		static struct sssp_summary out[SSSP_DIAL_GPU_LANES + 1];
		uint32_t rows[SSSP_DIAL_GPU_ROW_LANES + 1];
		struct sssp_dial_params p = { .wmax = d.wmax };
		char e[200];
		ASSERT_EQ(sssp_dial_gpu_run(&d.g, src, 0, ws, &p, stream, out, NULL, e, sizeof e), -EINVAL);
		ASSERT_EQ(sssp_dial_gpu_run(&d.g, src, SSSP_DIAL_GPU_LANES + 1, ws, &p, stream, out, NULL, e, sizeof e), -EINVAL);
		ASSERT_EQ(sssp_dial_gpu_run(&d.g, src, SSSP_DIAL_GPU_ROW_LANES + 1, ws, &p, stream, out, rows, e, sizeof e),
			  -EINVAL);
		ASSERT_EQ(sssp_dial_gpu_run(&d.g, &bad, 1, ws, &p, stream, out, NULL, e, sizeof e), -EINVAL);
		ASSERT(strstr(e, "source 100"));
		p.wmax = SSSP_DIAL_WMAX + 1;
		ASSERT_EQ(sssp_dial_gpu_run(&d.g, src, 1, ws, &p, stream, out, NULL, e, sizeof e), -EINVAL);
		release(&d);
		graph_free(&g);
	}

	check_generated(graph_gen_random(300, 0, 2, 1, 10, 1, &g, &err), &g, &err, "random sparse 300 1..10");
	check_generated(graph_gen_random(20000, 1, 9, 1, 10, 6, &g, &err), &g, &err, "random 20000 1..10");
	check_generated(graph_gen_random(30000, 1, 6, 1, 64, 7, &g, &err), &g, &err, "random 30000 1..64");
	check_generated(graph_gen_random(30000, 1, 6, 1, 10, 7, &g, &err), &g, &err, "random 30000 1..10");
	check_generated(graph_gen_random(150, 1, 6, 1, 64, 5, &g, &err), &g, &err, "random 150 1..64");
	check_generated(graph_gen_rmat(13, 16, 0.57, 0.19, 0.19, 1, 10, 10, &g, &err), &g, &err, "R-MAT 13 1..10");
	check_generated(graph_gen_grid(150, 130, 1, 10, 13, &g, &err), &g, &err, "grid 150x130 1..10");
	{
		enum { LEN = 3000 };
		uint32_t *s = malloc(LEN * 4), *dd = malloc(LEN * 4), *w = malloc(LEN * 4);
		ASSERT(s && dd && w);
		for (uint32_t i = 0; i < LEN; i++)
			s[i] = i, dd[i] = (i + 1) % LEN, w[i] = i % 7 ? 64 : 1;
		if (graph_from_arcs(LEN, LEN, s, dd, w, &g, &err) < 0)
			FAIL("%s", err.msg);
		check_graph(&g, "cycle of 3000, weights 64");
		graph_free(&g);
		free(s), free(dd), free(w);
	}
	{
		/* four hubs with an arc to every vertex (heavy at the default threshold, at many levels: their
		 * arcs weigh 1..64), every vertex two arcs on and one back to a hub */
		enum { N = 20000, HUBS = 4, M = HUBS * N + 3 * N };
		uint32_t *s = malloc(M * 4), *dd = malloc(M * 4), *w = malloc(M * 4), k = 0;
		ASSERT(s && dd && w);
		for (uint32_t h = 0; h < HUBS; h++)
			for (uint32_t v = 0; v < N; v++)
				s[k] = h * 5003, dd[k] = v, w[k++] = (v * 7 + h * 13) % 64 + 1;
		for (uint32_t v = 0; v < N; v++)
		{
			s[k] = v, dd[k] = (uint32_t)((uint64_t)v * 40503u % N), w[k++] = v % 5 + 1;
			s[k] = v, dd[k] = (v + 1) % N, w[k++] = 64 - v % 3;
			s[k] = v, dd[k] = (v % HUBS) * 5003, w[k++] = v % 61 + 4;
		}
		if (graph_from_arcs(N, M, s, dd, w, &g, &err) < 0)
			FAIL("%s", err.msg);
		check_graph(&g, "four hubs of 20000 arcs 1..64");
		graph_free(&g);
		free(s), free(dd), free(w);
	}
	if (graph_from_arcs(1, 0, NULL, NULL, NULL, &g, &err) < 0)
		FAIL("%s", err.msg);
	check_graph(&g, "single vertex");
	graph_free(&g);
	cudaFree(work);
	printf("dial_gpu: all summaries, rows and columns equal\n");
	return 0;
}
