/* The "dial-brandes" engine: betweenness centrality (sssp_options::betweenness) on the dial engine's
 * traversals, for graphs whose weights are integers 1..SSSP_DIAL_WMAX (dial_brandes.h explains the
 * algorithm). As in the brandes engine a task is one source, its result the source's summary, and its
 * dependencies (and flows) go into the task set's exact reduction (bc_common.h), so a source adds the
 * same bits whichever engine, unit, policy or rank runs it.
 *
 * GPU units: up to 512 sources per traversal, its visits logged, then Brandes' sweeps by its levels
 * (dial_brandes_gpu.cu). A batch whose visits overflow the log (deep graphs: a vertex has as many
 * visits as distinct distances from the batch's sources) is halved until it fits, and the plan keeps
 * the width that fitted for its next batches. CPU units run one source per task (the brandes engine's
 * CPU task: the bucket queue, then brandes_cpu.c's sweeps) beside a GPU, as the dial engine's do; without
 * one, on graphs of many arcs per vertex, the CPU form of the levels (dial_brandes.c, 256 sources per
 * call), which shares each visit's arcs among its pairs (cpu_batch). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brandes/bc_common.h"
#include "common/buffers.h"
#include "dial/dial_brandes.h"
#include "engine.h"

#ifdef SSSP_WITH_CUDA
#include <tuccompi_cuda.h>
#endif

/* The CPU form of the levels runs 64 x CPU_WORDS sources per call, on graphs of at least CPU_DEGREE arcs
 * per vertex: there each visit's arcs serve many pairs (docs/apsp.md, "Betweenness by the dial engine's
 * levels"); on sparser graphs one source at a time keeps its arrays in cache and runs faster. */
#define CPU_WORDS 4u
#define CPU_DEGREE 12u

struct dial_brandes_state
{
	struct sssp_bc_common c; /* first: the shared CPU task reads it */
	uint32_t wmax, heavy;
	unsigned words; /* the task set's CPU units run the levels' form with this many words (0: one source a task) */
	struct sssp_dial_brandes_shape shape;
	unsigned lanes; /* GPU: the sources a traversal takes (fewer once a batch overflowed its log) */
};

/* A batch's sources into src[], its graph into *bg, and the worker's sums (NULL, the batch failed). */
static struct tuccompi_exact *batch_start(struct tuccompi_batch *b, const struct sssp_args *a, uint32_t *src,
					  struct sssp_brandes_graph *bg)
{
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	for (unsigned i = 0; i < tuccompi_batch_size(b); i++)
		src[i] = *(const uint32_t *)tuccompi_task_input(tuccompi_batch_task(b, i));
	*bg = sssp_bc_graph_of(t0, a->n, a->plan->g->m);
	struct tuccompi_exact *acc = tuccompi_task_reduce_buffer(t0);
	if (!acc)
		tuccompi_batch_fail(b, -ENOMEM, "betweenness: %s", tuccompi_last_error());
	return acc;
}

/* The batch's summaries into its tasks' results. */
static void batch_end(struct tuccompi_batch *b, const struct sssp_summary *out)
{
	for (unsigned i = 0; i < tuccompi_batch_size(b); i++)
		*(struct sssp_summary *)tuccompi_task_result(tuccompi_batch_task(b, i)) = out[i];
}

/* CPU without a GPU: up to 64 x words sources by levels; a call whose visits overflow its log runs its
 * sources one at a time on the same workspace. */
static void dial_brandes_cpu_wide(struct tuccompi_batch *b, void *arg)
{
	struct sssp_args *a = arg;
	const struct sssp_plan *p = a->plan;
	const struct dial_brandes_state *st = p->state;
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	unsigned nsrc = tuccompi_batch_size(b);
	struct sssp_brandes_graph bg;
	uint32_t src[SSSP_DIAL_CPU_LANES_MAX];
	static __thread struct sssp_summary out[SSSP_DIAL_CPU_LANES_MAX];
	struct tuccompi_exact *acc = batch_start(b, a, src, &bg);
	if (!acc)
		return;
	void *ws = tuccompi_task_workspace(t0, 0);
	int edges = p->o.edge_betweenness;
	if (sssp_dial_brandes_cpu_run(&bg, st->wmax, st->words, src, nsrc, ws, out, acc, edges ? acc + a->n : NULL) < 0)
	{
		char err[256];
		for (unsigned i = 0; i < nsrc; i++)
			if (sssp_bc_cpu_source(&st->c, &bg, tuccompi_task_shared(t0, SSSP_BC_SH_PACKED), src[i], ws, &out[i], acc,
					       edges, err, sizeof(err)) < 0)
			{
				tuccompi_batch_fail(b, -ELOOP, "%s", err);
				return;
			}
	}
	batch_end(b, out);
}

