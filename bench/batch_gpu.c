/* bench/batch_gpu: throughput of the batched GPU SSSP engine (codelets/sssp/batch_gpu.cu).
 *
 * Loads or generates a graph, copies it and its transpose to the GPU once, then for every
 * (lanes, delta, streams, share) asked for runs K batches of N sources on S host threads, each with
 * its own non-blocking stream and workspace (as S StarPU stream workers would), timed with
 * CUDA events (first start to last end over all streams) after one warm-up batch per stream.
 * Prints SSSP/s (sources per second: K x N over the span), milliseconds per batch as one thread
 * sees it, the traversals of a batch (lanes x traversals: 64, 32, or 32x2 for 64 sources at 32
 * lanes), steps per batch (push, chunk, pull, clear, raise; summed over its traversals),
 * microseconds per step (and, on a line of its own, device milliseconds per batch in each step kind,
 * timed by the device loop at its grid barriers), and the ratio to a baseline measured in the same run: the paper's
 * one-source Crauser engine (sssp_gpu_run) on one stream. Batch 0's first --check sources and its
 * last one (the upper half of a 64-lane row) are compared with the CPU Dijkstra (summaries), for
 * every configuration.
 *
 *   batch_gpu --gen random:1049088 --batches 64 --delta rule,0 --streams 1,4 [--share LIST]
 *   batch_gpu --gen rmat:20 --lanes 32,64       (32-lane traversals of 32 sources, then 64 of 64)
 *   batch_gpu --gen grid:1024x1024 --delta rule,0,50 --streams 4 --csv out.csv
 *   batch_gpu graph.gr --batches 16
 *
 * Options: --gen random:N[:D1-D2[:W1-W2]] | rmat:SCALE[:EF] | grid:RxC (weights 1..10, as
 * tuccompi-apsp), or a graph file; --seed S (1); --batches K (32, per configuration); --nsrc N (1 to
 * SSSP_BATCH_LANES = 64; default: the lanes of the configuration, 64 without --lanes);
 * --lanes LIST of 32, 64 or default (sets TUCCOMPI_SSSP_BATCH_LANES for each configuration; without
 * it the environment's setting stays);
 * --delta LIST of numbers or "rule" (rule); --streams LIST (1); --share LIST (default: = streams);
 * --rows (also copy the distance rows to pinned host memory); --any-sources (sources may be
 * vertices without out-arcs; by default they are drawn among vertices with some); --check N (1;
 * 0: none); --baseline N (sources for the Crauser baseline, 8; 0: none); --csv FILE (append);
 * --dry-run (the host side only: graph, transpose, delta rule, CPU check; no GPU needed).
 * Knobs of the engine: TUCCOMPI_SSSP_BATCH_PULL / _SPARSE / _CHUNK / _TIMEOUT (batch_gpu.h). */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "batch_gpu.h"
#include "batch_gpu_logic.h"
#include "graph.h"
#include "sssp.h"

#define CK(call)                                                                                       \
	do                                                                                             \
	{                                                                                              \
		cudaError_t e_ = (call);                                                               \
		if (e_ != cudaSuccess)                                                                 \
		{                                                                                      \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
			exit(1);                                                                       \
		}                                                                                      \
	} while (0)

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "batch_gpu: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(2);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* ------------------------------------------------------------------ graph */

static int parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	char *e;
	*lo = strtoull(s, &e, 10);
	if (*e != '-')
		return -1;
	*hi = strtoull(e + 1, &e, 10);
	return *e || *lo > *hi ? -1 : 0;
}

