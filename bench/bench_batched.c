/* bench/bench_batched: throughput of the batched GPU SSSP engine (codelets/sssp/batched/batch_gpu.h).
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
 *   bench_batched --gen random:1049088 --batches 64 --delta rule,0 --streams 1,4 [--share LIST]
 *   bench_batched --gen rmat:20 --lanes 32,64       (32-lane traversals of 32 sources, then 64 of 64)
 *   bench_batched --gen grid:1024x1024 --delta rule,0,50 --streams 4 --csv out.csv
 *   bench_batched graph.gr --batches 16 --knob pull=0
 *
 * Options: --gen SPEC (random:N[:D1-D2[:W1-W2]], rmat:SCALE[:EF], grid:RxC, road:N: tuccompi-apsp's
 * generators), or a graph file; --seed S (1); --batches K (32, per configuration); --nsrc N (1 to
 * SSSP_BATCH_LANES = 64; default: the lanes of the configuration, 64 without --lanes);
 * --lanes LIST of 32, 64 or default (the knob lanes of each configuration; default: by the batch);
 * --delta LIST of numbers or "rule" (rule); --streams LIST (1); --share LIST (default: = streams);
 * --rows (also copy the distance rows to pinned host memory); --any-sources (sources may be
 * vertices without out-arcs; by default they are drawn among vertices with some); --check N (1;
 * 0: none); --baseline N (sources for the Crauser baseline, 8; 0: none); --csv FILE (append);
 * --dry-run (the host side only: graph, transpose, delta rule, CPU check; no GPU needed);
 * --knob NAME=VALUE[,...] the engine's knobs (struct sssp_batch_knobs, batch_gpu.h): pull,
 * pull_density, sparse, chunk, timeout. */
#include <cuda_runtime_api.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <tuccompi_cuda.h>

#include "batched/batch_gpu.h"
#include "common/depth.h"
#include "batched/batch_gpu_logic.h"
#include "bench.h"
#include "sssp.h"

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
	struct sssp_batch_knobs knobs;
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
			v = (uint32_t)(bench_splitmix(&s) % r->g->n);
		while (!r->any_sources && r->g->rowptr[v + 1] == r->g->rowptr[v] && ++tries < 1000);
		src[i] = v;
	}
}

