/* bench/bench_phast: what PHAST buys on one graph, measured in one run.
 *
 *   bench/bench_phast (GRAPH | --gen SPEC) [--cache FILE] [--threads T] [--sources K] [--dijkstra D]
 *               [--gpu-sources G] [--lanes 32|64|128|256] [--rows] [--no-gpu] [--seed S]
 *               [--knob NAME=VALUE[,...]]
 *
 * SPEC: tuccompi-apsp's generators: road:N, grid:RxC (weights 1-10), random:N (out-degree 1-9,
 * weights 1-10), rmat:SCALE, with their options. --knob sets the GPU sweeps' knobs (struct
 * sssp_phast_gpu_knobs, phast_gpu.h): chain_vertices, chain_arcs, split, split_min, filter,
 * profile (the first N passes print where their time went) and store_all (1: every row stored, also
 * the lowest level's that no output reads), narrow (1, the default: 16-bit rows below the
 * split levels where the distances fit; 2: every pass tries them first; 0: 32-bit rows only).
 * Prints the contraction hierarchy (built, or read from --cache and rebuilt when stale or
 * corrupt), its upward search spaces, then the SSSP rate of: Dijkstra on one core and on T
 * threads (sssp_dijkstra), PHAST on one core and on T threads (16 sources per sweep), PHAST on
 * the GPU (when built with CUDA and a device is present); checks the summaries (and a few
 * full rows) of the sources they share; prints the ratios and the break-even number of
 * sources: preprocessing time / time saved per source. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "phast/ch.h"
#include "phast/phast.h"
#include "sssp.h"
#ifdef SSSP_WITH_CUDA
#include <cuda_runtime_api.h>

#include "phast/phast_gpu.h"
#endif

static void usage(void)
{
	printf("usage: bench/bench_phast (GRAPH | --gen road:N|grid:RxC|random:N|rmat:SCALE) [--cache FILE]\n"
	       "       [--threads T] [--sources K] [--dijkstra D] [--gpu-sources G] [--lanes 32|64|128|256]\n"
	       "       [--rows] [--no-gpu] [--seed S] [--knob NAME=VALUE[,...]]\n");
}

/* Vertices and arcs of the upward search space of a source (all reachable by up arcs). */
static void up_space(const struct sssp_ch_view *v, uint32_t src, uint8_t *seen, uint32_t *stack, uint64_t *verts,
		     uint64_t *arcs)
{
	uint32_t top = 0, s = v->pos[src];
	uint64_t nv = 0, na = 0;
	seen[s] = 1;
	stack[top++] = s;
	while (top)
	{
		uint32_t p = stack[--top];
		nv++;
		for (uint64_t e = v->up_start[p]; e < v->up_start[p + 1]; e++)
		{
			na++;
			if (!seen[v->up[e].v])
			{
				seen[v->up[e].v] = 1;
				stack[top++] = v->up[e].v;
			}
		}
	}
	*verts = nv;
	*arcs = na;
	/* unmark */
	seen[s] = 0;
	top = 0;
	stack[top++] = s;
	while (top)
	{
		uint32_t p = stack[--top];
		for (uint64_t e = v->up_start[p]; e < v->up_start[p + 1]; e++)
			if (seen[v->up[e].v])
			{
				seen[v->up[e].v] = 0;
				stack[top++] = v->up[e].v;
			}
	}
}

/* ------------------------------------------------------------ threads over sources */

struct job
{
	const struct sssp_graph *g;
	const struct sssp_ch_view *v;
	const uint32_t *src;
	uint32_t k;
	struct sssp_summary *out;
	uint64_t next; /* atomic */
	int phast;     /* else Dijkstra */
};