static void load_graph(const char *gen, const char *file, uint64_t seed, struct graph *g)
{
	struct graph_error err = { "" };
	int ret;
	if (file)
	{
		struct graph_read_options ro = { .format = GRAPH_FORMAT_AUTO };
		if ((ret = graph_read(file, &ro, g, &err)) < 0)
			die("%s", err.msg);
		return;
	}
	char kind[16] = "", rest[128] = "";
	if (sscanf(gen, "%15[^:]:%127s", kind, rest) < 2)
		die("--gen '%s': expected random:N, rmat:SCALE or grid:RxC", gen);
	char *parts[3] = { 0 };
	int np = 0;
	for (char *p = strtok(rest, ":"); p && np < 3; p = strtok(NULL, ":"))
		parts[np++] = p;
	char *end;
	if (!strcmp(kind, "random"))
	{
		uint64_t n = strtoull(parts[0], &end, 10), d1 = 1, d2 = 9, w1 = 1, w2 = 10;
		if (*end || !n || n >= UINT32_MAX || (np > 1 && parse_range(parts[1], &d1, &d2)) ||
		    (np > 2 && parse_range(parts[2], &w1, &w2)))
			die("--gen '%s': expected random:N[:D1-D2[:W1-W2]]", gen);
		ret = graph_gen_random((uint32_t)n, (uint32_t)d1, (uint32_t)d2, (uint32_t)w1, (uint32_t)w2, seed, g, &err);
	}
	else if (!strcmp(kind, "rmat"))
	{
		uint64_t scale = strtoull(parts[0], &end, 10), ef = 16;
		if (*end || scale > 31 || (np > 1 && !(ef = strtoull(parts[1], &end, 10))))
			die("--gen '%s': expected rmat:SCALE[:EDGEFACTOR]", gen);
		ret = graph_gen_rmat((unsigned)scale, (unsigned)ef, 0.57, 0.19, 0.19, 1, 10, seed, g, &err);
	}
	else if (!strcmp(kind, "grid"))
	{
		uint64_t r = strtoull(parts[0], &end, 10), c = 0;
		if (*end == 'x')
			c = strtoull(end + 1, &end, 10);
		if (*end || !r || !c || r * c >= UINT32_MAX)
			die("--gen '%s': expected grid:ROWSxCOLS", gen);
		ret = graph_gen_grid((uint32_t)r, (uint32_t)c, 1, 10, seed, g, &err);
	}
	else
		die("--gen '%s': unknown generator (random, rmat, grid)", gen);
	if (ret < 0)
		die("%s", err.msg);
}

static void *upload(const void *host, size_t bytes)
{
	void *d = NULL;
	CK(cudaMalloc(&d, bytes ? bytes : 4));
	if (bytes)
		CK(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice));
	return d;
}

/* ------------------------------------------------------------------ one configuration */

struct config
{
	uint32_t delta;
	unsigned share, streams;
};

struct run
{
	const struct sssp_batch_dgraph *dg;
	const struct graph *g;
	struct config cfg;
	unsigned nsrc, batches;
	int rows, any_sources;
	uint64_t seed;
	void **work;            /* per stream */
	uint32_t **rowbuf;      /* per stream, pinned */
	cudaStream_t *stream;
	pthread_mutex_t lock;
	unsigned next;          /* next batch index */
	struct sssp_summary first[SSSP_BATCH_LANES]; /* batch 0's results */
	/* sums over the timed batches */
	uint64_t steps, push, pushb, pull, clear, raise;
	uint64_t kind_ns[SSSP_BATCH_DONE]; /* device time per step kind (prologue, push, pushb, pull, clear, raise) */
	double host_s;          /* sum of per-batch host times */
	uint32_t grid, block, chunk, lanes, traversals;
};

struct thread_arg
{
	struct run *r;
	unsigned k;
	cudaEvent_t start, stop;
};

static void batch_sources(const struct run *r, unsigned b, uint32_t *src)
{
	uint64_t s = r->seed * 1000003u + b;
	for (unsigned i = 0; i < r->nsrc; i++)
	{
		uint32_t v;
		int tries = 0;
		do
			v = (uint32_t)(splitmix(&s) % r->g->n);
		while (!r->any_sources && r->g->rowptr[v + 1] == r->g->rowptr[v] && ++tries < 1000);
		src[i] = v;
	}
}

