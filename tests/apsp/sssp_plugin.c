/* The SSSP plug-in gives exact distances with every engine (the paper's crauser, batched,
 * phast), through the runtime's task batches and under several policies: every row from every
 * source of random graphs (sparse with unreachable parts; zero and large weights), an R-MAT
 * graph, a grid, a road-like graph and a hand-made one (parallel arcs, a self-loop, an isolated
 * vertex) equals an independent reference (tests/apsp/sssp_ref.h), and so do the per-source
 * summaries (the harmonic sum bit for bit as sssp_summarize gives it from the reference's row, and
 * within 1e-12 of 1/d summed in double), the target columns of each result (a list in no order,
 * with a repeat) and each source's predecessors (sssp_args::pred): a tree rooted at the source
 * (following predecessors from any reached vertex ends at the source within n steps), every
 * predecessor arc tight (d(p) + w(p, v) = d(v)), -9999 exactly at the source and the unreachable
 * vertices; a graph of zero-weight cycles among them. Without arguments the CPU implementations are checked; with --gpu the CUDA ones
 * (exit 77 when there is no GPU or no CUDA in the build), under MK = 3 so that concurrent
 * batches share the GPU. In CUDA builds the CPU run also checks the plans' MK and GPU-memory
 * decision (sssp_plan_fit_gpu), which needs no GPU. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <tuccompi.h>

#include "cli.h"
#include "dial/dial.h"
#include "graph.h"
#include "sssp.h"
#include "sssp_ref.h"
#include "testutil.h"

struct rows
{
	uint32_t n;
	uint32_t *data; /* k x n */
};

static int keep_row(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx)
{
	struct rows *r = ctx;
	(void)source;
	memcpy(r->data + id * n, dist, (size_t)n * sizeof(uint32_t));
	return 0;
}

static int keep_pred(uint64_t id, uint32_t source, const int32_t *pred, uint32_t n, void *ctx)
{
	int32_t *p = ctx;
	(void)source;
	memcpy(p + id * n, pred, (size_t)n * sizeof(int32_t));
	return 0;
}

/* The weight of the arc u -> v of g (the lightest, as the engines see parallel arcs); UINT64_MAX: none. */
static uint64_t arc_weight(const struct graph *g, uint32_t u, uint32_t v)
{
	uint64_t w = UINT64_MAX;
	for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		if (g->col[e] == v && g->w[e] < w)
			w = g->w[e];
	return w;
}

/* pred is a shortest-path tree of src for the distances ref (sssp_args::pred's promise). */
static void check_tree(const char *what, const struct graph *g, uint32_t src, const uint32_t *ref, const int32_t *pred)
{
	for (uint32_t v = 0; v < g->n; v++)
	{
		if (v == src || ref[v] == GRAPH_INF)
		{
			if (pred[v] != SSSP_NO_PRED)
				FAIL("%s: source %u: vertex %u (%s) has predecessor %d", what, src, v, v == src ? "the source" : "unreachable",
				     pred[v]);
			continue;
		}
		if (pred[v] < 0 || (uint32_t)pred[v] >= g->n)
			FAIL("%s: source %u: reached vertex %u has predecessor %d", what, src, v, pred[v]);
		uint32_t p = (uint32_t)pred[v];
		uint64_t w = arc_weight(g, p, v);
		if (w == UINT64_MAX || ref[p] == GRAPH_INF || ref[p] + w != ref[v])
			FAIL("%s: source %u: predecessor %u of %u: d %u + w %llu != d %u", what, src, p, v, ref[p],
			     (unsigned long long)w, ref[v]);
		uint32_t x = v, steps = 0;
		while (x != src && steps++ <= g->n)
			x = (uint32_t)pred[x];
		if (x != src)
			FAIL("%s: source %u: the predecessors of %u make a cycle", what, src, v);
	}
}

/* Every row and summary of every source of g through plan's task set on the CPU or the GPU (gpu 1: every
 * task on the GPU, 0: none, -1: wherever the policy puts them). */