static void *worker(void *arg)
{
	struct job *j = arg;
	uint32_t n = j->g->n;
	if (j->phast)
	{
		void *work = malloc(sssp_phast_cpu_workspace_size(n, SSSP_PHAST_LANES));
		if (!work)
			bench_die("out of memory");
		for (;;)
		{
			uint64_t s = __atomic_fetch_add(&j->next, SSSP_PHAST_LANES, __ATOMIC_RELAXED);
			if (s >= j->k)
				break;
			unsigned c = j->k - s < SSSP_PHAST_LANES ? (unsigned)(j->k - s) : SSSP_PHAST_LANES;
			sssp_phast_cpu(j->v, j->src + s, c, work, j->out + s, NULL);
		}
		free(work);
	}
	else
	{
		uint32_t *d = malloc((size_t)n * 4), *h = malloc((size_t)n * 4), *p = malloc((size_t)n * 4);
		if (!d || !h || !p)
			bench_die("out of memory");
		for (;;)
		{
			uint64_t s = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
			if (s >= j->k)
				break;
			sssp_dijkstra(j->g, j->src[s], d, h, p, &j->out[s]);
		}
		free(d);
		free(h);
		free(p);
	}
	return NULL;
}

/* Seconds to run k sources on T threads. */
static double run(const struct sssp_graph *g, const struct sssp_ch_view *v, const uint32_t *src, uint32_t k,
		  unsigned T, int phast, struct sssp_summary *out)
{
	struct job j = { g, v, src, k, out, 0, phast };
	pthread_t th[256];
	double t0 = bench_now();
	for (unsigned i = 1; i < T; i++)
		pthread_create(&th[i], NULL, worker, &j);
	worker(&j);
	for (unsigned i = 1; i < T; i++)
		pthread_join(th[i], NULL);
	return bench_now() - t0;
}

static int same(const struct sssp_summary *a, const struct sssp_summary *b)
{
	return a->source == b->source && a->sum == b->sum && a->ecc == b->ecc && a->reached == b->reached;
}

