/* The "dial" engine, glued to the runtime: GPU units run batches of up to 512 sources by bit-parallel
 * levels (dial_gpu.cu; the algorithm in dial.h), for graphs whose weights are integers 1..64. CPU
 * units beside a GPU run one source per task with the bucket-queue engine (sssp_cpu.c), as the
 * batched engine's do: the bit-parallel CPU form (dial.c) holds a core for seconds per call, and a
 * unit holding 64 sources for seconds would end a task set long after the GPU (docs/apsp.md, "The
 * dial engine"). Without a GPU, for summaries and target columns (not rows or trees) and enough sources
 * to give every core full calls, the CPU units run the bit-parallel form 128 to 512 sources per call
 * (cpu_batch): fewer visits per source than the bucket queue's one at a time (docs/apsp.md, "The dial
 * engine"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buffers.h"
#include "cpu/sssp_cpu.h"
#include "dial/dial.h"
#include "dial/dial_gpu.h"
#include "engine.h"

#ifdef SSSP_WITH_CUDA
#include "common/gpu_glue.h"
#include <tuccompi_cuda.h>
#endif

/* Shared buffers of a task set (tuccompi_task_shared() indices). */
enum
{
	SH_PACKED = 0, /* the CPU engine's packed graph (a placeholder without CPU units) */
	SH_ROWPTR,     /* out-arcs for the GPU (absent without CUDA units) */
	SH_COL,
	SH_W,
	SH_TARGETS, /* the target list (with CUDA units and targets only) */
};

struct dial_state
{
	void *packed; /* the CPU engine's copy of the graph */
	size_t packed_size;
	size_t cpu_work; /* bytes of CPU scratch after the n distances */
	uint32_t wmax;   /* the heaviest arc */
	uint32_t heavy;  /* TUCCOMPI_DIAL_HEAVY: the GPU's heavy-vertex threshold (0: its default) */
	unsigned words;  /* the task set's CPU units run the bit-parallel form with this many words per mask (0: the
			  * bucket queue, one source per task) */
	uint32_t *slot;  /* with targets, for that form: each vertex's target slot (SSSP_DIAL_NO_SLOT: none) */
	uint32_t nslots; /* distinct targets */
};

/* CPU: one source with the bucket queue. Workspace 0 holds the n distances, then its scratch. */
static void dial_cpu(struct tuccompi_task *t, void *arg)
{
	struct sssp_args *a = arg;
	uint32_t src = *(const uint32_t *)tuccompi_task_input(t);
	uint32_t *dist = tuccompi_task_workspace(t, 0);
	void *work = (char *)dist + (((size_t)a->n * sizeof(uint32_t) + 63) & ~(size_t)63);
	struct sssp_summary *out = tuccompi_task_result(t);
	sssp_cpu_run(tuccompi_task_shared(t, SH_PACKED), src, dist, work, out);
	out->source = src;
	sssp_emit_row(a, t, src, dist);
	sssp_emit_cols(a, t, dist);
}

/* The bit-parallel CPU form's workspace: its own (dial.c), then with targets their distances (a slot per
 * distinct target). */
static size_t wide_align(size_t x)
{
	return (x + 63) & ~(size_t)63;
}

static size_t wide_workspace_bytes(uint32_t n, uint32_t wmax, unsigned words, uint32_t nslots)
{
	return wide_align(sssp_dial_cpu_workspace_size_words(n, wmax, words)) + sssp_dial_cpu_targets_size(nslots, words);
}

/* CPU without a GPU: up to 64 x words sources by bit-parallel levels (dial.c): the summaries, and the
 * target columns from the distances the call records for the targets. Workspace 0 is laid out as
 * wide_workspace_bytes() says. */