static void one_batch(struct run *r, unsigned k, unsigned b, struct sssp_summary *out)
{
	uint32_t src[SSSP_BATCH_LANES];
	char err[256];
	batch_sources(r, b, src);
	struct sssp_batch_params p = { r->cfg.delta, r->cfg.share };
	int ret = sssp_batch_gpu_run(r->dg, src, r->nsrc, r->work[k], &p, r->stream[k], out,
				     r->rows ? r->rowbuf[k] : NULL, err, sizeof(err));
	if (ret < 0)
	{
		fprintf(stderr, "batch_gpu: %s\n", err);
		exit(1);
	}
}

static void *bench_thread(void *arg)
{
	struct thread_arg *ta = arg;
	struct run *r = ta->r;
	struct sssp_summary out[SSSP_BATCH_LANES];
	struct sssp_batch_stats st;
	one_batch(r, ta->k, 0, out); /* warm-up (tuner decisions, first-touch) */
	if (ta->k == 0)
		memcpy(r->first, out, sizeof(out));
	CK(cudaEventRecord(ta->start, r->stream[ta->k]));
	for (;;)
	{
		pthread_mutex_lock(&r->lock);
		unsigned b = r->next < r->batches ? r->next++ : UINT32_MAX;
		pthread_mutex_unlock(&r->lock);
		if (b == UINT32_MAX)
			break;
		double t0 = now();
		one_batch(r, ta->k, b + 1, out);
		double dt = now() - t0;
		sssp_batch_gpu_last_stats(&st);
		pthread_mutex_lock(&r->lock);
		r->host_s += dt;
		r->steps += st.steps;
		r->push += st.push;
		r->pushb += st.pushb;
		r->pull += st.pull;
		r->clear += st.clear;
		r->raise += st.raise;
		for (int i = 0; i < SSSP_BATCH_DONE; i++)
			r->kind_ns[i] += st.kind_ns[i];
		r->grid = st.grid;
		r->block = st.block;
		r->chunk = st.chunk;
		r->lanes = st.lanes;
		r->traversals = st.traversals;
		pthread_mutex_unlock(&r->lock);
	}
	CK(cudaEventRecord(ta->stop, r->stream[ta->k]));
	CK(cudaEventSynchronize(ta->stop));
	return NULL;
}

/* Seconds from the first start to the last stop over all streams. */
static double run_config(struct run *r)
{
	struct thread_arg ta[64];
	pthread_t th[64];
	r->next = 0;
	r->steps = r->push = r->pushb = r->pull = r->clear = r->raise = 0;
	memset(r->kind_ns, 0, sizeof(r->kind_ns));
	r->host_s = 0;
	for (unsigned k = 0; k < r->cfg.streams; k++)
	{
		ta[k].r = r;
		ta[k].k = k;
		CK(cudaEventCreate(&ta[k].start));
		CK(cudaEventCreate(&ta[k].stop));
		if (pthread_create(&th[k], NULL, bench_thread, &ta[k]))
			die("%s", "pthread_create failed");
	}
	for (unsigned k = 0; k < r->cfg.streams; k++)
		pthread_join(th[k], NULL);
	float first = 0, last = 0;
	for (unsigned k = 0; k < r->cfg.streams; k++)
	{
		float a, b;
		CK(cudaEventElapsedTime(&a, ta[0].start, ta[k].start));
		CK(cudaEventElapsedTime(&b, ta[0].start, ta[k].stop));
		if (a < first)
			first = a;
		if (b > last)
			last = b;
	}
	for (unsigned k = 0; k < r->cfg.streams; k++)
	{
		cudaEventDestroy(ta[k].start);
		cudaEventDestroy(ta[k].stop);
	}
	return (last - first) * 1e-3;
}

/* ------------------------------------------------------------------ baseline */

