/* The batched GPU SSSP engine (codelets/sssp/batched/batch_gpu.cu) on a real GPU: every lane of every
 * batch equals the reference Dijkstra (tests/apsp/sssp_ref.h), as full rows and as summaries
 * (sum, eccentricity, reached, overflow), on random, R-MAT, grid, zero-weight and hand-made graphs
 * (zero-weight cycles, unreachable and isolated vertices, distances past SSSP_DIST_LIMIT, n < 32,
 * n = 1); with traversals of 64 lanes (knob lanes 64: 64 sources with repeats, also
 * across the two halves of a row, 33, 1), of 32 lanes (32: 32, 7, 1, and 64 and 33 sources as two
 * traversals) and the default choice (64 for 64 sources, 32 for 32), the statistics saying which
 * ran; delta 0, 1 and the rule's; share 1 and 4; with and without rows; with the engine's knobs at
 * their defaults and forced to every path (never pull, always pull, chunks of 2 arcs, all-thread and
 * all-warp expansion); and four threads running batches of 64 at once
 * on their own streams at share 4. Batches with rows also gather target columns on the device
 * (sssp_batch_params::targets, a list with a repeat and the last vertex): each equals the
 * reference's distance. Bad arguments (a lane count of 48 too) give -EINVAL and a message.
 * Exit 77 without a GPU. */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batched/batch_gpu.h"
#include "common/depth.h"
#include "batched/batch_gpu_logic.h"
#include "graph.h"
#include "sssp_ref.h"
#include "testutil.h"

#define NTARGETS 19

struct gcase
{
	const char *name;
	struct graph g;
	struct sssp_batch_dgraph dg;
	uint32_t rule;
	uint32_t **ref; /* reference rows, per source */
	uint32_t s64[64], s33[33], s32[32], s7[7], s1[1];
	int keep_sources; /* the case set its sources itself */
	uint32_t tgt[NTARGETS], nt; /* target columns (batches with rows) */
	uint32_t *dtgt;             /* their device copy */
};

static void sources(uint32_t n, unsigned k, uint64_t seed, uint32_t *src)
{
	for (unsigned i = 0; i < k; i++)
		src[i] = (uint32_t)(test_splitmix(&seed) % n);
	if (k > 5)
		src[5] = src[2];
	if (k >= 32)
		src[31] = src[0];
	if (k > 40)
		src[40] = src[31], src[k - 1] = src[7]; /* repeats across the two halves of a 64-lane row */
}

static const uint32_t *ref_row(struct gcase *c, uint32_t s)
{
	if (!c->ref[s])
	{
		ASSERT((c->ref[s] = malloc((size_t)c->g.n * sizeof(uint32_t))) != NULL);
		sssp_ref(&c->g, s, c->ref[s]);
	}
	return c->ref[s];
}

static void prepare(struct gcase *c)
{
	struct graph *g = &c->g;
	struct sssp_graph v = { g->n, g->m, g->rowptr, g->col, g->w, g->min_out, g->max_w };
	char err[256];
	if (sssp_batch_gpu_graph_upload(&v, &c->dg, err, sizeof(err)) < 0)
		FAIL("%s: %s", c->name, err);
	c->rule = sssp_depth_rule(&v);
	ASSERT((c->ref = calloc(g->n, sizeof(uint32_t *))) != NULL);
	if (!c->keep_sources)
	{
		sources(g->n, 64, 24, c->s64);
		sources(g->n, 33, 25, c->s33);
		sources(g->n, 32, 21, c->s32);
		sources(g->n, 7, 22, c->s7);
		sources(g->n, 1, 23, c->s1);
	}
	c->nt = g->n < NTARGETS ? g->n : NTARGETS;
	for (uint32_t j = 0; j < c->nt; j++)
		c->tgt[j] = j + 1 == c->nt ? g->n - 1 : (uint32_t)(((uint64_t)j * 2654435761u) % g->n);
	if (c->nt > 4)
		c->tgt[4] = c->tgt[1];
	ASSERT_CUDA(cudaMalloc((void **)&c->dtgt, c->nt * sizeof(uint32_t)));
	ASSERT_CUDA(cudaMemcpy(c->dtgt, c->tgt, c->nt * sizeof(uint32_t), cudaMemcpyHostToDevice));
	/* every reference the threads will need, before any thread starts */
	for (unsigned i = 0; i < 64; i++)
		ref_row(c, c->s64[i]);
	for (unsigned i = 0; i < 33; i++)
		ref_row(c, c->s33[i]);
	for (unsigned i = 0; i < 32; i++)
		ref_row(c, c->s32[i]);
	for (unsigned i = 0; i < 7; i++)
		ref_row(c, c->s7[i]);
	ref_row(c, c->s1[0]);
}