static void dial_cpu_wide(struct tuccompi_batch *b, void *arg)
{
	struct sssp_args *a = arg;
	const struct dial_state *st = a->plan->state;
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	unsigned nsrc = tuccompi_batch_size(b);
	struct sssp_graph g = {
		.n = a->n,
		.m = a->plan->g->m,
		.rowptr = tuccompi_task_shared(t0, SH_ROWPTR),
		.col = tuccompi_task_shared(t0, SH_COL),
		.w = tuccompi_task_shared(t0, SH_W),
	};
	uint32_t src[SSSP_DIAL_CPU_LANES_MAX];
	static __thread struct sssp_summary out[SSSP_DIAL_CPU_LANES_MAX];
	for (unsigned i = 0; i < nsrc; i++)
		src[i] = *(const uint32_t *)tuccompi_task_input(tuccompi_batch_task(b, i));
	char *work = tuccompi_task_workspace(t0, 0);
	struct sssp_dial_targets tg = {
		.slot = st->slot,
		.dist = (uint32_t *)(work + wide_align(sssp_dial_cpu_workspace_size_words(a->n, st->wmax, st->words))),
	};
	sssp_dial_cpu_run_targets(&g, st->wmax, st->words, src, nsrc, work, out, a->ntargets ? &tg : NULL);
	for (unsigned i = 0; i < nsrc; i++)
	{
		void *res = tuccompi_task_result(tuccompi_batch_task(b, i));
		*(struct sssp_summary *)res = out[i];
		uint32_t *c = sssp_result_cols(res);
		for (uint32_t j = 0; j < a->ntargets; j++)
			c[j] = sssp_dial_cpu_target_at(work, &tg, a->targets[j], i);
	}
}

/* With targets: each vertex's slot for the bit-parallel CPU form (one per distinct target), in st. */
static int target_slots(struct dial_state *st, const struct sssp_args *a, uint32_t n)
{
	free(st->slot);
	st->slot = NULL;
	st->nslots = 0;
	if (!a->ntargets)
		return 0;
	if (!(st->slot = malloc((size_t)n * sizeof(uint32_t))))
		return -ENOMEM;
	memset(st->slot, 0xff, (size_t)n * sizeof(uint32_t)); /* SSSP_DIAL_NO_SLOT */
	for (uint32_t j = 0; j < a->ntargets; j++)
		if (st->slot[a->targets[j]] == SSSP_DIAL_NO_SLOT)
			st->slot[a->targets[j]] = st->nslots++;
	return 0;
}

#ifdef SSSP_WITH_CUDA
static size_t dial_gpu_workspace(const struct sssp_args *a, int with_rows)
{
	const struct dial_state *st = a->plan->state;
	return sssp_dial_gpu_workspace_size(a->n, st->wmax, with_rows, a->ntargets);
}

static int dial_gpu_run(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src, unsigned nsrc, void *ws,
			const struct sssp_gpu_cols *c, uint32_t *rows, struct sssp_summary *out, char *why, size_t whylen)
{
	const struct dial_state *st = a->plan->state;
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	struct sssp_dial_dgraph dg = {
		.n = a->n,
		.m = a->plan->g->m,
		.rowptr = tuccompi_task_shared(t0, SH_ROWPTR),
		.col = tuccompi_task_shared(t0, SH_COL),
		.w = tuccompi_task_shared(t0, SH_W),
	};
	int mk = tuccompi_get_mk();
	struct sssp_dial_params prm = {
		.wmax = st->wmax,
		.share = mk > 0 ? (unsigned)mk : 1,
		.targets = a->ntargets ? tuccompi_task_shared(t0, SH_TARGETS) : NULL,
		.ntargets = a->ntargets,
		.cols = c->host,
		.col_dst = c->dst,
		.col_pitch = sssp_result_size(a),
		.heavy_deg = st->heavy,
	};
	return sssp_dial_gpu_run(&dg, src, nsrc, ws, &prm, tuccompi_gpu_stream(), out, rows, why, whylen);
}

/* GPU: up to SSSP_DIAL_GPU_LANES sources; its host rows and columns sized for the batch's */
static const struct sssp_gpu_batch_engine dial_gpu = {
	.prefix = "sssp dial engine",
	.workspace = dial_gpu_workspace,
	.run = dial_gpu_run,
};

static void dial_cuda(struct tuccompi_batch *b, void *arg)
{
	sssp_gpu_batch_job(arg, b, &dial_gpu);
}
#endif

/* Whether @p g suits the engine: weights 1..SSSP_DIAL_WMAX and distances below SSSP_DIST_LIMIT. */
static int suits(const struct sssp_graph *g, uint32_t *wmax, char *why, size_t whylen)
{
	if (!sssp_dial_weights(g, wmax, why, whylen))
		return 0;
	if (g->n && (uint64_t)(g->n - 1) * *wmax >= SSSP_DIST_LIMIT)
	{
		snprintf(why, whylen, "%u vertices with arcs up to %u could make distances of 2^31 and more", g->n,
			 *wmax);
		return 0;
	}
	return 1;
}

