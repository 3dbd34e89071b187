/* The dial-brandes engine's GPU form (sssp_dial_brandes_gpu_run, codelets/sssp/dial/dial_brandes_gpu.cu)
 * against the brandes engine's CPU code, batch by batch, bit for bit: every vertex's sum and every
 * arc's flow, and every summary, on random graphs (weights 1..10, unreachable parts), R-MAT (hubs
 * whose pulls go to the whole grid, in chunks), a hub of 2,000 arcs each way, weights 1 and 64 (a ring
 * of 65 slots), two grids joined one way, and a grid of 3 x 60 (its batches overflow the log: halved
 * until they fit, as the engine does); with 512, 300, 37 and 1 sources (duplicates among them), the
 * whole GPU and a quarter of it (share 4), every visit of more than one arc given to the grid
 * (light_work 1), the traversal's heavy phase for every vertex of more than 8 arcs, one workspace
 * reused and starting full of garbage. What differs is printed so that one run's output is enough to
 * find it: the batch and its settings, the first vertices and arcs that differ (degrees, both values),
 * then each of the batch's sources run alone, the first few that differ with the vertex where they do
 * and its distance from them. Bad arguments give -EINVAL. Exit 77 without a GPU. */
#include <cuda_runtime_api.h>

#include "bc_ref.h"
#include "dial/dial_brandes.h"

static cudaStream_t stream;
static void *work;
static size_t work_size;
static const char *only; /* argv[1]: only the graphs whose name contains it */

struct dgraph
{
	struct sssp_brandes_graph g; /* device pointers */
	struct sssp_dial_brandes_shape shape;
	uint32_t wmax;
};