static void one_batch(struct run *r, unsigned k, unsigned b, struct sssp_summary *out)
{
	uint32_t src[SSSP_BATCH_LANES];
	char err[256];
	batch_sources(r, b, src);
	struct sssp_batch_params p = { .delta = r->cfg.delta, .share = r->cfg.share, .knobs = &r->knobs };
	int ret = sssp_batch_gpu_run(r->dg, src, r->nsrc, r->work[k], &p, r->stream[k], out,
				     r->rows ? r->rowbuf[k] : NULL, err, sizeof(err));
	if (ret < 0)
		bench_die("%s", err);
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
	BENCH_CUDA(cudaEventRecord(ta->start, r->stream[ta->k]));
	for (;;)
	{
		pthread_mutex_lock(&r->lock);
		unsigned b = r->next < r->batches ? r->next++ : UINT32_MAX;
		pthread_mutex_unlock(&r->lock);
		if (b == UINT32_MAX)
			break;
		double t0 = bench_now();
		one_batch(r, ta->k, b + 1, out);
		double dt = bench_now() - t0;
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
	BENCH_CUDA(cudaEventRecord(ta->stop, r->stream[ta->k]));
	BENCH_CUDA(cudaEventSynchronize(ta->stop));
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
		BENCH_CUDA(cudaEventCreate(&ta[k].start));
		BENCH_CUDA(cudaEventCreate(&ta[k].stop));
		if (pthread_create(&th[k], NULL, bench_thread, &ta[k]))
			bench_die("pthread_create failed");
	}
	for (unsigned k = 0; k < r->cfg.streams; k++)
		pthread_join(th[k], NULL);
	float first = 0, last = 0;
	for (unsigned k = 0; k < r->cfg.streams; k++)
	{
		float a, b;
		BENCH_CUDA(cudaEventElapsedTime(&a, ta[0].start, ta[k].start));
		BENCH_CUDA(cudaEventElapsedTime(&b, ta[0].start, ta[k].stop));
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
	void *min_out;
	BENCH_CUDA(cudaMalloc(&min_out, (size_t)g->n * sizeof(uint32_t)));
	BENCH_CUDA(cudaMemcpy(min_out, g->min_out, (size_t)g->n * sizeof(uint32_t), cudaMemcpyHostToDevice));
	struct sssp_gpu_graph cg = { g->n, dg->rowptr, dg->col, dg->w, min_out };
	struct sssp_gpu_work wk;
	BENCH_CUDA(cudaMalloc((void **)&wk.dist, (size_t)g->n * sizeof(uint32_t)));
	BENCH_CUDA(cudaMalloc((void **)&wk.state, g->n));
	BENCH_CUDA(cudaMalloc(&wk.misc, sssp_gpu_misc_size()));
	cudaStream_t s;
	BENCH_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	tuccompi_gpu_set_stream(s);
	struct sssp_summary out;
	uint64_t st = seed;
	char err[256];
	if (sssp_gpu_run(&cg, (uint32_t)(bench_splitmix(&st) % g->n), &wk, NULL, &out, err, sizeof(err)) < 0)
		bench_die("%s", err);
	double t0 = bench_now();
	for (unsigned i = 0; i < nb; i++)
	{
		uint32_t v;
		do
			v = (uint32_t)(bench_splitmix(&st) % g->n);
		while (g->rowptr[v + 1] == g->rowptr[v]);
		if (sssp_gpu_run(&cg, v, &wk, NULL, &out, err, sizeof(err)) < 0)
			bench_die("%s", err);
	}
	double dt = bench_now() - t0;
	BENCH_CUDA(cudaStreamDestroy(s));
	BENCH_CUDA(cudaFree(wk.dist));
	BENCH_CUDA(cudaFree(wk.state));
	BENCH_CUDA(cudaFree(wk.misc));
	BENCH_CUDA(cudaFree(min_out));
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

int main(int argc, char **argv)
{
	const char *gen = NULL, *file = NULL, *deltas = "rule", *streams = "1", *shares = NULL, *csv = NULL;
	const char *lanes = NULL;
	unsigned batches = 32, nsrc_opt = 0, check = 1, baseline = 8;
	int rows = 0, any_sources = 0, dry = 0;
	uint64_t seed = 1;
	bench_name = "bench_batched";
	struct sssp_batch_knobs knobs;
	sssp_batch_knobs_default(&knobs);
	const struct bench_knob knob_table[] = { { "pull", &knobs.pull_div },       { "pull_density", &knobs.pull_density },
						 { "sparse", &knobs.sparse_popc },  { "chunk", &knobs.chunk_min },
						 { "timeout", &knobs.timeout_s } };
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
			bench_die("%s needs a value", a);
		else if (!strcmp(a, "--gen"))
			gen = argv[++i];
		else if (!strcmp(a, "--seed"))
			seed = bench_uint(a, argv[++i], 0, UINT64_MAX);
		else if (!strcmp(a, "--batches"))
			batches = (unsigned)bench_uint(a, argv[++i], 0, 1000000000);
		else if (!strcmp(a, "--nsrc"))
			nsrc_opt = (unsigned)bench_uint(a, argv[++i], 1, SSSP_BATCH_LANES);
		else if (!strcmp(a, "--lanes"))
			lanes = argv[++i];
		else if (!strcmp(a, "--delta"))
			deltas = argv[++i];
		else if (!strcmp(a, "--streams"))
			streams = argv[++i];
		else if (!strcmp(a, "--share"))
			shares = argv[++i];
		else if (!strcmp(a, "--check"))
			check = (unsigned)bench_uint(a, argv[++i], 0, SSSP_BATCH_LANES);
		else if (!strcmp(a, "--baseline"))
			baseline = (unsigned)bench_uint(a, argv[++i], 0, 1000000000);
		else if (!strcmp(a, "--csv"))
			csv = argv[++i];
		else if (!strcmp(a, "--knob"))
			bench_knobs(knob_table, sizeof(knob_table) / sizeof(knob_table[0]), argv[++i]);
		else if (a[0] != '-' && !file)
			file = a;
		else
			bench_die("unknown option %s (see the comment at the top of bench/bench_batched.c)", a);
	}
	if (!gen && !file)
		gen = "random:1049088";
	/* lane configurations: the knob lanes ("" or "default": by the batch) and the sources per
	 * batch of each */
	char ll[4][32];
	unsigned nl = lanes ? split_list(lanes, ll, 4) : 1, lnsrc[4], nsrc_min = SSSP_BATCH_LANES, nsrc_max = 1;
	if (!lanes)
		ll[0][0] = '\0';
	for (unsigned i = 0; i < nl; i++)
	{
		if (lanes && strcmp(ll[i], "32") && strcmp(ll[i], "64") && strcmp(ll[i], "default"))
			bench_die("--lanes: %s is not 32, 64 or default", ll[i]);
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
		fprintf(stderr, "%s: no CUDA device: skipped\n", bench_name);
		return 77;
	}

	double t0 = bench_now();
	struct graph g = { 0 };
	bench_load(file, gen, seed, &g);
	double t_load = bench_now() - t0;
	struct sssp_graph view = apsp_graph_view(&g);
	t0 = bench_now();
	uint32_t rule = sssp_depth_rule(&view);
	double t_rule = bench_now() - t0;
	const char *gname = file ? file : gen;
	printf("graph %s: n %u, m %" PRIu64 " (load %.2f s, delta rule %.3f s -> %u)\n", gname, g.n, g.m, t_load, t_rule,
	       rule);

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
			bench_die("out of memory for the check");
		unsigned nref = 0;
		for (unsigned i = 0; i < check; i++)
			want[i] = 1;
		for (unsigned i = 0; i < nl; i++)
			want[lnsrc[i] - 1] = 1;
		t0 = bench_now();
		for (unsigned i = 0; i < SSSP_BATCH_LANES; i++)
			if (want[i])
			{
				sssp_dijkstra(&view, src[i], dist, heap, pos, &ref[i]);
				nref++;
			}
		printf("CPU Dijkstra for the check: %.2f s per source, %u sources (first: source %" PRIu64
		       ", reached %u, ecc %u)\n",
		       (bench_now() - t0) / nref, nref, ref[0].source, ref[0].reached, ref[0].ecc);
		free(dist);
		free(heap);
		free(pos);
	}
	if (dry)
	{
		printf("--dry-run: host side only, no GPU used\n");
		graph_free(&g);
		return 0;
	}
	struct cudaDeviceProp prop;
	BENCH_CUDA(cudaGetDeviceProperties(&prop, 0));
	struct sssp_batch_dgraph dg;
	char err[256];
	t0 = bench_now();
	if (sssp_batch_gpu_graph_upload(&view, &dg, err, sizeof(err)) < 0)
		bench_die("%s", err);
	printf("GPU %s, %d SMs; transpose and upload %.2f s; workspace %.1f MB per batch%s; sources: %u to %u per "
	       "batch, %s\n",
	       prop.name, prop.multiProcessorCount, bench_now() - t0, sssp_batch_gpu_workspace_size(g.n, rows) / 1e6,
	       rows ? " (with rows)" : "", nsrc_min, nsrc_max, any_sources ? "any vertex" : "vertices with out-arcs");

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
		unsigned s = (unsigned)bench_uint("--streams", sl[i], 1, 64);
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
		BENCH_CUDA(cudaMalloc(&r.work[k], sssp_batch_gpu_workspace_size(g.n, rows)));
		BENCH_CUDA(cudaStreamCreateWithFlags(&r.stream[k], cudaStreamNonBlocking));
		if (rows)
			BENCH_CUDA(cudaMallocHost((void **)&r.rowbuf[k], (size_t)nsrc_max * g.n * sizeof(uint32_t)));
	}
	FILE *cf = NULL;
	if (csv)
	{
		cf = fopen(csv, "a");
		if (!cf)
			bench_die("--csv %s: cannot open it for appending (is the folder there?)", csv);
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
					r.knobs = knobs;
					r.knobs.lanes = !lanes || !strcmp(ll[li], "default") ? 0 : (unsigned)atoi(ll[li]);
					r.cfg.delta = !strcmp(dl[di], "rule") ? rule : (uint32_t)bench_uint("--delta", dl[di], 0, UINT32_MAX);
					r.cfg.streams = (unsigned)bench_uint("--streams", sl[si], 1, 64);
					r.cfg.share = nh ? (unsigned)bench_uint("--share", hl[hi], 0, 1024) : r.cfg.streams;
					double span = run_config(&r);
					const char *ok = "-";
					for (unsigned i = 0; i < nsrc; i++)
						if (want[i] && (i < check || i == nsrc - 1) &&
						    (r.first[i].sum != ref[i].sum || r.first[i].ecc != ref[i].ecc ||
						     r.first[i].reached != ref[i].reached))
						{
							fprintf(stderr,
								"bench_batched: MISMATCH %u sources, delta %u: lane %u source %" PRIu64
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
						 "bench_batched,%s,%u,%" PRIu64 ",%s,%u,%u,%u,%u,%u,%d,%.1f,%.3f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.2f,%u,%u,"
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
		BENCH_CUDA(cudaFree(r.work[k]));
		BENCH_CUDA(cudaStreamDestroy(r.stream[k]));
		if (rows)
			BENCH_CUDA(cudaFreeHost(r.rowbuf[k]));
	}
	sssp_batch_gpu_graph_free(&dg);
	graph_free(&g);
	return 0;
}
