/* The "batched" engine, glued to the runtime: CPU units run one source per task with the
 * bucket-queue engine (sssp_cpu.c) on a packed copy of the graph; GPU units run batches of up to
 * SSSP_BATCH_LANES (64) sources, 64 or 32 per traversal (batch_gpu.cu), on the graph's out- and
 * in-arcs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batched/batch_gpu.h"
#include "common/buffers.h"
#include "cpu/sssp_cpu.h"
#include "engine.h"

#ifdef SSSP_WITH_CUDA
#include "common/gpu_glue.h"
#include <tuccompi_cuda.h>
#endif

/* Shared buffers of a task set (tuccompi_task_shared() indices). */
enum
{
	SH_PACKED = 0, /* the CPU engine's packed graph (a placeholder without CPU units) */
	SH_ROWPTR,     /* out-arcs and in-arcs for the GPU (absent without CUDA units) */
	SH_COL,
	SH_W,
	SH_IN_ROWPTR,
	SH_IN_COL,
	SH_IN_W,
	SH_TARGETS, /* the target list, for the GPU's gather (with CUDA units and targets only) */
};

/* What the engine precomputes for a graph. */
struct batched_state
{
	void *packed; /* the CPU engine's copy of the graph */
	size_t packed_size;
	size_t cpu_work; /* bytes of CPU scratch after the n distances */
	uint64_t *in_rowptr; /* the graph's in-arcs (GPU) */
	uint32_t *in_col, *in_w;
	uint32_t delta; /* the GPU's bucket width (0: none) */
};

static const struct batched_state *state_of(const struct sssp_args *a)
{
	return a->plan->state;
}

/* CPU: one source. Workspace 0 holds the n distances, then the engine's scratch. */
static void batched_cpu(struct tuccompi_task *t, void *arg)
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

#ifdef SSSP_WITH_CUDA
static size_t batched_gpu_workspace(const struct sssp_args *a, int with_rows)
{
	return sssp_batch_gpu_workspace_size_cols(a->n, with_rows, a->ntargets);
}

static int batched_gpu_run(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src, unsigned nsrc, void *ws,
			   const struct sssp_gpu_cols *c, uint32_t *rows, struct sssp_summary *out, char *why, size_t whylen)
{
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	struct sssp_batch_dgraph dg = {
		.n = a->n,
		.m = a->plan->g->m,
		.rowptr = tuccompi_task_shared(t0, SH_ROWPTR),
		.col = tuccompi_task_shared(t0, SH_COL),
		.w = tuccompi_task_shared(t0, SH_W),
		.in_rowptr = tuccompi_task_shared(t0, SH_IN_ROWPTR),
		.in_col = tuccompi_task_shared(t0, SH_IN_COL),
		.in_w = tuccompi_task_shared(t0, SH_IN_W),
	};
	int mk = tuccompi_get_mk();
	struct sssp_batch_params prm = {
		.delta = state_of(a)->delta,
		.share = mk > 0 ? (unsigned)mk : 1,
		.targets = a->ntargets ? tuccompi_task_shared(t0, SH_TARGETS) : NULL,
		.ntargets = a->ntargets,
		.cols = c->host,
		.col_dst = c->dst,
		.col_pitch = sssp_result_size(a),
	};
	return sssp_batch_gpu_run(&dg, src, nsrc, ws, &prm, tuccompi_gpu_stream(), out, rows, why, whylen);
}

/* GPU: up to SSSP_BATCH_LANES sources; its host rows and columns sized for that many at once */
static const struct sssp_gpu_batch_engine batched_gpu = {
	.prefix = "sssp batched engine",
	.lanes = SSSP_BATCH_LANES,
	.workspace = batched_gpu_workspace,
	.run = batched_gpu_run,
};

static void batched_cuda(struct tuccompi_batch *b, void *arg)
{
	sssp_gpu_batch_job(arg, b, &batched_gpu);
}
#endif