static void *up(const void *host, size_t bytes)
{
	void *d;
	ASSERT_CUDA(cudaMalloc(&d, bytes ? bytes : 4));
	if (bytes)
		ASSERT_CUDA(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
	return d;
}

static void upload(const struct graph *g, const struct both *b, struct dgraph *d)
{
	size_t n1 = ((size_t)g->n + 1) * 8, m4 = g->m * 4;
	d->g = (struct sssp_brandes_graph){ g->n, g->m, up(g->rowptr, n1), up(g->col, m4), up(g->w, m4),
					   up(b->irp, n1), up(b->icol, m4), up(b->iw, m4), NULL };
	sssp_dial_brandes_shape_of(&b->bg, &d->shape);
	d->wmax = bc_wmax(g);
}

static void release(struct dgraph *d)
{
	cudaFree((void *)d->g.rowptr);
	cudaFree((void *)d->g.col);
	cudaFree((void *)d->g.w);
	cudaFree((void *)d->g.in_rowptr);
	cudaFree((void *)d->g.in_col);
	cudaFree((void *)d->g.in_w);
}

static void *workspace(size_t size)
{
	if (size > work_size)
	{
		cudaFree(work);
		ASSERT_CUDA(cudaMalloc(&work, size));
		/* stale contents must not matter (cudaMemset runs on the legacy stream: wait for it) */
		ASSERT_CUDA(cudaMemset(work, 0xab, size));
		ASSERT_CUDA(cudaDeviceSynchronize());
		work_size = size;
	}
	return work;
}

/* One call on the device: the sums (n + m, zeroed first) back in @p got. */
static int gpu_call(const struct dgraph *d, const uint32_t *src, unsigned nsrc, const struct sssp_dial_brandes_params *p,
		    struct tuccompi_exact *got, struct sssp_summary *out, char *err, size_t errlen)
{
	size_t bytes = ((size_t)d->g.n + d->g.m) * sizeof(struct tuccompi_exact);
	static void *dacc;
	static size_t dacc_size;
	if (bytes > dacc_size)
	{
		cudaFree(dacc);
		ASSERT_CUDA(cudaMalloc(&dacc, bytes));
		dacc_size = bytes;
	}
	ASSERT_CUDA(cudaMemset(dacc, 0, bytes));
	ASSERT_CUDA(cudaDeviceSynchronize());
	void *ws = workspace(sssp_dial_brandes_gpu_workspace_size(d->g.n, d->wmax, &d->shape));
	int ret = sssp_dial_brandes_gpu_run(&d->g, src, nsrc, ws, p, &d->shape, dacc, stream, out, err, errlen);
	ASSERT_CUDA(cudaMemcpy(got, dacc, bytes, cudaMemcpyDeviceToHost));
	return ret;
}

/* A batch that differs: its sources alone, the first few that differ, where and at what distance. */
static void explain(const struct graph *g, const struct both *b, const struct dgraph *d, const uint32_t *src,
		    unsigned nsrc, const struct sssp_dial_brandes_params *p)
{
	struct tuccompi_exact *got = malloc(((size_t)g->n + g->m) * sizeof(*got)),
			      *want = malloc(((size_t)g->n + g->m) * sizeof(*want));
	uint32_t *dist = malloc((size_t)g->n * 4);
	struct sssp_summary out[1];
	char err[300];
	unsigned bad = 0;
	for (unsigned i = 0; i < nsrc && bad < 5; i++)
	{
		bc_reference(g, b, src + i, 1, 1, want);
		int ret = gpu_call(d, src + i, 1, p, got, out, err, sizeof err);
		if (ret < 0)
		{
			fprintf(stderr, "  source %u alone: error %d: %s\n", src[i], ret, err);
			bad++;
			continue;
		}
		for (uint64_t x = 0; x < g->n + g->m; x++)
			if (memcmp(&got[x], &want[x], sizeof(got[x])))
			{
				sssp_ref(g, src[i], dist);
				uint32_t v = x < g->n ? (uint32_t)x : 0;
				if (x >= g->n) /* the arc's tail */
					while (g->rowptr[v + 1] <= x - g->n)
						v++;
				fprintf(stderr,
					"  source %u alone differs at %s %llu (vertex %u at distance %u, in-degree %llu, "
					"out-degree %llu): %.17g, the CPU's %.17g\n",
					src[i], x < g->n ? "vertex" : "arc", (unsigned long long)(x < g->n ? x : x - g->n), v,
					dist[v], (unsigned long long)(b->irp[v + 1] - b->irp[v]),
					(unsigned long long)(g->rowptr[v + 1] - g->rowptr[v]), tuccompi_exact_value(&got[x]),
					tuccompi_exact_value(&want[x]));
				bad++;
				break;
			}
	}
	if (!bad)
		fprintf(stderr, "  every source alone gives the CPU's bits: only whole batches differ\n");
	free(got);
	free(want);
	free(dist);
}

/* The sources src[0..k) in batches of @p per (halved while one overflows its log), on the device,
 * against the CPU code's bits batch by batch. */
static void check_batches(const char *what, const struct graph *g, const struct both *b, const struct dgraph *d,
			  const uint32_t *src, uint64_t k, unsigned per, const struct sssp_dial_brandes_params *p)
{
	struct tuccompi_exact *got = malloc(((size_t)g->n + g->m) * sizeof(*got)),
			      *want = malloc(((size_t)g->n + g->m) * sizeof(*want));
	uint32_t *dist = malloc((size_t)g->n * 4);
	static struct sssp_summary out[SSSP_DIAL_BRANDES_GPU_LANES];
	ASSERT(got && want && dist);
	unsigned halved = 0, batches = 0;
	char err[300];
	for (uint64_t at = 0; at < k;)
	{
		unsigned c = k - at < per ? (unsigned)(k - at) : per;
		int ret;
		while ((ret = gpu_call(d, src + at, c, p, got, out, err, sizeof err)) == -ENOSPC && c > 1)
		{
			for (uint64_t x = 0; x < g->n + g->m; x++)
				if (got[x].w[0] | got[x].w[1] | got[x].w[2])
					FAIL("%s: a batch that overflowed its log added to the sums (at %llu)", what, (unsigned long long)x);
			c = (c + 1) / 2, halved++;
		}
		if (ret < 0)
			FAIL("%s: batch of %u sources from %llu: error %d: %s", what, c, (unsigned long long)at, ret, err);
		bc_reference(g, b, src + at, c, p->edges, want);
		char tag[300];
		snprintf(tag, sizeof tag, "%s: batch of %u sources from %llu (light_work %u, visits %u, share %u, heavy_deg %u)",
			 what, c, (unsigned long long)at, p->light_work, p->visits, p->share, p->heavy_deg);
		if (bc_differ(tag, g, b, p->edges ? g->m : 0, got, want))
		{
			explain(g, b, d, src + at, c, p);
			FAIL("%s: other bits than the CPU's", tag);
		}
		for (unsigned i = 0; i < c; i++)
		{
			struct sssp_summary ref;
			sssp_ref(g, src[at + i], dist);
			sssp_summarize(dist, g->n, src[at + i], &ref);
			if (out[i].sum != ref.sum || out[i].reached != ref.reached || out[i].ecc != ref.ecc ||
			    out[i].source != src[at + i] || out[i].harmonic != ref.harmonic)
				FAIL("%s: summary of source %u: sum %llu/%llu reached %u/%u ecc %u/%u", tag, src[at + i],
				     (unsigned long long)out[i].sum, (unsigned long long)ref.sum, out[i].reached, ref.reached,
				     out[i].ecc, ref.ecc);
		}
		at += c, batches++;
	}
	printf("%s: %llu sources in %u batches of up to %u (%u halvings; light_work %u, share %u, heavy_deg %u%s): the "
	       "CPU's bits\n",
	       what, (unsigned long long)k, batches, per, halved, p->light_work, p->share, p->heavy_deg,
	       p->edges ? ", arcs too" : "");
	free(got);
	free(want);
	free(dist);
}

static void check_graph(const char *what, struct graph *g)
{
	if (only && !strstr(what, only))
		return;
	struct both b;
	both_of(g, &b);
	struct dgraph d;
	upload(g, &b, &d);
	uint32_t n = g->n, *src = malloc(((size_t)n + 16) * 4);
	uint64_t k = 0;
	for (uint32_t v = 0; v < n; v++)
		src[k++] = (uint32_t)(((uint64_t)v * 7919) % n);
	for (uint32_t v = 0; v < 16; v++) /* duplicates */
		src[k++] = (v * 13) % n;
	struct sssp_dial_brandes_params p = { .wmax = d.wmax, .edges = 1 };
	check_batches(what, g, &b, &d, src, k, 512, &p);
	p.edges = 0;
	check_batches(what, g, &b, &d, src, k < 1200 ? k : 1200, 300, &p);
	p.light_work = 1; /* every visit of more than one arc to the grid: items, chunks, combine */
	p.edges = 1;
	check_batches(what, g, &b, &d, src, k < 1100 ? k : 1100, 512, &p);
	p.light_work = 0;
	p.share = 4;
	p.heavy_deg = 8;
	check_batches(what, g, &b, &d, src, k < 600 ? k : 600, 37, &p);
	p.share = 0, p.heavy_deg = 0;
	p.visits = 3; /* a small log: the batches overflow, and are halved */
	check_batches(what, g, &b, &d, src, k < 300 ? k : 300, 512, &p);
	p.visits = 0;
	check_batches(what, g, &b, &d, src, 5, 1, &p);
	release(&d);
	both_free(&b);
	free(src);
}

int main(int argc, char **argv)
{
	only = argc > 1 ? argv[1] : NULL;
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
	ASSERT_OK(graph_gen_random(100, 1, 3, 1, 10, 9, &g, &err));
	{
		struct both b;
		both_of(&g, &b);
		struct dgraph d;
		upload(&g, &b, &d);
		uint32_t src[SSSP_DIAL_BRANDES_GPU_LANES + 1] = { 0 };
		static struct sssp_summary out[SSSP_DIAL_BRANDES_GPU_LANES + 1];
		struct tuccompi_exact *acc = malloc((100 + g.m) * sizeof(*acc));
		struct sssp_dial_brandes_params p = { .wmax = d.wmax };
		char e[300];
		ASSERT_EQ(gpu_call(&d, src, 0, &p, acc, out, e, sizeof e), -EINVAL);
		ASSERT_EQ(gpu_call(&d, src, SSSP_DIAL_BRANDES_GPU_LANES + 1, &p, acc, out, e, sizeof e), -EINVAL);
		p.visits = SSSP_DIAL_BRANDES_GPU_VISITS + 1;
		ASSERT_EQ(gpu_call(&d, src, 1, &p, acc, out, e, sizeof e), -EINVAL);
		printf("bad arguments: -EINVAL (%s)\n", e);
		free(acc);
		release(&d);
		both_free(&b);
	}
	graph_free(&g);

	ASSERT_OK(graph_gen_random(2000, 0, 6, 1, 10, 7, &g, &err));
	check_graph("random 2000, out-degrees 0-6, weights 1-10", &g);
	graph_free(&g);
	ASSERT_OK(graph_gen_rmat(11, 16, 0.57, 0.19, 0.19, 1, 10, 3, &g, &err));
	check_graph("R-MAT 11, edge factor 16, weights 1-10", &g);
	graph_free(&g);
	bc_hub_graph(&g, 2000);
	check_graph("a hub of 2000 arcs each way", &g);
	graph_free(&g);
	ASSERT_OK(graph_gen_random(1500, 1, 6, 1, 2, 5, &g, &err));
	for (uint64_t e = 0; e < g.m; e++)
		g.w[e] = g.w[e] % 2 ? 1 : 64;
	check_graph("random 1500, weights 1 and 64", &g);
	graph_free(&g);
	bc_two_parts_graph(&g);
	check_graph("two grids, one-way arcs between them", &g);
	graph_free(&g);
	ASSERT_OK(graph_gen_grid(3, 60, 1, 1, 1, &g, &err));
	check_graph("grid 3x60, unit weights", &g);
	graph_free(&g);
	cudaFree(work);
	return 0;
}