/* SSSP/s of the one-source Crauser engine on one stream over nb sources (after one warm-up). */
static double crauser_baseline(const struct graph *g, const struct sssp_batch_dgraph *dg, unsigned nb, uint64_t seed)
{
	void *min_out = upload(g->min_out, (size_t)g->n * sizeof(uint32_t));
	struct sssp_gpu_graph cg = { g->n, dg->rowptr, dg->col, dg->w, min_out };
	struct sssp_gpu_work wk;
	CK(cudaMalloc((void **)&wk.dist, (size_t)g->n * sizeof(uint32_t)));
	CK(cudaMalloc((void **)&wk.state, g->n));
	CK(cudaMalloc(&wk.misc, sssp_gpu_misc_size()));
	cudaStream_t s;
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	tuccompi_gpu_set_stream(s);
	struct sssp_summary out;
	uint64_t st = seed;
	sssp_gpu_run(&cg, (uint32_t)(splitmix(&st) % g->n), &wk, NULL, &out);
	double t0 = now();
	for (unsigned i = 0; i < nb; i++)
	{
		uint32_t v;
		do
			v = (uint32_t)(splitmix(&st) % g->n);
		while (g->rowptr[v + 1] == g->rowptr[v]);
		sssp_gpu_run(&cg, v, &wk, NULL, &out);
	}
	double dt = now() - t0;
	CK(cudaStreamDestroy(s));
	CK(cudaFree(wk.dist));
	CK(cudaFree(wk.state));
	CK(cudaFree(wk.misc));
	CK(cudaFree(min_out));
	return nb / dt;
}

/* ------------------------------------------------------------------ main */

static unsigned split_list(const char *s, char items[][32], unsigned max)
{
	unsigned k = 0;
	const char *p = s;
	while (*p && k < max)
	{
		size_t len = strcspn(p, ",");
		snprintf(items[k], 32, "%.*s", (int)(len < 31 ? len : 31), p);
		k++;
		p += len;
		if (*p == ',')
			p++;
	}
	return k;
}

static unsigned parse_uint(const char *s, const char *what)
{
	char *e;
	unsigned long v = strtoul(s, &e, 10);
	if (*e || !*s || v > 1000000000ul)
		die(what, s);
	return (unsigned)v;
}