#ifdef SSSP_WITH_CUDA
/* GPU: up to 512 sources, in traversals of as many as the log holds; the stream worker's own workspace. */
static void dial_brandes_cuda(struct tuccompi_batch *b, void *arg)
{
	struct sssp_args *a = arg;
	const struct sssp_plan *p = a->plan;
	struct dial_brandes_state *st = p->state;
	unsigned nsrc = tuccompi_batch_size(b);
	struct sssp_brandes_graph bg;
	uint32_t src[SSSP_DIAL_BRANDES_GPU_LANES];
	static __thread struct sssp_summary out[SSSP_DIAL_BRANDES_GPU_LANES];
	struct tuccompi_exact *acc = batch_start(b, a, src, &bg);
	if (!acc)
		return;
	size_t wsb = sssp_dial_brandes_gpu_workspace_size(a->n, st->wmax, &st->shape);
	void *ws = sssp_gpu_thread_workspace(wsb);
	if (!ws)
	{
		tuccompi_batch_fail(b, -ENOMEM, "betweenness: cannot allocate %zu bytes of GPU workspace", wsb);
		return;
	}
	int mk = tuccompi_get_mk();
	struct sssp_dial_brandes_params prm = {
		.wmax = st->wmax,
		.share = mk > 0 ? (unsigned)mk : 1,
		.heavy_deg = st->heavy,
		.edges = p->o.edge_betweenness,
	};
	char err[256] = "";
	for (unsigned at = 0; at < nsrc;)
	{
		unsigned lanes = __atomic_load_n(&st->lanes, __ATOMIC_RELAXED), c = nsrc - at < lanes ? nsrc - at : lanes;
		int ret = sssp_dial_brandes_gpu_run(&bg, src + at, c, ws, &prm, &st->shape, acc, tuccompi_gpu_stream(),
						    out + at, err, sizeof(err));
		if (ret == -ENOSPC && c > 1)
		{
			/* nothing was added: the same sources in narrower traversals, and so the plan's next ones */
			if (c / 2 < lanes)
				__atomic_store_n(&st->lanes, c / 2, __ATOMIC_RELAXED);
			continue;
		}
		if (ret < 0)
		{
			tuccompi_batch_fail(b, ret, "betweenness: %s", err);
			return;
		}
		at += c;
	}
	batch_end(b, out);
}
#endif

/* auto: where auto would run dial for distances (a shallow graph whose weights suit it); the reason
 * either way. */
static int dial_brandes_pays(struct sssp_plan *p, char *reason, size_t len)
{
	char why[200];
	uint32_t wmax;
	if (sssp_plan_depth_rule(p) != 0)
	{
		snprintf(reason, len,
			 "auto: brandes (a deep graph: Brandes' sweeps after the batched engine's traversals; the dial "
			 "engine's levels would be many and thin)");
		return 0;
	}
	if (!sssp_dial_suits(p->g, &wmax, why, sizeof why))
	{
		snprintf(reason, len, "auto: brandes (shallow graph, but %s)", why);
		return 0;
	}
	snprintf(reason, len,
		 "auto: dial-brandes (shallow graph, integer weights 1..%u: Brandes' sweeps by the levels of the dial "
		 "engine's traversals, 512 sources per GPU traversal)",
		 wmax);
	return 1;
}