int main(int argc, char **argv)
{
	const char *path = NULL, *gen = NULL, *cache = NULL;
	unsigned T = 0, lanes = 128, rows = 0, nogpu = 0;
	bench_name = "bench_phast";
#ifdef SSSP_WITH_CUDA
	struct sssp_phast_gpu_knobs kn;
	sssp_phast_gpu_knobs_default(&kn);
	const struct bench_knob knob_table[] = { { "chain_vertices", &kn.chain_vertices }, { "chain_arcs", &kn.chain_arcs },
						 { "split", &kn.split },			{ "split_min", &kn.split_min },
						 { "filter", &kn.filter },			{ "profile", &kn.profile },
						 { "store_all", &kn.store_all },		{ "narrow", &kn.narrow } };
#endif
	uint32_t K = 1024, D = 8, G = 16384;
	uint64_t seed = 1;
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (!strcmp(a, name) && (val ? (i++, 1) : (bench_die("%s needs a value", name), 0)))
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
		{
			usage();
			return 0;
		}
		else if (ARG("--gen"))
			gen = val;
		else if (ARG("--cache"))
			cache = val;
		else if (ARG("--threads"))
			T = (unsigned)atoi(val);
		else if (ARG("--sources"))
			K = (uint32_t)atol(val);
		else if (ARG("--dijkstra"))
			D = (uint32_t)atol(val);
		else if (ARG("--gpu-sources"))
			G = (uint32_t)atol(val);
		else if (ARG("--lanes"))
			lanes = (unsigned)atoi(val);
		else if (ARG("--seed"))
			seed = bench_uint("--seed", val, 0, UINT64_MAX);
		else if (ARG("--knob"))
#ifdef SSSP_WITH_CUDA
			bench_knobs(knob_table, sizeof(knob_table) / sizeof(knob_table[0]), val);
#else
			bench_die("--knob: the GPU sweeps' knobs need a CUDA build");
#endif
		else if (!strcmp(a, "--rows"))
			rows = 1;
		else if (!strcmp(a, "--no-gpu"))
			nogpu = 1;
		else if (a[0] == '-')
			bench_die("unknown option '%s' (--help)", a);
		else
			path = a;
	}
	if (!path == !gen)
		bench_die("give a GRAPH file or --gen SPEC");
	if (T == 0)
	{
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		T = c > 0 ? (unsigned)c : 1;
	}
	if (T > 256)
		T = 256;
	if (D < 1)
		D = 1;
	if (K < D)
		K = D;

	struct graph gr;
	double t0 = bench_now();
	bench_load(path, gen, seed, &gr);
	struct sssp_graph g = apsp_graph_view(&gr);
	printf("graph: %s, n = %" PRIu32 ", m = %" PRIu64 " (%.2f s to %s)\n", path ? path : gen, g.n, g.m, bench_now() - t0,
	       path ? "read" : "generate");

	/* ---------------------------------------------------------- the hierarchy */
	char err[512];
	struct sssp_ch *ch = NULL;
	t0 = bench_now();
	uint64_t key = sssp_graph_hash(&g);
	double t_hash = bench_now() - t0;
	int from_cache = 0;
	if (cache)
	{
		t0 = bench_now();
		int rc = sssp_ch_read(cache, key, &ch, err, sizeof err);
		if (rc == 0)
		{
			from_cache = 1;
			printf("hierarchy: read from %s in %.2f s (graph hash %.2f s)\n", cache, bench_now() - t0, t_hash);
		}
		else if (rc != -ENOENT)
			printf("hierarchy: %s\n", err);
	}
	struct sssp_ch_stats st;
	if (!ch)
	{
		if (sssp_ch_build(&g, T, &ch, &st, err, sizeof err) < 0)
			bench_die("%s", err);
		if (cache && sssp_ch_write(ch, cache, key, err, sizeof err) < 0)
			printf("hierarchy: %s\n", err);
	}
	sssp_ch_stats(ch, &st);
	double pre_s = st.build_s;
	printf("preprocessing: %.2f s on %u threads%s, %u rounds; levels %u; shortcuts %" PRIu64 " (%.2f per vertex); "
	       "up arcs %" PRIu64 ", down arcs %" PRIu64 " (%.2f per vertex)\n",
	       st.build_s, st.threads, from_cache ? " (when built; read from the cache now)" : "", st.rounds, st.levels,
	       st.shortcuts, (double)st.shortcuts / (g.n ? g.n : 1), st.up_arcs, st.down_arcs,
	       (double)st.down_arcs / (g.n ? g.n : 1));
	struct sssp_ch_view v;
	sssp_ch_view(ch, &v);
	if (v.levels)
	{
		/* the lowest level: no vertex below it reads its rows in the downward sweep */
		uint32_t low = v.level_start[v.levels] - v.level_start[v.levels - 1];
		uint64_t low_in = v.down_start[v.level_start[v.levels]] - v.down_start[v.level_start[v.levels - 1]];
		printf("lowest level: %" PRIu32 " vertices (%.1f%%), %" PRIu64 " down arcs into them (%.1f%%)\n", low,
		       100.0 * low / (g.n ? g.n : 1), low_in, 100.0 * low_in / (st.down_arcs ? st.down_arcs : 1));
	}

	/* sources: deterministic for the seed */
	uint32_t KK = K > G ? K : G;
	uint32_t *src = malloc((size_t)KK * sizeof *src);
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
	for (uint32_t i = 0; i < KK; i++)
	{
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		src[i] = (uint32_t)(x % g.n);
	}
	{
		uint8_t *seen = calloc(g.n, 1);
		uint32_t *stack = malloc((size_t)g.n * sizeof *stack);
		uint64_t sv = 0, sa = 0, mv = 0;
		uint32_t ns = K < 256 ? K : 256;
		for (uint32_t i = 0; i < ns; i++)
		{
			uint64_t a, b;
			up_space(&v, src[i], seen, stack, &a, &b);
			sv += a;
			sa += b;
			mv = a > mv ? a : mv;
		}
		printf("upward search space (%u sources): %.0f vertices, %.0f arcs on average, %" PRIu64 " vertices at most\n",
		       ns, (double)sv / ns, (double)sa / ns, mv);
		free(seen);
		free(stack);
	}

	/* ---------------------------------------------------------- CPU */
	struct sssp_summary *sd1 = calloc(D, sizeof *sd1), *sdT = calloc((size_t)D * T, sizeof *sdT);
	struct sssp_summary *sp1 = calloc(K, sizeof *sp1), *spT = calloc(K, sizeof *spT);
	uint32_t DT = D * T < KK ? D * T : KK;
	double td1 = run(&g, &v, src, D, 1, 0, sd1) / D;
	double tdT = run(&g, &v, src, DT, T, 0, sdT) / DT;
	uint32_t K1 = K < 64 ? K : 64;
	double tp1 = run(&g, &v, src, K1, 1, 1, sp1) / K1;
	double tpT = run(&g, &v, src, K, T, 1, spT) / K;
	int ok = 1;
	for (uint32_t i = 0; i < D; i++)
		if (!same(&sd1[i], &spT[i]) || !same(&sd1[i], &sdT[i]) || (i < K1 && !same(&sd1[i], &sp1[i])))
		{
			printf("MISMATCH: source %" PRIu32 ": Dijkstra sum %" PRIu64 " reached %" PRIu32 ", PHAST sum %" PRIu64
			       " reached %" PRIu32 "\n",
			       src[i], sd1[i].sum, sd1[i].reached, spT[i].sum, spT[i].reached);
			ok = 0;
		}
	/* two full rows */
	uint32_t *rd = malloc((size_t)g.n * 4), *rp = malloc((size_t)g.n * 4), *h = malloc((size_t)g.n * 4),
		 *pp = malloc((size_t)g.n * 4);
	void *work = malloc(sssp_phast_cpu_workspace_size(g.n, 1));
	for (uint32_t i = 0; i < 2 && i < D; i++)
	{
		struct sssp_summary s1, s2;
		sssp_dijkstra(&g, src[i], rd, h, pp, &s1);
		uint32_t *rr[1] = { rp };
		sssp_phast_cpu(&v, &src[i], 1, work, &s2, rr);
		if (memcmp(rd, rp, (size_t)g.n * 4) != 0)
		{
			printf("MISMATCH: row of source %" PRIu32 " differs (CPU PHAST)\n", src[i]);
			ok = 0;
		}
	}
	free(work);
	printf("Dijkstra, 1 core:        %10.1f SSSP/s (%.2f ms per source, %u sources)\n", 1 / td1, td1 * 1e3, D);
	printf("Dijkstra, %3u threads:   %10.1f SSSP/s (%u sources)\n", T, 1 / tdT, DT);
	printf("PHAST CPU, 1 core:       %10.1f SSSP/s (%.3f ms per source, %u sources) = %.1fx Dijkstra on 1 core\n",
	       1 / tp1, tp1 * 1e3, K1, td1 / tp1);
	printf("PHAST CPU, %3u threads:  %10.1f SSSP/s (%u sources) = %.1fx Dijkstra on %u threads\n", T, 1 / tpT, K,
	       tdT / tpT, T);
	if (tdT > tpT)
		printf("break-even (CPU, %u threads): %.0f sources (preprocessing %.2f s / %.3f ms saved per source)\n", T,
		       pre_s / (tdT - tpT), pre_s, (tdT - tpT) * 1e3);

	/* ---------------------------------------------------------- GPU */