static void release(struct gcase *c)
{
	sssp_batch_gpu_graph_free(&c->dg);
	cudaFree(c->dtgt);
	for (uint32_t v = 0; v < c->g.n; v++)
		free(c->ref[v]);
	free(c->ref);
	graph_free(&c->g);
}

/* The knobs every batch runs with (run_case changes them between batches; the threads of
 * concurrent batches read them only). */
static struct sssp_batch_knobs knobs_now;

static const char *lanes_now(void)
{
	return knobs_now.lanes == 32 ? "32" : knobs_now.lanes == 64 ? "64" : "by the batch";
}

/* One batch on stream s with workspace work (sized for rows and the target columns when rows is
 * given: then the columns are gathered too); checks every lane. */
static void check_batch(struct gcase *c, const uint32_t *src, unsigned nsrc, uint32_t delta, unsigned share,
			uint32_t *rows, cudaStream_t s, void *work, const char *knobs)
{
	struct sssp_summary out[SSSP_BATCH_LANES + 1];
	struct sssp_batch_params p = { .delta = delta, .share = share, .knobs = &knobs_now };
	uint32_t *cols = NULL;
	if (rows)
	{
		ASSERT_CUDA(cudaMallocHost((void **)&cols, (size_t)SSSP_BATCH_LANES * c->nt * sizeof(uint32_t)));
		memset(cols, 0x5a, (size_t)SSSP_BATCH_LANES * c->nt * sizeof(uint32_t));
		p.targets = c->dtgt;
		p.ntargets = c->nt;
		p.cols = cols;
	}
	char err[256] = "";
	memset(out, 0xa5, sizeof(out));
	int r = sssp_batch_gpu_run(&c->dg, src, nsrc, work, &p, s, out, rows, err, sizeof(err));
	if (r)
		FAIL("%s (%s), delta %u, share %u, %u sources: sssp_batch_gpu_run returned %d: %s", c->name, knobs, delta,
		     share, nsrc, r, err);
	ASSERT_EQ(out[nsrc].source, 0xa5a5a5a5a5a5a5a5ull); /* nothing written past the batch */
	uint32_t n = c->g.n;
	for (unsigned i = 0; i < nsrc; i++)
	{
		const uint32_t *ref = ref_row(c, src[i]);
		struct sssp_summary want;
		sssp_summarize(ref, n, src[i], &want);
		if (out[i].source != src[i] || out[i].sum != want.sum || out[i].ecc != want.ecc ||
		    out[i].reached != want.reached || out[i].overflow != want.overflow || out[i].harmonic != want.harmonic)
			FAIL("%s (%s, lanes %s), delta %u, share %u, %u sources, lane %u (source %u): sum %llu ecc %u "
			     "reached %u overflow %u harmonic %.17g; reference sum %llu ecc %u reached %u overflow %u harmonic %.17g",
			     c->name, knobs, lanes_now(), delta, share, nsrc, i, src[i], (unsigned long long)out[i].sum, out[i].ecc,
			     out[i].reached, out[i].overflow, out[i].harmonic, (unsigned long long)want.sum, want.ecc, want.reached,
			     want.overflow, want.harmonic);
		if (out[i].phases < 1)
			FAIL("%s: lane %u ran %u phases", c->name, i, out[i].phases);
		for (uint32_t j = 0; cols && j < c->nt; j++)
			if (cols[(size_t)i * c->nt + j] != ref[c->tgt[j]])
				FAIL("%s (%s, lanes %s), delta %u, share %u, %u sources: lane %u (source %u), target %u (vertex %u): "
				     "%u, reference %u", c->name, knobs, lanes_now(), delta, share, nsrc, i, src[i], j, c->tgt[j],
				     cols[(size_t)i * c->nt + j], ref[c->tgt[j]]);
		if (rows)
			for (uint32_t v = 0; v < n; v++)
				if (rows[(size_t)i * n + v] != ref[v])
					FAIL("%s (%s, lanes %s), delta %u, share %u, %u sources: row %u (source %u) vertex %u: "
					     "%u, reference %u",
					     c->name, knobs, lanes_now(), delta, share, nsrc, i, src[i], v, rows[(size_t)i * n + v],
					     ref[v]);
	}
	if (cols)
		ASSERT_CUDA(cudaFreeHost(cols));
}