/* auto: on shallow graphs (a breadth-first search from a hub ends within SSSP_DEPTH_LOW levels:
 * the batched engine's own rule) whose weights suit it, with a GPU or without (the CPU units run the
 * bit-parallel form when the set gives each of them calls of 128 sources or more, else the batched
 * engine's bucket queue). On deep graphs it leaves the reason of the engine asked before it (phast). */
static int dial_pays(struct sssp_plan *p, char *reason, size_t len)
{
	char why[200];
	uint32_t wmax;
	if (sssp_plan_depth_rule(p) != 0)
		return 0;
	if (!suits(p->g, &wmax, why, sizeof why))
	{
		snprintf(reason, len, "auto: batched (shallow graph, but %s)", why);
		return 0;
	}
	if (p->o.cuda && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0)
		snprintf(reason, len,
			 "auto: dial (shallow graph, integer weights 1..%u: 512 sources per traversal by levels of equal "
			 "distance)",
			 wmax);
	else
		snprintf(reason, len,
			 "auto: dial (shallow graph, integer weights 1..%u: no GPU, and the CPU cores take up to 512 "
			 "sources per call by levels of equal distance when the set gives each core 128 or more)",
			 wmax);
	return 1;
}

static int dial_prepare(struct sssp_plan *p, char *why, size_t whylen)
{
	const struct sssp_graph *g = p->g;
	struct dial_state *st = calloc(1, sizeof(*st));
	if (!st)
	{
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->state = st;
	char no[200];
	if (!suits(g, &st->wmax, no, sizeof no))
	{
		snprintf(why, whylen, "the dial engine does not take this graph: %s; use --engine batched", no);
		return -EDOM;
	}
	const char *hv = getenv("TUCCOMPI_DIAL_HEAVY");
	if (hv && *hv)
	{
		char *end;
		errno = 0;
		unsigned long x = strtoul(hv, &end, 10);
		if (*end || errno || x < 1 || x > UINT32_MAX || *hv == '-')
		{
			snprintf(why, whylen,
				 "TUCCOMPI_DIAL_HEAVY=%s: say a number of out-arcs from 1 to %u (vertices with more have "
				 "them pushed by the whole GPU; default %d: docs/apsp.md, \"The dial engine\")",
				 hv, UINT32_MAX, SSSP_DIAL_GPU_HEAVY_DEG);
			return -EINVAL;
		}
		st->heavy = (uint32_t)x;
	}
	if (p->o.cpu)
	{
		int ret = sssp_cpu_graph_packed(g, &st->packed, &st->packed_size, why, whylen);
		if (ret < 0)
			return ret;
		st->cpu_work = sssp_cpu_workspace_size(st->packed);
	}
	return 0;
}

/* MK 2: one traversal's sparse first and last levels leave the GPU idle; a second hides them. */
static int dial_mk(const struct sssp_plan *p)
{
	(void)p;
	return 2;
}

/* Sources per call of the bit-parallel CPU form for the CPU units of a task set of @p k sources (and
 * st->words, its words per mask), or 0 for the bucket queue. It needs:
 * - no GPU unit for the set on any rank (beside a GPU, a core holding 512 sources for seconds would end
 *   the set long after it, also on a rank without the GPU);
 * - no output that needs rows or trees (written a row at a time, they cost the form more than it saves:
 *   docs/apsp.md); target columns come from the distances it records for the targets, which take
 *   4 x 64 x words bytes per distinct target;
 * - calls of at least 128 sources for every CPU unit of the cluster (fewer share too few visits to
 *   beat the bucket queue);
 * - every rank's units' workspaces within sssp_options::cpu_memory (tuccompi-apsp: half its memory
 *   limit, the one its check of the run's memory applies), else half the free memory (else narrower).
 * The calls are as few as 512 sources a call allow and of equal size, so that the units end together:
 * 600 sources on 2 units are 2 calls of 300, not 256, 256 and 88. Collective (two reductions over the
 * ranks, which build the set together) unless an output rules it out on every rank. */
static unsigned cpu_batch(const struct sssp_plan *p, const struct sssp_args *a, uint64_t k)
{
	struct dial_state *st = p->state;
	if (sssp_wants_rows(a))
		return 0;
	int cpus = tuccompi_unit_count(TUCCOMPI_UNIT_CPU), gpus = p->o.cuda ? tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) : 0;
	uint64_t local = cpus > 0 ? (uint64_t)cpus : 1, room = p->o.cpu_memory;
	if (!room)
	{
		long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
		room = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2 : 0;
	}
	unsigned fit = SSSP_DIAL_CPU_LANES_MAX / 64;
	if (target_slots(st, a, p->g->n) < 0)
		fit = 0; /* no memory for the slots: the bucket queue, on every rank (the reduction below) */
	while (fit >= 2 && local * wide_workspace_bytes(p->g->n, st->wmax, fit, st->nslots) > room)
		fit /= 2;
	int64_t count[2] = { gpus > 0 ? gpus : 0, cpus > 0 ? cpus : 0 }, widest = fit;
	if (tuccompi_allreduce_i64(count, 2, TUCCOMPI_OP_SUM) < 0 || tuccompi_allreduce_i64(&widest, 1, TUCCOMPI_OP_MIN) < 0)
		return 0; /* the ranks cannot agree (the layer stopped): the set fails anyway */
	uint64_t units = count[1] > 0 ? (uint64_t)count[1] : 1, most = SSSP_DIAL_CPU_LANES_MAX;
	if (count[0] > 0 || k < 128 * units || widest < 2)
		return 0;
	uint64_t calls = (k + most * units - 1) / (most * units), batch = (k + units * calls - 1) / (units * calls);
	unsigned w = 1;
	while (64 * w < batch)
		w *= 2;
	if (w > (unsigned)widest)
		w = (unsigned)widest, batch = 64 * w;
	st->words = w;
	return (unsigned)batch;
}