static void check_plan(const char *what, struct graph *g, struct sssp_plan *plan, int gpu, const char *policy)
{
	enum sssp_engine engine = sssp_plan_engine(plan);
	const char *where = gpu > 0 ? "the GPU" : gpu ? "every unit" : "the CPU";
	uint64_t k = g->n;
	uint32_t *src = malloc(k * sizeof(uint32_t));
	for (uint64_t i = 0; i < k; i++)
		src[i] = (uint32_t)i;
	struct rows rows = { g->n, calloc(k * g->n, sizeof(uint32_t)) };
	int32_t *preds = calloc(k * g->n, sizeof(int32_t));
	/* targets: every third vertex from the last down, and vertex 0 twice */
	uint32_t nt = 0, *tgt = malloc((g->n / 3 + 3) * sizeof(uint32_t));
	for (uint32_t v = g->n; v-- > 0;)
		if (v % 3 == 0)
			tgt[nt++] = v;
	tgt[nt++] = 0;
	struct sssp_args args = { .n = g->n, .row = keep_row, .row_ctx = &rows, .harmonic = 1, .targets = tgt,
				  .ntargets = nt, .pred = keep_pred, .pred_ctx = preds };
	size_t rsize = sssp_result_size(&args);
	/* the summary and the columns, padded so that the next task's summary is aligned */
	ASSERT(rsize >= sizeof(struct sssp_summary) + 4 * nt);
	ASSERT(rsize < sizeof(struct sssp_summary) + 4 * nt + _Alignof(struct sssp_summary));
	ASSERT_EQ(rsize % _Alignof(struct sssp_summary), 0);
	unsigned char *results = calloc(k, rsize);
	struct tuccompi_taskset_desc desc = { .results = results };
	ASSERT_OK(sssp_plan_taskset(plan, src, k, &args, &desc));
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(tuccompi_policy_by_name(policy), &desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	ASSERT_EQ(args.row_error, 0);
	ASSERT_EQ(args.pred_error, 0);
	uint32_t *ref = malloc((size_t)g->n * sizeof(uint32_t));
	uint64_t unreachable = 0;
	for (uint64_t i = 0; i < k; i++)
	{
		struct sssp_summary *res = (struct sssp_summary *)(results + i * rsize);
		const uint32_t *cols = sssp_result_cols(res);
		sssp_ref(g, src[i], ref);
		for (uint32_t j = 0; j < nt; j++)
			if (cols[j] != ref[tgt[j]])
				FAIL("%s (%s, %s): target column %u (vertex %u) of source %u: %u, reference %u", what,
				     sssp_engine_name(engine), where, j, tgt[j], src[i], cols[j], ref[tgt[j]]);
		check_tree(what, g, src[i], ref, preds + i * g->n);
		uint64_t sum = 0;
		uint32_t ecc = 0, reached = 0;
		double harm = 0; /* 1/d in double, for the fixed-point sum's accuracy */
		for (uint32_t v = 0; v < g->n; v++)
		{
			if (rows.data[i * g->n + v] != ref[v])
				FAIL("%s (%s, %s): dist(%u -> %u) = %u, reference %u", what, sssp_engine_name(engine),
				     where, src[i], v, rows.data[i * g->n + v], ref[v]);
			if (ref[v] != GRAPH_INF)
			{
				sum += ref[v];
				reached++;
				harm += ref[v] ? 1.0 / ref[v] : 0;
				if (ref[v] > ecc)
					ecc = ref[v];
			}
			else
				unreachable++;
		}
		if (res->sum != sum || res->ecc != ecc || res->reached != reached || res->source != src[i] ||
		    res->overflow)
			FAIL("%s (%s): summary of source %u: sum %llu/%llu ecc %u/%u reached %u/%u", what,
			     sssp_engine_name(engine), src[i],
			     (unsigned long long)res->sum, (unsigned long long)sum, res->ecc, ecc, res->reached, reached);
		/* the harmonic sum: the same bits as sssp_summarize's of the reference row on every engine
		 * and unit, and within rounding of 1/d summed in double */
		struct sssp_summary want;
		sssp_summarize(ref, g->n, src[i], &want);
		if (res->harmonic != want.harmonic || fabs(want.harmonic - harm) > 1e-12 * harm)
			FAIL("%s (%s, %s): harmonic of source %u: %.17g, the reference row's %.17g, 1/d summed %.17g", what,
			     sssp_engine_name(engine), where, src[i], res->harmonic, want.harmonic, harm);
	}
	struct tuccompi_taskset_stats st;
	ASSERT_OK(tuccompi_taskset_get_stats(ts, &st));
	uint64_t on_gpu = 0;
	for (int u = 0; u < st.nunits; u++)
		if (st.units[u].kind == TUCCOMPI_UNIT_CUDA)
			on_gpu += st.units[u].ntasks;
	if (gpu >= 0)
		ASSERT_EQ(on_gpu, gpu ? k : 0);
	printf("%s, %s engine, %s: %u vertices, %llu arcs, all %llu rows exact on %s (%llu unreachable pairs)\n",
	       what, sssp_engine_name(engine), policy, g->n, (unsigned long long)g->m, (unsigned long long)k,
	       where, (unsigned long long)unreachable);
	tuccompi_taskset_destroy(ts);
	sssp_plan_taskset_done(plan, &desc);
	free(ref);
	free(results);
	free(rows.data);
	free(preds);
	free(tgt);
	free(src);
}

/* The dial engine on CPU units alone, summaries only (no rows, columns or trees): with every source of
 * @p g, the 2 CPU units get calls of the bit-parallel form of @p batch sources each (engine_dial.c's
 * cpu_batch: as few calls as 512 sources a call allow, of equal size); the summaries equal the
 * reference's. */
/* Rows callback for check_dial_wide's set with rows: counts them. */
static int count_row(uint64_t id, uint32_t source, const uint32_t *row, uint32_t n, void *ctx)
{
	(void)id, (void)source, (void)row, (void)n;
	__atomic_fetch_add((unsigned *)ctx, 1, __ATOMIC_RELAXED);
	return 0;
}

/* The dial engine's CPU units without a GPU, every vertex a source: with @p targets (every fifth
 * vertex, in reverse order) or none, @p batch sources per call of the bit-parallel form, every summary
 * and target column exact; with rows, one source per task (the bucket queue). */
static void check_dial_wide(const char *what, struct graph *g, const char *policy, unsigned batch, int targets)
{
	struct sssp_graph gv = apsp_graph_view(g);
	uint32_t nt = targets ? (g->n + 4) / 5 : 0, *tgt = malloc((nt + 1) * sizeof(uint32_t));
	ASSERT(tgt);
	for (uint32_t j = 0; j < nt; j++)
		tgt[j] = g->n - 1 - 5 * j;
	struct sssp_options o = { .engine = SSSP_ENGINE_DIAL, .cpu = 1, .nsources = g->n, .threads = 2, .ntargets = nt };
	struct sssp_plan *plan;
	char why[512];
	if (sssp_plan_create(&gv, &o, &plan, why, sizeof(why)) < 0)
		FAIL("%s: sssp_plan_create(dial): %s", what, why);
	uint64_t k = g->n;
	uint32_t *src = malloc(k * sizeof(uint32_t)), *ref = malloc((size_t)g->n * sizeof(uint32_t));
	ASSERT(src && ref);
	for (uint64_t i = 0; i < k; i++)
		src[i] = (uint32_t)(k - 1 - i);
	unsigned nrows = 0;
	struct sssp_args args = { .n = g->n, .harmonic = 1, .targets = tgt, .ntargets = nt };
	struct sssp_args with_rows = { .n = g->n, .harmonic = 1, .row = count_row, .row_ctx = &nrows };
	char *results = calloc(k, sssp_result_size(&args));
	ASSERT(results);
	/* with rows: the bucket queue */
	struct tuccompi_taskset_desc desc = { .results = results };
	ASSERT_OK(sssp_plan_taskset(plan, src, k, &with_rows, &desc));
	if (desc.plugin->cpu_batch || !desc.plugin->cpu)
		FAIL("%s: the dial engine's CPU units should take one source per task with rows", what);
	sssp_plan_taskset_done(plan, &desc);
	desc = (struct tuccompi_taskset_desc){ .results = results };
	ASSERT_OK(sssp_plan_taskset(plan, src, k, &args, &desc));
	if (!desc.plugin->cpu_batch || desc.plugin->cpu || desc.plugin->batch_max[TUCCOMPI_UNIT_CPU] != batch)
		FAIL("%s: the dial engine's CPU units of a set of %llu sources (%u targets) on 2 units should run "
		     "the bit-parallel form %u sources per call (batch %u, cpu %p)",
		     what, (unsigned long long)k, nt, batch, desc.plugin->batch_max[TUCCOMPI_UNIT_CPU],
		     (void *)desc.plugin->cpu);
	tuccompi_taskset_t ts;
	ASSERT_OK(tuccompi_parallel(tuccompi_policy_by_name(policy), &desc, &ts));
	ASSERT_OK(tuccompi_wait(ts));
	for (uint64_t i = 0; i < k; i++)
	{
		struct sssp_summary want;
		sssp_ref(g, src[i], ref);
		sssp_summarize(ref, g->n, src[i], &want);
		void *res = results + i * sssp_result_size(&args);
		const struct sssp_summary *got = res;
		if (got->source != want.source || got->sum != want.sum || got->ecc != want.ecc ||
		    got->reached != want.reached || got->harmonic != want.harmonic || got->overflow)
			FAIL("%s (dial, %u sources per call): summary of source %u: sum %llu/%llu ecc %u/%u reached %u/%u "
			     "harmonic %.17g/%.17g",
			     what, batch, src[i], (unsigned long long)got->sum, (unsigned long long)want.sum, got->ecc,
			     want.ecc, got->reached, want.reached, got->harmonic, want.harmonic);
		const uint32_t *cols = sssp_result_cols(res);
		for (uint32_t j = 0; j < nt; j++)
			if (cols[j] != ref[tgt[j]])
				FAIL("%s (dial, %u sources per call): source %u, target %u: %u, reference %u", what, batch,
				     src[i], tgt[j], cols[j], ref[tgt[j]]);
	}
	printf("%s, dial engine, %s: all %llu summaries and %u target columns exact, %u sources per CPU call\n",
	       what, policy, (unsigned long long)k, nt, batch);
	tuccompi_taskset_destroy(ts);
	sssp_plan_taskset_done(plan, &desc);
	sssp_plan_free(plan);
	free(results);
	free(ref);
	free(src);
	free(tgt);
}

static void check_graph(const char *what, struct graph *g, int gpu, const char *policy, enum sssp_engine engine)
{
	struct sssp_graph gv = apsp_graph_view(g);
	struct sssp_options o = { .engine = engine, .cpu = !gpu, .cuda = gpu, .nsources = g->n, .threads = 2 };
	struct sssp_plan *plan;
	char why[512];
	int ret = sssp_plan_create(&gv, &o, &plan, why, sizeof(why));
	uint32_t wmax;
	char no[200];
	if (engine == SSSP_ENGINE_DIAL && !sssp_dial_weights(&gv, &wmax, no, sizeof no))
	{
		/* weights outside 1..64: refused, saying which engine takes the graph */
		if (ret != -EDOM || !strstr(why, "use --engine batched"))
			FAIL("%s: the dial engine took weights it cannot (%d: %s)", what, ret, why);
		printf("%s, dial engine: refused (%s)\n", what, why);
		return;
	}
	if (ret < 0)
		FAIL("%s: sssp_plan_create(%s): %s", what, sssp_engine_name(engine), why);
	check_plan(what, g, plan, gpu, policy);
	sssp_plan_free(plan);
}

/* The plan's MK decision (sssp_plan_fit_gpu) for a plan of CPU and CUDA implementations: the
 * engine's own MK, capped, or the one asked; lowered to what a GPU of `room` bytes holds; and when
 * not even one batch fits, the plan goes on with its CPU units alone (exact rows on the CPU) or,
 * without CPU units, -ENOSPC. Needs no GPU: the decision is the plan's. */
static void check_fit(struct graph *g, enum sssp_engine engine, int engine_mk)
{
	struct sssp_graph gv = apsp_graph_view(g);
	struct sssp_options o = { .engine = engine, .cpu = 1, .cuda = 1, .nsources = g->n, .threads = 2 };
	struct sssp_plan *plan;
	struct sssp_gpu_fit f;
	char why[512];
	if (sssp_plan_create(&gv, &o, &plan, why, sizeof(why)) < 0)
		FAIL("sssp_plan_create(%s): %s", sssp_engine_name(engine), why);
	ASSERT_EQ(sssp_plan_uses_cuda(plan), 1);
	ASSERT_EQ(sssp_plan_mk_ahead(&gv, &o), engine_mk); /* judged before the plan, as after */
	ASSERT_OK(sssp_plan_fit_gpu(plan, 0, 0, 0, 0, &f));
	ASSERT_EQ(f.mk, engine_mk);
	ASSERT_EQ(f.lowered, 0);
	ASSERT(f.need > 0);
	ASSERT_OK(sssp_plan_fit_gpu(plan, 0, 2, 0, 0, &f));
	ASSERT_EQ(f.mk, engine_mk < 2 ? engine_mk : 2);
	ASSERT_OK(sssp_plan_fit_gpu(plan, 3, 2, 0, 0, &f)); /* asked: not capped */
	ASSERT_EQ(f.mk, 3);
	uint64_t at3 = f.need, with_rows;
	ASSERT_OK(sssp_plan_fit_gpu(plan, 3, 0, 0, 1, &f));
	with_rows = f.need;
	ASSERT(with_rows >= at3);
	ASSERT_OK(sssp_plan_fit_gpu(plan, 3, 0, at3 - 1, 0, &f)); /* room for 2 */
	ASSERT_EQ(f.mk, 2);
	ASSERT_EQ(f.lowered, 1);
	ASSERT(f.need <= at3 - 1);
	ASSERT_EQ(sssp_plan_uses_cuda(plan), 1);
	ASSERT_OK(sssp_plan_fit_gpu(plan, 3, 0, 1, 0, &f)); /* not even one: the CPU units alone */
	ASSERT_EQ(f.mk, 0);
	ASSERT(f.need > 1 && f.need < at3); /* what one batch needs */
	ASSERT_EQ(sssp_plan_uses_cuda(plan), 0);
	check_plan("after the GPU was dropped", g, plan, 0, "eager");
	ASSERT_OK(sssp_plan_fit_gpu(plan, 3, 0, 1, 0, &f)); /* a plan without CUDA: as asked, nothing needed */
	ASSERT_EQ(f.mk, 3);
	ASSERT_EQ(f.need, 0);
	sssp_plan_free(plan);
	o.cuda = 0;
	ASSERT_EQ(sssp_plan_mk_ahead(&gv, &o), 0); /* no stream workers wanted */
	o.cuda = 1;
	o.cpu = 0;
	if (sssp_plan_create(&gv, &o, &plan, why, sizeof(why)) < 0)
		FAIL("sssp_plan_create(%s, GPU only): %s", sssp_engine_name(engine), why);
	ASSERT_EQ(sssp_plan_fit_gpu(plan, 1, 0, 1, 0, &f), -ENOSPC);
	ASSERT(f.need > 1);
	ASSERT_EQ(sssp_plan_uses_cuda(plan), 1);
	sssp_plan_free(plan);
	printf("%s engine: MK %d by default, capped, as asked, lowered to fit, CPU units alone when nothing fits\n",
	       sssp_engine_name(engine), engine_mk);
}

/* auto judged ahead (sssp_plan_mk_ahead) on a deep graph: PHAST's MK when its hierarchy would pay
 * (many sources) or is cached, batched's when neither; never more than the plan made after wants. */
static void check_mk_ahead(struct graph *g)
{
	struct sssp_graph gv = apsp_graph_view(g);
	struct sssp_options o = { .engine = SSSP_ENGINE_AUTO, .cpu = 1, .cuda = 1, .nsources = 1, .threads = 2 };
	ASSERT_EQ(sssp_plan_mk_ahead(&gv, &o), 4); /* one source: no hierarchy, batched */
	char cache[] = "/tmp/tuccompi-mk-ahead-XXXXXX";
	int fd = mkstemp(cache);
	ASSERT(fd >= 0);
	close(fd);
	o.ch_cache = cache; /* there, not a hierarchy yet: judged valid ahead; the plan finds it stale */
	ASSERT_EQ(sssp_plan_mk_ahead(&gv, &o), 12);
	struct sssp_plan *plan;
	struct sssp_gpu_fit f;
	char why[512];
	if (sssp_plan_create(&gv, &o, &plan, why, sizeof(why)) < 0)
		FAIL("sssp_plan_create(auto, stale cache): %s", why);
	ASSERT_OK(sssp_plan_fit_gpu(plan, 0, 0, 0, 0, &f));
	ASSERT(f.mk <= 8);
	sssp_plan_free(plan);
	unlink(cache);
	o.ch_cache = NULL;
	o.betweenness = 1;
	ASSERT_EQ(sssp_plan_mk_ahead(&gv, &o), 4); /* Brandes on a deep graph */
	o.betweenness = 0;
	o.engine = (enum sssp_engine)99;
	ASSERT_EQ(sssp_plan_mk_ahead(&gv, &o), 0);
	printf("MK judged ahead: auto with 1 source 4, with a cache 8, betweenness 4\n");
}

/* auto's engine whose batch does not fit the GPU (dial's ring) gives way to batched, which keeps the
 * GPU, rather than dropping it: the plan says so, and its rows stay exact. */
static void check_auto_fit(struct graph *g)
{
	struct sssp_graph gv = apsp_graph_view(g);
	struct sssp_options o = { .engine = SSSP_ENGINE_AUTO, .cpu = 1, .cuda = 1, .nsources = g->n, .threads = 2 };
	struct sssp_plan *plan, *batched;
	struct sssp_gpu_fit f;
	char why[512];
	if (sssp_plan_create(&gv, &o, &plan, why, sizeof(why)) < 0)
		FAIL("sssp_plan_create(auto): %s", why);
	ASSERT_EQ(sssp_plan_engine(plan), SSSP_ENGINE_DIAL);
	ASSERT_OK(sssp_plan_fit_gpu(plan, 1, 0, 0, 0, &f));
	uint64_t dial_need = f.need;
	o.engine = SSSP_ENGINE_BATCHED;
	if (sssp_plan_create(&gv, &o, &batched, why, sizeof(why)) < 0)
		FAIL("sssp_plan_create(batched): %s", why);
	ASSERT_OK(sssp_plan_fit_gpu(batched, 1, 0, 0, 0, &f));
	uint64_t batched_need = f.need;
	sssp_plan_free(batched);
	ASSERT(batched_need < dial_need); /* the premise: one batch of batched fits where dial's does not */
	ASSERT_OK(sssp_plan_fit_gpu(plan, 0, 0, batched_need, 0, &f));
	ASSERT_EQ(sssp_plan_engine(plan), SSSP_ENGINE_BATCHED);
	ASSERT_EQ(sssp_plan_uses_cuda(plan), 1);
	ASSERT_EQ(f.mk, 1);
	ASSERT_EQ(f.lowered, 1);
	ASSERT(strstr(sssp_plan_reason(plan), "dial would need"));
	/* the plan keeps the GPU: on a machine with one, the tasks go to every unit */
	check_plan("auto, after dial did not fit", g, plan, tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0 ? -1 : 0, "eager");
	printf("auto: dial needs %llu bytes for one batch, batched %llu: with room for batched only, batched (%s)\n",
	       (unsigned long long)dial_need, (unsigned long long)batched_need, sssp_plan_reason(plan));
	sssp_plan_free(plan);
}

int main(int argc, char **argv)
{
	int gpu = argc > 1 && !strcmp(argv[1], "--gpu");
	if (gpu && !sssp_have_cuda())
	{
		fprintf(stderr, "built without CUDA: skipped\n");
		return TEST_SKIP;
	}
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.use_mpi = 0;
	conf.quiet = 1;
	conf.ncpus = gpu ? 1 : 2;
	conf.mk = 3;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	if (gpu && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0)
	{
		fprintf(stderr, "no GPU: skipped\n");
		tuccompi_finalize();
		return TEST_SKIP;
	}
	struct graph g = { 0 };
	struct graph_error err;

	if (!gpu && sssp_have_cuda())
	{
		/* batched: MK 4 on a deep graph (buckets), 2 on a shallow one; phast 12; crauser 4 */
		ASSERT_OK(graph_gen_grid(6, 120, 1, 100, 10, &g, &err)); /* 125 levels */
		check_fit(&g, SSSP_ENGINE_BATCHED, 4);
		check_fit(&g, SSSP_ENGINE_PHAST, 12);
		check_fit(&g, SSSP_ENGINE_CRAUSER, 4);
		check_mk_ahead(&g);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(600, 1, 9, 0, 10, 8, &g, &err));
		check_fit(&g, SSSP_ENGINE_BATCHED, 2);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(600, 1, 9, 1, 10, 8, &g, &err)); /* dial: weights 1..64 */
		check_fit(&g, SSSP_ENGINE_DIAL, 2);
		check_auto_fit(&g);
		graph_free(&g);
	}

	if (!gpu)
	{
		/* the dial engine's bit-parallel CPU form through the runtime on 2 units: 256 sources (a call
		 * of 128 each: 2 words), 300 (150: 4 words), 700 (350: 8 words), 1,100 (2 calls of 275 each);
		 * below 256 sources, the bucket queue (check_plan's runs below, which also want rows) */
		ASSERT_OK(graph_gen_random(256, 0, 4, 1, 10, 23, &g, &err));
		check_dial_wide("random n=256 deg 0..4", &g, "ms", 128, 0);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(300, 1, 9, 1, 64, 24, &g, &err));
		check_dial_wide("random n=300 w 1..64", &g, "eq1", 150, 1);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(700, 0, 4, 1, 10, 21, &g, &err));
		check_dial_wide("random n=700 deg 0..4", &g, "ms-tail", 350, 1);
		graph_free(&g);
		ASSERT_OK(graph_gen_grid(25, 44, 1, 64, 22, &g, &err));
		check_dial_wide("grid 25x44 w 1..64", &g, "eq2", 275, 0);
		graph_free(&g);
	}

	static const enum sssp_engine engines[] = { SSSP_ENGINE_CRAUSER, SSSP_ENGINE_BATCHED, SSSP_ENGINE_PHAST,
						    SSSP_ENGINE_DIAL };
	static const char *policies[] = { "ms", "eq2", "ms-tail", "eq1", "eager" };
	for (unsigned e = 0; e < sizeof(engines) / sizeof(engines[0]); e++)
	{
		const char *pol = policies[e % 5];
		/* sparse random graph: many vertices unreachable from a given source */
		ASSERT_OK(graph_gen_random(700, 0, 3, 1, 10, 7, &g, &err));
		check_graph("random n=700 deg 0..3", &g, gpu, pol, engines[e]);
		graph_free(&g);
		/* the paper's kind of graph, weights with zeros */
		ASSERT_OK(graph_gen_random(600, 1, 9, 0, 10, 8, &g, &err));
		check_graph("random n=600 deg 1..9 w 0..10", &g, gpu, policies[(e + 1) % 5], engines[e]);
		graph_free(&g);
		/* large weights: the CPU engine's wide buckets, deep bucket thresholds on the GPU */
		ASSERT_OK(graph_gen_random(500, 1, 4, 0, 1000000, 11, &g, &err));
		check_graph("random n=500 w 0..1e6", &g, gpu, policies[(e + 2) % 5], engines[e]);
		graph_free(&g);
		/* skewed degrees, isolated vertices after merging */
		ASSERT_OK(graph_gen_rmat(9, 8, 0.57, 0.19, 0.19, 1, 10, 9, &g, &err));
		check_graph("rmat scale 9", &g, gpu, policies[(e + 3) % 5], engines[e]);
		graph_free(&g);
		/* long paths, many phases */
		ASSERT_OK(graph_gen_grid(17, 29, 1, 100, 10, &g, &err));
		check_graph("grid 17x29", &g, gpu, policies[(e + 4) % 5], engines[e]);
		graph_free(&g);
		/* long paths with weights 1..64 (the dial engine's ring wraps many times) */
		ASSERT_OK(graph_gen_grid(13, 31, 1, 64, 12, &g, &err));
		check_graph("grid 13x31 w 1..64", &g, gpu, policies[(e + 2) % 5], engines[e]);
		graph_free(&g);
		/* road-like */
		ASSERT_OK(graph_gen_road(800, 12, &g, &err));
		check_graph("road n=800", &g, gpu, pol, engines[e]);
		graph_free(&g);
		/* hand-made: parallel arcs (min kept), a self-loop, a vertex with no arcs */
		uint32_t s[] = { 0, 0, 0, 1, 2, 2, 3 }, d[] = { 1, 1, 2, 2, 2, 3, 0 }, w[] = { 5, 2, 9, 3, 1, 4, 1 };
		ASSERT_OK(graph_from_arcs(5, 7, s, d, w, &g, &err));
		check_graph("hand-made", &g, gpu, "ms", engines[e]);
		graph_free(&g);
		/* zero-weight cycles: 0 -> 1 -> 2 -> 0 and 1 -> 2 -> 3 -> 1, all of weight 0, beside 0 -> 4 -> 5 */
		uint32_t zs[] = { 0, 1, 2, 2, 3, 0, 4, 5 }, zd[] = { 1, 2, 0, 3, 1, 4, 5, 3 }, zw[] = { 0, 0, 0, 0, 0, 3, 1, 2 };
		ASSERT_OK(graph_from_arcs(7, 8, zs, zd, zw, &g, &err));
		check_graph("zero-weight cycles", &g, gpu, "eq2", engines[e]);
		graph_free(&g);
	}

	ASSERT_OK(tuccompi_finalize());
	return 0;
}