/* Knob sets forcing every path (-1: the default). */
struct knob_set
{
	const char *name;
	int64_t pull, density, chunk, sparse;
};

static const struct knob_set knob_sets[] = {
	{ "defaults", -1, -1, -1, -1 },
	{ "never pull, all warps", 0, -1, -1, 0 },
	{ "always pull, chunks of 2", 4294967295, 0, 2, -1 },
	{ "never pull, chunks of 2, all threads", 0, -1, 2, 64 },
};

static void set_knobs(const struct knob_set *k)
{
	unsigned lanes = knobs_now.lanes;
	sssp_batch_knobs_default(&knobs_now);
	knobs_now.lanes = lanes;
	if (k->pull >= 0)
		knobs_now.pull_div = (uint32_t)k->pull;
	if (k->density >= 0)
		knobs_now.pull_density = (uint32_t)k->density;
	if (k->chunk >= 0)
		knobs_now.chunk_min = (uint32_t)k->chunk;
	if (k->sparse >= 0)
		knobs_now.sparse_popc = (uint32_t)k->sparse;
}

static uint64_t batches;
static uint32_t seen_push, seen_pushb, seen_pull, seen_raise, seen_lanes[2];

/* The last batch ran `traversals` traversals of `lanes` sources each. */
static void note_stats(unsigned lanes, unsigned traversals)
{
	struct sssp_batch_stats st;
	ASSERT_EQ(sssp_batch_gpu_last_stats(&st), 0);
	ASSERT_EQ(st.steps, st.push + st.pushb + st.pull + st.clear + st.raise);
	ASSERT(st.grid >= 1 && st.block >= 32);
	ASSERT_EQ(st.lanes, lanes);
	ASSERT_EQ(st.traversals, traversals);
	seen_push += st.push;
	seen_pushb += st.pushb;
	seen_pull += st.pull;
	seen_raise += st.raise;
	seen_lanes[lanes == 64]++;
	batches++;
}

/* 0: by the batch (32 for at most 32 sources, else 64) */
static void set_lanes(unsigned lanes)
{
	knobs_now.lanes = lanes;
}