#ifdef SSSP_WITH_CUDA
	int ndev = 0;
	if (!nogpu && cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0)
	{
		const void *p[SSSP_CH_NBUF];
		size_t sz[SSSP_CH_NBUF];
		void *dbuf[SSSP_CH_NBUF];
		sssp_ch_buffers(ch, p, sz, SSSP_CH_NBUF);
		t0 = bench_now();
		for (int i = 0; i < SSSP_CH_NBUF; i++)
			if (cudaMalloc(&dbuf[i], sz[i] ? sz[i] : 8) != cudaSuccess ||
			    cudaMemcpy(dbuf[i], p[i], sz[i], cudaMemcpyHostToDevice) != cudaSuccess)
				bench_die("cannot copy the hierarchy to the GPU");
		double t_up = bench_now() - t0;
		struct sssp_ch_dims dims;
		sssp_ch_dims(ch, &dims);
		struct sssp_ch_view dv;
		sssp_ch_view_from(&dims, (const void *const *)dbuf, &dv);
		size_t ws = sssp_phast_gpu_workspace_size(g.n, lanes);
		void *dwork;
		cudaStream_t stream;
		if (!ws || cudaMalloc(&dwork, ws) != cudaSuccess || cudaStreamCreate(&stream) != cudaSuccess)
			bench_die("cannot allocate the GPU workspace (lanes 32, 64, 128 or 256)");
		struct sssp_summary *sg = calloc(G, sizeof *sg);
		uint32_t **grows = NULL;
		if (rows)
		{
			grows = calloc(G, sizeof *grows);
			for (uint32_t i = 0; i < lanes && i < G; i++)
				if (cudaMallocHost((void **)&grows[i], (size_t)g.n * 4) != cudaSuccess)
					bench_die("cannot allocate pinned rows");
			for (uint32_t i = lanes; i < G; i++)
				grows[i] = grows[i % lanes]; /* the same buffers again: the copies are timed, not kept */
		}
		/* warm-up pass (module load, tuner's decision) */
		if (sssp_phast_gpu(&dv, src, lanes < G ? lanes : G, lanes, dwork, ws, sg, NULL, stream, 1, &kn, err, sizeof err) < 0)
			bench_die("%s", err);
		t0 = bench_now();
		if (sssp_phast_gpu(&dv, src, G, lanes, dwork, ws, sg, grows, stream, 1, &kn, err, sizeof err) < 0)
			bench_die("%s", err);
		double tg = (bench_now() - t0) / G;
		for (uint32_t i = 0; i < D && i < G; i++)
			if (!same(&sd1[i], &sg[i]))
			{
				printf("MISMATCH: source %" PRIu32 ": Dijkstra sum %" PRIu64 ", GPU PHAST sum %" PRIu64 "\n", src[i],
				       sd1[i].sum, sg[i].sum);
				ok = 0;
			}
		/* one full row */
		uint32_t *pr;
		if (cudaMallocHost((void **)&pr, (size_t)g.n * 4) == cudaSuccess)
		{
			struct sssp_summary s1, s2;
			uint32_t *rr[1] = { pr };
			sssp_dijkstra(&g, src[0], rd, h, pp, &s1);
			if (sssp_phast_gpu(&dv, src, 1, lanes, dwork, ws, &s2, rr, stream, 1, &kn, err, sizeof err) < 0 ||
			    memcmp(rd, pr, (size_t)g.n * 4) != 0)
			{
				printf("MISMATCH: row of source %" PRIu32 " differs (GPU PHAST)\n", src[0]);
				ok = 0;
			}
			cudaFreeHost(pr);
		}
		printf("PHAST GPU, %u lanes%s:  %10.1f SSSP/s (%.1f us per source, %u sources; hierarchy upload %.2f s) = "
		       "%.1fx Dijkstra on %u threads, %.1fx PHAST on %u threads\n",
		       lanes, rows ? ", rows" : "", 1 / tg, tg * 1e6, G, t_up, tdT / tg, T, tpT / tg, T);
		unsigned long long np, nr;
		sssp_phast_gpu_narrow_counts(&np, &nr);
		printf("16-bit rows (knob narrow): %llu passes, %llu of them run again with 32-bit rows\n", np, nr);
		if (tdT > tg)
			printf("break-even (GPU): %.0f sources (preprocessing %.2f s / %.3f ms saved per source against Dijkstra "
			       "on %u threads)\n",
			       pre_s / (tdT - tg), pre_s, (tdT - tg) * 1e3, T);
		if (rows)
		{
			for (uint32_t i = 0; i < lanes && i < G; i++)
				cudaFreeHost(grows[i]);
			free(grows);
		}
		free(sg);
		cudaFree(dwork);
		for (int i = 0; i < SSSP_CH_NBUF; i++)
			cudaFree(dbuf[i]);
		cudaStreamDestroy(stream);
	}
	else
		printf("PHAST GPU: %s\n", nogpu ? "not asked for" : "no CUDA device");
#else
	(void)nogpu;
	(void)rows;
	(void)lanes;
	printf("PHAST GPU: built without CUDA\n");
#endif
	printf("distances: %s\n", ok ? "equal to Dijkstra's on every source checked" : "MISMATCH (see above)");
	free(rd);
	free(rp);
	free(h);
	free(pp);
	free(src);
	free(sd1);
	free(sdT);
	free(sp1);
	free(spT);
	sssp_ch_free(ch);
	graph_free(&gr);
	return ok ? 0 : 1;
}