static int batched_prepare(struct sssp_plan *p, char *why, size_t whylen)
{
	const struct sssp_graph *g = p->g;
	struct batched_state *st = calloc(1, sizeof(*st));
	if (!st)
	{
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->state = st;
	if (p->o.cpu)
	{
		int ret = sssp_cpu_graph_packed(g, &st->packed, &st->packed_size, why, whylen);
		if (ret < 0)
			return ret;
		st->cpu_work = sssp_cpu_workspace_size(st->packed);
	}
	if (p->o.cuda)
	{
		st->in_rowptr = malloc(((size_t)g->n + 1) * sizeof(uint64_t));
		st->in_col = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
		st->in_w = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
		if (!st->in_rowptr || !st->in_col || !st->in_w)
		{
			snprintf(why, whylen, "out of memory for the graph's in-arcs (%llu arcs)", (unsigned long long)g->m);
			return -ENOMEM;
		}
		sssp_transpose(g, st->in_rowptr, st->in_col, st->in_w);
		st->delta = sssp_plan_bucket_width(p);
	}
	return 0;
}

/* MK 2 on shallow graphs, 4 on deep ones (small frontiers leave room for other batches): on shallow
 * graphs one traversal nearly fills the GPU, but two at once hide each other's sparse steps, alone
 * and beside the CPU cores (docs/apsp.md, "Engines"). */
static int batched_mk(const struct sssp_plan *p)
{
	const struct batched_state *st = p->state;
	if (!st) /* judged ahead (sssp_plan_mk_ahead): the width prepare will take */
		return sssp_plan_bucket_width(p) ? 4 : 2;
	return st->delta ? 4 : 2;
}

static int batched_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	const struct sssp_graph *g = p->g;
	const struct batched_state *st = p->state;
	struct tuccompi_plugin *pl = &p->plugin;
	memset(pl, 0, sizeof(*pl));
	pl->name = "sssp-batched";
	pl->result_size = sssp_result_size(desc->arg);
	size_t ws = 64;
	if (p->o.cpu)
	{
		pl->cpu = batched_cpu;
		ws = (((size_t)g->n * sizeof(uint32_t) + 63) & ~(size_t)63) + st->cpu_work;
	}
#ifdef SSSP_WITH_CUDA
	if (p->o.cuda)
	{
		/* its workspace is the stream worker's own (sssp_gpu_thread_workspace) */
		pl->cuda_batch = batched_cuda;
		pl->batch_max[TUCCOMPI_UNIT_CUDA] = SSSP_BATCH_LANES;
	}
#endif
	pl->workspace_size[0] = ws;
	pl->nworkspaces = 1;
	desc->nshared = 0;
	size_t n1 = ((size_t)g->n + 1) * sizeof(uint64_t), m4 = (size_t)g->m * sizeof(uint32_t);
	/* the CPU engine's packed graph first (a placeholder without CPU units), then the GPU's arcs */
	const void *ptr[7] = { st->packed, g->rowptr, g->col, g->w, st->in_rowptr, st->in_col, st->in_w };
	size_t size[7] = { st->packed ? st->packed_size : 0, n1, m4, m4, n1, m4, m4 };
	int ret = sssp_share_buffers(desc, ptr, size, p->o.cuda ? 7 : 1);
	return ret == 0 && p->o.cuda ? sssp_share_targets(desc, desc->arg) : ret; /* a failure unshares all */
}

/* The packed graph, out- and in-arcs, the targets; a batch's workspace (batch_gpu.h). */
static uint64_t batched_gpu_bytes(const struct sssp_plan *p, int with_rows, uint64_t *shared)
{
	const struct batched_state *st = p->state;
	uint64_t n = p->g->n, m = p->g->m;
	*shared = st->packed_size + 2 * (8 * (n + 1) + 8 * m) + 4 * (uint64_t)p->o.ntargets;
#ifdef SSSP_WITH_CUDA
	return sssp_batch_gpu_workspace_size_cols(p->g->n, with_rows, p->o.ntargets);
#else
	(void)with_rows;
	return 0;
#endif
}

static void batched_drop_gpu(struct sssp_plan *p)
{
	struct batched_state *st = p->state;
	free(st->in_rowptr);
	free(st->in_col);
	free(st->in_w);
	st->in_rowptr = NULL;
	st->in_col = st->in_w = NULL;
	st->delta = 0;
}

static void batched_free(struct sssp_plan *p)
{
	struct batched_state *st = p->state;
	if (!st)
		return;
	free(st->packed);
	batched_drop_gpu(p);
	free(st);
	p->state = NULL;
}

const struct sssp_engine_ops sssp_engine_batched = {
	.name = "batched",
	.mk = batched_mk,
	.prepare = batched_prepare,
	.taskset = batched_taskset,
	.gpu_bytes = batched_gpu_bytes,
	.drop_gpu = batched_drop_gpu,
	.free = batched_free,
};