static void run_case(struct gcase *c, cudaStream_t s)
{
	prepare(c);
	uint32_t n = c->g.n;
	void *work_rows = NULL, *work = NULL;
	ASSERT_CUDA(cudaMalloc(&work_rows, sssp_batch_gpu_workspace_size_cols(n, 1, c->nt)));
	ASSERT_CUDA(cudaMalloc(&work, sssp_batch_gpu_workspace_size(n, 0)));
	ASSERT(sssp_batch_gpu_workspace_size(n, 1) > sssp_batch_gpu_workspace_size(n, 0));
	uint32_t *rows;
	ASSERT_CUDA(cudaMallocHost((void **)&rows, (size_t)SSSP_BATCH_LANES * n * sizeof(uint32_t)));
	uint32_t deltas[3] = { 0, c->rule, 1 };
	for (unsigned k = 0; k < sizeof(knob_sets) / sizeof(knob_sets[0]); k++)
	{
		const char *kn = knob_sets[k].name;
		set_knobs(&knob_sets[k]);
		for (unsigned d = 0; d < 3; d++)
		{
			if (d == 1 && c->rule == 0)
				continue;
			uint32_t dl = deltas[d];
			for (unsigned share = 1; share <= 4; share += 3)
			{
				/* the default: 64 lanes for more than 32 sources, else 32 */
				set_lanes(0);
				check_batch(c, c->s64, 64, dl, share, rows, s, work_rows, kn);
				note_stats(64, 1);
				check_batch(c, c->s32, 32, dl, share, NULL, s, work, kn);
				note_stats(32, 1);
				/* 64 lanes, also for small batches */
				set_lanes(64);
				check_batch(c, c->s64, 64, dl, share, NULL, s, work, kn);
				note_stats(64, 1);
				if (k == 0)
				{
					check_batch(c, c->s33, 33, dl, share, rows, s, work_rows, kn);
					note_stats(64, 1);
					check_batch(c, c->s1, 1, dl, share, rows, s, work_rows, kn);
					note_stats(64, 1);
					check_batch(c, c->s1, 1, dl, share, NULL, s, work, kn);
					note_stats(64, 1);
				}
				/* 32 lanes: larger batches take two traversals */
				set_lanes(32);
				check_batch(c, c->s32, 32, dl, share, rows, s, work_rows, kn);
				note_stats(32, 1);
				if (k == 0)
				{
					check_batch(c, c->s64, 64, dl, share, rows, s, work_rows, kn);
					note_stats(32, 2);
					check_batch(c, c->s33, 33, dl, share, NULL, s, work, kn);
					note_stats(32, 2);
					check_batch(c, c->s7, 7, dl, share, rows, s, work_rows, kn);
					note_stats(32, 1);
					check_batch(c, c->s1, 1, dl, share, rows, s, work_rows, kn);
					note_stats(32, 1);
				}
			}
		}
	}
	set_lanes(0);
	set_knobs(&knob_sets[0]);
	ASSERT_CUDA(cudaFreeHost(rows));
	ASSERT_CUDA(cudaFree(work_rows));
	ASSERT_CUDA(cudaFree(work));
	printf("%-12s n %6u m %7llu rule delta %u: ok\n", c->name, n, (unsigned long long)c->g.m, c->rule);
}

/* ------------------------------------------------------------------ concurrent batches */

struct worker
{
	struct gcase *c;
	int id, nbatches;
};

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	cudaStream_t s;
	ASSERT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	void *work;
	ASSERT_CUDA(cudaMalloc(&work, sssp_batch_gpu_workspace_size_cols(wk->c->g.n, 1, wk->c->nt)));
	uint32_t *rows;
	ASSERT_CUDA(cudaMallocHost((void **)&rows, (size_t)SSSP_BATCH_LANES * wk->c->g.n * sizeof(uint32_t)));
	for (int b = 0; b < wk->nbatches; b++)
	{
		/* rotate the 64 sources so that each thread's batches differ */
		uint32_t src[64];
		for (unsigned i = 0; i < 64; i++)
			src[i] = wk->c->s64[(i + (unsigned)(wk->id * 7 + b)) % 64];
		check_batch(wk->c, src, 64, b % 2 ? wk->c->rule : 0, 4, b % 2 ? rows : NULL, s, work, "4 threads");
	}
	ASSERT_CUDA(cudaFreeHost(rows));
	ASSERT_CUDA(cudaFree(work));
	ASSERT_CUDA(cudaStreamDestroy(s));
	return NULL;
}