int main(int argc, char **argv)
{
	const char *gen = NULL, *file = NULL, *deltas = "rule", *streams = "1", *shares = NULL, *csv = NULL;
	const char *lanes = NULL;
	unsigned batches = 32, nsrc_opt = 0, check = 1, baseline = 8;
	int rows = 0, any_sources = 0, dry = 0;
	uint64_t seed = 1;
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--rows"))
			rows = 1;
		else if (!strcmp(a, "--any-sources"))
			any_sources = 1;
		else if (!strcmp(a, "--dry-run"))
			dry = 1;
		else if (a[0] == '-' && a[1] == '-' && !v)
			die("%s needs a value", a);
		else if (!strcmp(a, "--gen"))
			gen = argv[++i];
		else if (!strcmp(a, "--seed"))
			seed = parse_uint(argv[++i], "--seed %s: not a number");
		else if (!strcmp(a, "--batches"))
			batches = parse_uint(argv[++i], "--batches %s: not a number");
		else if (!strcmp(a, "--nsrc"))
		{
			nsrc_opt = parse_uint(argv[++i], "--nsrc %s: not a number");
			if (!nsrc_opt)
				die("--nsrc %s: 1 to 64", argv[i]);
		}
		else if (!strcmp(a, "--lanes"))
			lanes = argv[++i];
		else if (!strcmp(a, "--delta"))
			deltas = argv[++i];
		else if (!strcmp(a, "--streams"))
			streams = argv[++i];
		else if (!strcmp(a, "--share"))
			shares = argv[++i];
		else if (!strcmp(a, "--check"))
			check = parse_uint(argv[++i], "--check %s: not a number");
		else if (!strcmp(a, "--baseline"))
			baseline = parse_uint(argv[++i], "--baseline %s: not a number");
		else if (!strcmp(a, "--csv"))
			csv = argv[++i];
		else if (a[0] != '-' && !file)
			file = a;
		else
			die("unknown option %s (see the comment at the top of bench/batch_gpu.c)", a);
	}
	if (!gen && !file)
		gen = "random:1049088";
	if (nsrc_opt > SSSP_BATCH_LANES)
		die("--nsrc %s: 1 to 64", "");
	/* lane configurations: TUCCOMPI_SSSP_BATCH_LANES values ("" = leave the environment alone) and
	 * the sources per batch of each */
	char ll[4][32];
	unsigned nl = lanes ? split_list(lanes, ll, 4) : 1, lnsrc[4], nsrc_min = SSSP_BATCH_LANES, nsrc_max = 1;
	if (!lanes)
		ll[0][0] = '\0';
	for (unsigned i = 0; i < nl; i++)
	{
		if (lanes && strcmp(ll[i], "32") && strcmp(ll[i], "64") && strcmp(ll[i], "default"))
			die("--lanes: %s is not 32, 64 or default", ll[i]);
		lnsrc[i] = nsrc_opt ? nsrc_opt : !strcmp(ll[i], "32") ? 32 : SSSP_BATCH_LANES;
		if (lnsrc[i] < nsrc_min)
			nsrc_min = lnsrc[i];
		if (lnsrc[i] > nsrc_max)
			nsrc_max = lnsrc[i];
	}
	if (check > nsrc_min)
		check = nsrc_min;
	int ndev = 0;
	if (!dry && (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0))
	{
		fprintf(stderr, "batch_gpu: no CUDA device\n");
		return 77;
	}

	double t0 = now();
	struct graph g = { 0 };
	load_graph(gen, file, seed, &g);
	double t_load = now() - t0;
	struct sssp_graph view = { g.n, g.m, g.rowptr, g.col, g.w, g.min_out, g.max_w };
	t0 = now();
	uint64_t *irp = malloc(((size_t)g.n + 1) * sizeof(uint64_t));
	uint32_t *icol = malloc((g.m ? g.m : 1) * sizeof(uint32_t)), *iw = malloc((g.m ? g.m : 1) * sizeof(uint32_t));
	if (!irp || !icol || !iw)
		die("%s", "out of memory for the transpose");
	sssp_transpose(&view, irp, icol, iw);
	double t_tr = now() - t0;
	t0 = now();
	uint32_t rule = sssp_batch_delta_rule(&view);
	double t_rule = now() - t0;
	const char *gname = file ? file : gen;
	printf("graph %s: n %u, m %" PRIu64 " (load %.2f s, transpose %.2f s, delta rule %.3f s -> %u)\n", gname, g.n,
	       g.m, t_load, t_tr, t_rule, rule);

	/* CPU reference for batch 0's first `check` sources and the last of each lane configuration (batch
	 * 0's first k sources are the same for any nsrc >= k) */
	struct sssp_summary ref[SSSP_BATCH_LANES];
	char want[SSSP_BATCH_LANES] = { 0 };
	if (check)
	{
		struct run tmp = { .g = &g, .nsrc = nsrc_max, .seed = seed, .any_sources = any_sources };
		uint32_t src[SSSP_BATCH_LANES];
		batch_sources(&tmp, 0, src);
		uint32_t *dist = malloc((size_t)g.n * 4), *heap = malloc((size_t)g.n * 4), *pos = malloc((size_t)g.n * 4);
		if (!dist || !heap || !pos)
			die("%s", "out of memory for the check");
		unsigned nref = 0;
		for (unsigned i = 0; i < check; i++)
			want[i] = 1;
		for (unsigned i = 0; i < nl; i++)
			want[lnsrc[i] - 1] = 1;
		t0 = now();
		for (unsigned i = 0; i < SSSP_BATCH_LANES; i++)
			if (want[i])
			{
				sssp_dijkstra(&view, src[i], dist, heap, pos, &ref[i]);
				nref++;
			}
		printf("CPU Dijkstra for the check: %.2f s per source, %u sources (first: source %" PRIu64
		       ", reached %u, ecc %u)\n",
		       (now() - t0) / nref, nref, ref[0].source, ref[0].reached, ref[0].ecc);
		free(dist);
		free(heap);
		free(pos);
	}
	if (dry)
	{
		printf("--dry-run: host side only, no GPU used\n");
		graph_free(&g);
		free(irp);
		free(icol);
		free(iw);
		return 0;
	}
	struct cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	struct sssp_batch_dgraph dg = { g.n, g.m, upload(g.rowptr, ((size_t)g.n + 1) * 8), upload(g.col, g.m * 4),
					upload(g.w, g.m * 4), upload(irp, ((size_t)g.n + 1) * 8), upload(icol, g.m * 4),
					upload(iw, g.m * 4) };
	free(irp);
	free(icol);
	free(iw);
	printf("GPU %s, %d SMs; workspace %.1f MB per batch%s; sources: %u to %u per batch, %s\n", prop.name,
	       prop.multiProcessorCount, sssp_batch_gpu_workspace_size(g.n, rows) / 1e6, rows ? " (with rows)" : "",
	       nsrc_min, nsrc_max, any_sources ? "any vertex" : "vertices with out-arcs");

	double base = 0;
	if (baseline)
	{
		base = crauser_baseline(&g, &dg, baseline, seed);
		printf("baseline: one-source Crauser engine, one stream, %u sources: %.1f SSSP/s\n", baseline, base);
	}

	char dl[16][32], sl[16][32], hl[16][32];
	unsigned nd = split_list(deltas, dl, 16), ns = split_list(streams, sl, 16), nh = shares ? split_list(shares, hl, 16) : 0;
	unsigned maxs = 1;
	for (unsigned i = 0; i < ns; i++)
	{
		unsigned s = parse_uint(sl[i], "--streams: bad value %s");
		if (s < 1 || s > 64)
			die("--streams %s: 1 to 64", sl[i]);
		if (s > maxs)
			maxs = s;
	}
	struct run r;
	memset(&r, 0, sizeof(r));
	r.dg = &dg;
	r.g = &g;
	r.batches = batches;
	r.rows = rows;
	r.any_sources = any_sources;
	r.seed = seed;
	pthread_mutex_init(&r.lock, NULL);
	r.work = calloc(maxs, sizeof(void *));
	r.rowbuf = calloc(maxs, sizeof(uint32_t *));
	r.stream = calloc(maxs, sizeof(cudaStream_t));
	for (unsigned k = 0; k < maxs; k++)
	{
		CK(cudaMalloc(&r.work[k], sssp_batch_gpu_workspace_size(g.n, rows)));
		CK(cudaStreamCreateWithFlags(&r.stream[k], cudaStreamNonBlocking));
		if (rows)
			CK(cudaMallocHost((void **)&r.rowbuf[k], (size_t)nsrc_max * g.n * sizeof(uint32_t)));
	}
	FILE *cf = NULL;
	if (csv)
	{
		cf = fopen(csv, "a");
		if (!cf)
			die("cannot open --csv %s", csv);
		if (ftell(cf) == 0)
			fprintf(cf, "bench,graph,n,m,gpu,delta,share,streams,batches,nsrc,rows,sssp_per_s,ms_per_batch,steps,push,"
				    "pushb,pull,clear,raise,us_per_step,grid,block,chunk,baseline_sssp_per_s,ratio,lanes,traversals\n");
	}
	printf("\n%5s %8s %5s %7s %7s %10s %9s %7s %7s %6s %6s %6s %6s %8s %10s %7s %s\n", "nsrc", "delta", "share",
	       "streams", "batches", "SSSP/s", "ms/batch", "lanes", "steps", "push", "chunk", "pull", "raise", "us/step",
	       "grid x blk", "x base", "check");
	for (unsigned li = 0; li < nl; li++)
		for (unsigned di = 0; di < nd; di++)
			for (unsigned si = 0; si < ns; si++)
				for (unsigned hi = 0; hi < (nh ? nh : 1); hi++)
				{
					const unsigned nsrc = lnsrc[li];
					r.nsrc = nsrc;
					if (lanes && !strcmp(ll[li], "default"))
						unsetenv("TUCCOMPI_SSSP_BATCH_LANES");
					else if (lanes)
						setenv("TUCCOMPI_SSSP_BATCH_LANES", ll[li], 1); /* before the threads start */
					r.cfg.delta = !strcmp(dl[di], "rule") ? rule : parse_uint(dl[di], "--delta: bad value %s");
					r.cfg.streams = parse_uint(sl[si], "--streams: bad value %s");
					r.cfg.share = nh ? parse_uint(hl[hi], "--share: bad value %s") : r.cfg.streams;
					double span = run_config(&r);
					const char *ok = "-";
					for (unsigned i = 0; i < nsrc; i++)
						if (want[i] && (i < check || i == nsrc - 1) &&
						    (r.first[i].sum != ref[i].sum || r.first[i].ecc != ref[i].ecc ||
						     r.first[i].reached != ref[i].reached))
						{
							fprintf(stderr,
								"batch_gpu: MISMATCH %u sources, delta %u: lane %u source %" PRIu64
								": sum %" PRIu64 " ecc %u reached %u, CPU sum %" PRIu64
								" ecc %u reached %u\n",
								nsrc, r.cfg.delta, i, r.first[i].source, r.first[i].sum, r.first[i].ecc,
								r.first[i].reached, ref[i].sum, ref[i].ecc, ref[i].reached);
							ok = "MISMATCH";
						}
					if (check && !strcmp(ok, "-"))
						ok = "ok";
					double b = batches ? batches : 1;
					double sps = batches * nsrc / span, ms = r.host_s / b * 1e3, steps = r.steps / b;
					double us_step = steps > 0 ? ms * 1e3 / steps : 0;
					char gb[32], lt[32];
					snprintf(gb, sizeof(gb), "%ux%u", r.grid, r.block);
					if (r.traversals > 1)
						snprintf(lt, sizeof(lt), "%ux%u", r.lanes, r.traversals);
					else
						snprintf(lt, sizeof(lt), "%u", r.lanes);
					printf("%5u %8u %5u %7u %7u %10.1f %9.3f %7s %7.1f %6.1f %6.1f %6.1f %6.1f %8.2f %10s %7.2f %s\n", nsrc,
					       r.cfg.delta, r.cfg.share, r.cfg.streams, batches, sps, ms, lt, steps, r.push / b, r.pushb / b,
					       r.pull / b, r.raise / b, us_step, gb, base > 0 ? sps / base : 0, ok);
					char line[512];
					snprintf(line, sizeof(line),
						 "batch_gpu,%s,%u,%" PRIu64 ",%s,%u,%u,%u,%u,%u,%d,%.1f,%.3f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,%u,%u,"
						 "%u,%.1f,%.2f,%u,%u",
						 gname, g.n, g.m, prop.name, r.cfg.delta, r.cfg.share, r.cfg.streams, batches, nsrc, rows, sps,
						 ms, steps, r.push / b, r.pushb / b, r.pull / b, r.clear / b, r.raise / b, us_step, r.grid,
						 r.block, r.chunk, base, base > 0 ? sps / base : 0, r.lanes, r.traversals);
					printf("      device ms per batch by step kind: prologue %.3f push %.3f chunk %.3f pull %.3f "
					       "clear %.3f raise %.3f\n",
					       r.kind_ns[SSSP_BATCH_PROLOGUE] / b * 1e-6, r.kind_ns[SSSP_BATCH_PUSH] / b * 1e-6,
					       r.kind_ns[SSSP_BATCH_PUSHB] / b * 1e-6, r.kind_ns[SSSP_BATCH_PULL] / b * 1e-6,
					       r.kind_ns[SSSP_BATCH_CLEAR] / b * 1e-6, r.kind_ns[SSSP_BATCH_RAISE] / b * 1e-6);
					printf("CSV,%s\n", line);
					if (cf)
						fprintf(cf, "%s\n", line);
				}
	if (cf)
		fclose(cf);
	for (unsigned k = 0; k < maxs; k++)
	{
		CK(cudaFree(r.work[k]));
		CK(cudaStreamDestroy(r.stream[k]));
		if (rows)
			CK(cudaFreeHost(r.rowbuf[k]));
	}
	graph_free(&g);
	return 0;
}