static int dial_brandes_prepare(struct sssp_plan *p, char *why, size_t whylen)
{
	const struct sssp_graph *g = p->g;
	struct dial_brandes_state *st = calloc(1, sizeof(*st));
	if (!st)
	{
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->state = st;
	char no[200];
	uint64_t slots = ((uint64_t)g->n + 31) / 32 * 32;
	int suits = sssp_dial_suits(g, &st->wmax, no, sizeof no);
	if (suits && p->o.cuda && slots * SSSP_DIAL_BRANDES_GPU_VISITS > UINT32_MAX)
	{
		snprintf(no, sizeof no, "%u vertices: more visits than its GPU log numbers in 32 bits", g->n);
		suits = 0;
	}
	if (!suits)
	{
		/* plan.c runs the brandes engine instead, with this reason */
		snprintf(p->reason, sizeof(p->reason), "betweenness on the brandes engine: the dial engine does not take this graph (%s)",
			 no);
		snprintf(why, whylen, "the dial-brandes engine does not take this graph: %s", no);
		return -EDOM;
	}
	int ret = sssp_dial_heavy_env(&st->heavy, why, whylen);
	if (ret < 0 || (ret = sssp_bc_prepare(p, &st->c, 0, why, whylen)) < 0) /* weights >= 1: no cycle of 0s */
		return ret;
	struct sssp_brandes_graph bg = { g->n, g->m, g->rowptr, g->col, g->w, st->c.in_rowptr, st->c.in_col, st->c.in_w, NULL };
	sssp_dial_brandes_shape_of(&bg, &st->shape);
	/* a traversal numbers its pairs in 32 bits */
	st->lanes = slots * SSSP_DIAL_BRANDES_GPU_LANES <= UINT32_MAX ? SSSP_DIAL_BRANDES_GPU_LANES
								      : (unsigned)(UINT32_MAX / slots);
	return 0;
}

/* MK 2, as the dial engine's: a second traversal hides the first one's sparse levels. */
static int dial_brandes_mk(const struct sssp_plan *p)
{
	(void)p;
	return 2;
}

/* The CPU units' sources per call of the levels' form, or 0 for one source per task: no GPU unit on any
 * rank, CPU_DEGREE arcs per vertex or more, calls of 64 x CPU_WORDS sources for every CPU unit, and every
 * rank's units' workspaces within sssp_options::cpu_memory (else half the free memory). Collective. */
static unsigned cpu_batch(const struct sssp_plan *p, uint64_t k)
{
	struct dial_brandes_state *st = p->state;
	int cpus = tuccompi_unit_count(TUCCOMPI_UNIT_CPU), gpus = p->o.cuda ? tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) : 0;
	uint64_t room = p->o.cpu_memory, local = cpus > 0 ? (uint64_t)cpus : 1;
	if (!room)
	{
		long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
		room = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2 : 0;
	}
	int64_t v[2] = { gpus > 0 ? gpus : 0, cpus > 0 ? cpus : 0 },
		fits = local * sssp_dial_brandes_cpu_workspace_size(p->g->n, st->wmax, CPU_WORDS) <= room;
	if (tuccompi_allreduce_i64(v, 2, TUCCOMPI_OP_SUM) < 0 || tuccompi_allreduce_i64(&fits, 1, TUCCOMPI_OP_MIN) < 0)
		return 0; /* the ranks cannot agree (the layer stopped): the set fails anyway */
	uint64_t units = v[1] > 0 ? (uint64_t)v[1] : 1;
	if (v[0] > 0 || !fits || p->g->m < (uint64_t)CPU_DEGREE * p->g->n || k < 64 * CPU_WORDS * units)
		return 0;
	st->words = CPU_WORDS;
	return 64 * CPU_WORDS;
}

static int dial_brandes_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	struct dial_brandes_state *st = p->state;
	struct tuccompi_plugin *pl = &p->plugin;
	memset(pl, 0, sizeof(*pl));
	pl->name = "sssp-dial-brandes";
	pl->result_size = sizeof(struct sssp_summary);
	size_t ws = 64, one = sssp_bc_source_workspace(&st->c, p->g->n);
	st->words = 0;
	unsigned batch = p->o.cpu ? cpu_batch(p, desc->ntasks) : 0;
	if (batch)
	{
		pl->cpu_batch = dial_brandes_cpu_wide;
		pl->batch_max[TUCCOMPI_UNIT_CPU] = batch;
		ws = sssp_dial_brandes_cpu_workspace_size(p->g->n, st->wmax, st->words);
		ws = ws > one ? ws : one; /* an overflowed call's sources one by one */
	}
	else if (p->o.cpu)
	{
		pl->cpu = sssp_bc_cpu_task;
		ws = one;
	}
#ifdef SSSP_WITH_CUDA
	if (p->o.cuda)
	{
		pl->cuda_batch = dial_brandes_cuda;
		pl->batch_max[TUCCOMPI_UNIT_CUDA] = SSSP_DIAL_BRANDES_GPU_LANES;
	}
#endif
	pl->workspace_size[0] = ws;
	pl->nworkspaces = 1;
	return sssp_bc_taskset(p, &st->c, desc, p->o.cpu);
}

/* The packed graph, out- and in-arcs; a batch: the traversal's workspace, its log, the pairs' values and
 * the worker's reduction buffer. */
static uint64_t dial_brandes_gpu_bytes(const struct sssp_plan *p, int with_rows, uint64_t *shared)
{
	const struct dial_brandes_state *st = p->state;
	(void)with_rows; /* no rows: the app refuses --rows with --betweenness */
	*shared = st->c.packed_size + sssp_bc_gpu_shared(p, &st->c);
#ifdef SSSP_WITH_CUDA
	return sssp_dial_brandes_gpu_workspace_size(p->g->n, st->wmax, &st->shape) + sssp_bc_reduce_size(p);
#else
	return 0;
#endif
}

static void dial_brandes_free(struct sssp_plan *p)
{
	struct dial_brandes_state *st = p->state;
	if (!st)
		return;
	sssp_bc_free(&st->c);
	free(st);
	p->state = NULL;
}

const struct sssp_engine_ops sssp_engine_dial_brandes = {
	.name = "dial-brandes",
	.mk = dial_brandes_mk,
	.pays = dial_brandes_pays,
	.prepare = dial_brandes_prepare,
	.taskset = dial_brandes_taskset,
	.gpu_bytes = dial_brandes_gpu_bytes,
	.free = dial_brandes_free,
};