static void concurrent(struct gcase *c)
{
	pthread_t th[4];
	struct worker wk[4];
	for (int i = 0; i < 4; i++)
	{
		wk[i] = (struct worker){ c, i, 6 };
		ASSERT_EQ(pthread_create(&th[i], NULL, worker_main, &wk[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(pthread_join(th[i], NULL), 0);
	printf("%-12s 4 threads x 6 batches at share 4: ok\n", c->name);
}

static struct graph from_arcs(uint32_t n, uint64_t m, const uint32_t *s, const uint32_t *d, const uint32_t *w)
{
	struct graph g;
	struct graph_error err;
	memset(&g, 0, sizeof(g));
	if (graph_from_arcs(n, m, s, d, w, &g, &err) < 0)
		FAIL("graph_from_arcs: %s", err.msg);
	return g;
}

int main(void)
{
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0)
	{
		printf("no CUDA device: skipped\n");
		return TEST_SKIP;
	}
	cudaStream_t s;
	ASSERT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	struct graph_error err;
	struct gcase c;
	sssp_batch_knobs_default(&knobs_now);

	/* bad arguments */
	{
		memset(&c, 0, sizeof(c));
		c.name = "args";
		if (graph_gen_random(100, 1, 3, 1, 10, 9, &c.g, &err) < 0)
			FAIL("%s", err.msg);
		prepare(&c);
		void *work;
		ASSERT_CUDA(cudaMalloc(&work, sssp_batch_gpu_workspace_size(100, 0)));
		struct sssp_summary out[SSSP_BATCH_LANES + 1];
		struct sssp_batch_params p = { .share = 1 };
		uint32_t src[SSSP_BATCH_LANES + 1] = { 0 };
		char msg[256] = "";
		ASSERT_EQ(sssp_batch_gpu_run(&c.dg, src, 0, work, &p, s, out, NULL, msg, sizeof(msg)), -EINVAL);
		ASSERT_STR_CONTAINS(msg, "sources");
		struct sssp_batch_knobs k48;
		sssp_batch_knobs_default(&k48);
		k48.lanes = 48;
		struct sssp_batch_params p48 = { .share = 1, .knobs = &k48 };
		ASSERT_EQ(sssp_batch_gpu_run(&c.dg, src, 4, work, &p48, s, out, NULL, msg, sizeof(msg)), -EINVAL);
		ASSERT_STR_CONTAINS(msg, "lanes");
		ASSERT_EQ(sssp_batch_gpu_run(&c.dg, src, SSSP_BATCH_LANES + 1, work, &p, s, out, NULL, msg, sizeof(msg)),
			  -EINVAL);
		src[3] = 100;
		msg[0] = '\0';
		ASSERT_EQ(sssp_batch_gpu_run(&c.dg, src, 4, work, &p, s, out, NULL, msg, sizeof(msg)), -EINVAL);
		ASSERT_STR_CONTAINS(msg, "not a vertex");
		src[3] = 3;
		struct sssp_batch_params pc = { .share = 1 };
		pc.ntargets = 3;
		pc.cols = (uint32_t *)out; /* columns without their device array */
		ASSERT_EQ(sssp_batch_gpu_run(&c.dg, src, 4, work, &pc, s, out, NULL, msg, sizeof(msg)), -EINVAL);
		ASSERT_STR_CONTAINS(msg, "target columns");
		ASSERT_EQ(sssp_batch_gpu_run(&c.dg, src, 4, NULL, &p, s, out, NULL, NULL, 0), -EINVAL);
		ASSERT_CUDA(cudaFree(work));
		release(&c);
	}

	memset(&c, 0, sizeof(c));
	c.name = "random";
	if (graph_gen_random(20000, 1, 9, 1, 10, 1, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, s);
	ASSERT_EQ(c.rule, 0);
	concurrent(&c);
	release(&c);

	memset(&c, 0, sizeof(c));
	c.name = "rmat";
	if (graph_gen_rmat(12, 16, 0.57, 0.19, 0.19, 1, 10, 2, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, s);
	release(&c);

	memset(&c, 0, sizeof(c));
	c.name = "grid";
	if (graph_gen_grid(64, 80, 1, 10, 3, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, s);
	ASSERT(c.rule > 0);
	concurrent(&c);
	release(&c);

	memset(&c, 0, sizeof(c));
	c.name = "zero-weight";
	if (graph_gen_random(2000, 1, 5, 0, 3, 4, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, s);
	release(&c);

	{
		uint32_t sa[] = { 0, 1, 2, 2, 3, 4, 4, 5, 7 };
		uint32_t da[] = { 1, 2, 0, 3, 4, 3, 5, 6, 0 };
		uint32_t wa[] = { 0, 0, 0, 5, 0, 0, 1000000, 0, 1 };
		memset(&c, 0, sizeof(c));
		c.name = "hand-made";
		c.g = from_arcs(9, 9, sa, da, wa);
		run_case(&c, s);
		release(&c);
	}
	{
		uint32_t n = 2400;
		uint32_t *sa = malloc(2 * n * sizeof(uint32_t)), *da = malloc(2 * n * sizeof(uint32_t)),
			 *wa = malloc(2 * n * sizeof(uint32_t));
		ASSERT(sa && da && wa);
		uint64_t m = 0;
		for (uint32_t v = 0; v + 1 < n; v++)
		{
			sa[m] = v, da[m] = v + 1, wa[m++] = 1000000;
			sa[m] = v + 1, da[m] = v, wa[m++] = 999999;
		}
		memset(&c, 0, sizeof(c));
		c.name = "heavy-chain";
		c.g = from_arcs(n, m, sa, da, wa);
		free(sa);
		free(da);
		free(wa);
		/* the ends reach 2.4e9 >= SSSP_DIST_LIMIT: those lanes must say overflow (in both halves of
		 * a 64-lane row) */
		sources(n, 64, 24, c.s64);
		sources(n, 33, 25, c.s33);
		sources(n, 32, 21, c.s32);
		sources(n, 7, 22, c.s7);
		sources(n, 1, 23, c.s1);
		c.s64[0] = c.s64[33] = c.s33[32] = 0;
		c.s64[1] = c.s64[63] = n - 1;
		c.s32[0] = 0;
		c.s32[1] = n - 1;
		c.s1[0] = n - 1;
		c.keep_sources = 1;
		run_case(&c, s);
		release(&c);
	}
	{
		uint32_t sa[] = { 0, 1, 2, 3, 4, 2 }, da[] = { 1, 2, 3, 4, 0, 0 }, wa[] = { 3, 1, 4, 1, 5, 9 };
		memset(&c, 0, sizeof(c));
		c.name = "n=5";
		c.g = from_arcs(5, 6, sa, da, wa);
		run_case(&c, s);
		release(&c);
	}
	{
		memset(&c, 0, sizeof(c));
		c.name = "n=1";
		c.g = from_arcs(1, 0, NULL, NULL, NULL);
		run_case(&c, s);
		release(&c);
	}
	ASSERT(seen_push > 0 && seen_pushb > 0 && seen_pull > 0 && seen_raise > 0);
	ASSERT(seen_lanes[0] > 0 && seen_lanes[1] > 0);
	ASSERT_CUDA(cudaStreamDestroy(s));
	printf("%llu batches checked lane by lane (%u of 32-lane traversals, %u of 64); steps seen: push %u, chunk %u, "
	       "pull %u, raise %u\n",
	       (unsigned long long)batches, seen_lanes[0], seen_lanes[1], seen_push, seen_pushb, seen_pull, seen_raise);
	return 0;
}