static int dial_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	const struct sssp_graph *g = p->g;
	struct dial_state *st = p->state;
	struct tuccompi_plugin *pl = &p->plugin;
	memset(pl, 0, sizeof(*pl));
	pl->name = "sssp-dial";
	pl->result_size = sssp_result_size(desc->arg);
	size_t ws = 64;
	st->words = 0;
	unsigned batch = p->o.cpu ? cpu_batch(p, desc->arg, desc->ntasks) : 0;
	if (batch)
	{
		pl->cpu_batch = dial_cpu_wide;
		pl->batch_max[TUCCOMPI_UNIT_CPU] = batch;
		ws = wide_workspace_bytes(g->n, st->wmax, st->words, st->nslots);
	}
	else if (p->o.cpu)
	{
		pl->cpu = dial_cpu;
		ws = (((size_t)g->n * sizeof(uint32_t) + 63) & ~(size_t)63) + st->cpu_work;
	}
#ifdef SSSP_WITH_CUDA
	if (p->o.cuda)
	{
		pl->cuda_batch = dial_cuda;
		pl->batch_max[TUCCOMPI_UNIT_CUDA] =
			sssp_wants_rows(desc->arg) ? SSSP_DIAL_GPU_ROW_LANES : SSSP_DIAL_GPU_LANES;
	}
#endif
	pl->workspace_size[0] = ws;
	pl->nworkspaces = 1;
	desc->nshared = 0;
	size_t n1 = ((size_t)g->n + 1) * sizeof(uint64_t), m4 = (size_t)g->m * sizeof(uint32_t);
	const void *ptr[4] = { st->packed, g->rowptr, g->col, g->w };
	size_t size[4] = { st->packed ? st->packed_size : 0, n1, m4, m4 };
	/* every buffer on every rank (the ranks must agree on nshared), whichever CPU form each rank's
	 * units run */
	int ret = sssp_share_buffers(desc, ptr, size, 4);
	return ret == 0 && p->o.cuda ? sssp_share_targets(desc, desc->arg) : ret;
}

static uint64_t dial_gpu_bytes(const struct sssp_plan *p, int with_rows, uint64_t *shared)
{
	const struct dial_state *st = p->state;
	uint64_t n = p->g->n, m = p->g->m;
	*shared = st->packed_size + 8 * (n + 1) + 8 * m + 4 * (uint64_t)p->o.ntargets;
#ifdef SSSP_WITH_CUDA
	return sssp_dial_gpu_workspace_size(p->g->n, st->wmax, with_rows, p->o.ntargets);
#else
	(void)with_rows;
	return 0;
#endif
}

static void dial_free(struct sssp_plan *p)
{
	struct dial_state *st = p->state;
	if (!st)
		return;
	free(st->packed);
	free(st->slot);
	free(st);
	p->state = NULL;
}

const struct sssp_engine_ops sssp_engine_dial = {
	.name = "dial",
	.mk = dial_mk,
	.pays = dial_pays,
	.prepare = dial_prepare,
	.taskset = dial_taskset,
	.gpu_bytes = dial_gpu_bytes,
	.free = dial_free,
};
