/* The "brandes" engine: betweenness centrality (sssp_options::betweenness). A task is still one
 * source, and its result still the source's summary (so the table of -o comes with it); its
 * dependencies are added into the task set's reduction (desc.reduce: struct tuccompi_exact per
 * vertex, summed exactly whatever the units, the policy and the ranks). CPU units: the bucket-queue
 * engine's distances (sssp_cpu.c), then Brandes' sweeps (brandes_cpu.c); GPU units: the batched
 * engine's 64-source traversal (batch_gpu.cu), then the same sweeps 64 lanes at a time
 * (brandes_gpu.cu), in the same order of sums, so that a source gives the same bits on either.
 *
 * Why an engine of its own rather than an output of the batched one: its results are a reduction
 * and not per-source rows, it needs the in-arcs on the CPU too (the path counts are pulled over
 * them), its workspaces are other, and graphs with cycles of arcs of weight 0 are refused here
 * (their path counts are infinite). PHAST is not used for betweenness: its shortcuts stand for
 * paths, so counting tight arcs of the hierarchy would count shortcuts, not paths (unpacking them
 * for every source would cost more than the batched traversal); crauser has no 64-lane kernel. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batched/batch_gpu.h"
#include "brandes/bc_common.h"
#include "brandes/brandes.h"
#include "common/buffers.h"
#include "engine.h"

#ifdef SSSP_WITH_CUDA
#include "common/fail.h"
#include "common/gpu_glue.h"
#include <tuccompi_cuda.h>
#endif

struct brandes_state
{
	struct sssp_bc_common c; /* first: the shared CPU task reads it */
	uint32_t delta;          /* the GPU's bucket width (0: none) */
	struct sssp_brandes_shape shape;
};

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

static const struct brandes_state *state_of(const struct sssp_args *a)
{
	return a->plan->state;
}

#ifdef SSSP_WITH_CUDA
/* GPU: up to 64 sources, one traversal; its workspace is the stream worker's own, the batched
 * engine's followed by Brandes'. */
static size_t brandes_gpu_workspace(const struct sssp_args *a, int with_rows)
{
	(void)with_rows; /* summaries only */
	return ALIGN64(sssp_batch_gpu_workspace_size(a->n, 0)) +
	       sssp_brandes_gpu_workspace_size(a->n, a->plan->g->m, &state_of(a)->shape, a->plan->o.edge_betweenness);
}

static int brandes_gpu_run(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src, unsigned nsrc, void *ws,
			   const struct sssp_gpu_cols *c, uint32_t *rows, struct sssp_summary *out, char *why, size_t whylen)
{
	const struct brandes_state *st = state_of(a);
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	struct sssp_brandes_graph bg = sssp_bc_graph_of(t0, a->n, a->plan->g->m);
	struct sssp_batch_dgraph dg = {
		.n = bg.n, .m = bg.m, .rowptr = bg.rowptr, .col = bg.col, .w = bg.w,
		.in_rowptr = bg.in_rowptr, .in_col = bg.in_col, .in_w = bg.in_w,
	};
	(void)c;
	(void)rows;
	struct sssp_batch_knobs kn;
	sssp_batch_knobs_default(&kn);
	kn.lanes = 64; /* one traversal, distances as dist[v][64] for the sweeps */
	int mk = tuccompi_get_mk();
	struct sssp_batch_params prm = { .delta = st->delta, .share = mk > 0 ? (unsigned)mk : 1, .knobs = &kn };
	void *stream = tuccompi_gpu_stream();
	int ret = sssp_batch_gpu_run(&dg, src, nsrc, ws, &prm, stream, out, NULL, why, whylen);
	if (ret < 0)
		return ret;
	struct tuccompi_exact *acc = tuccompi_task_reduce_buffer(t0);
	if (!acc)
		return sssp_fail(why, whylen, -ENOMEM, "%s", tuccompi_last_error());
	return sssp_brandes_gpu(&bg, &st->shape, src, nsrc, sssp_batch_gpu_dist(ws), acc, a->plan->o.edge_betweenness,
				(char *)ws + ALIGN64(sssp_batch_gpu_workspace_size(a->n, 0)), prm.share, stream, why, whylen);
}

static const struct sssp_gpu_batch_engine brandes_gpu = {
	.prefix = "betweenness",
	.lanes = SSSP_BATCH_LANES,
	.summaries_only = 1,
	.workspace = brandes_gpu_workspace,
	.run = brandes_gpu_run,
};

static void brandes_cuda(struct tuccompi_batch *b, void *arg)
{
	sssp_gpu_batch_job(arg, b, &brandes_gpu);
}
#endif

static int brandes_prepare(struct sssp_plan *p, char *why, size_t whylen)
{
	const struct sssp_graph *g = p->g;
	struct brandes_state *st = calloc(1, sizeof(*st));
	if (!st)
	{
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->state = st;
	int ret = sssp_bc_prepare(p, &st->c, 1, why, whylen);
	if (ret < 0)
		return ret;
	struct sssp_brandes_graph bg = { g->n, g->m, g->rowptr, g->col, g->w, st->c.in_rowptr, st->c.in_col, st->c.in_w, NULL };
	sssp_brandes_shape_of(&bg, &st->shape);
	if (p->o.cuda && g->m > UINT32_MAX)
	{
		snprintf(why, whylen, "betweenness on a GPU: %llu arcs, at most 2^32 - 1 (run it with --units cpu)",
			 (unsigned long long)g->m);
		return -EINVAL;
	}
	const char *sweep = getenv("TUCCOMPI_BRANDES_SWEEP");
	if (p->o.cuda && sweep && *sweep && strcmp(sweep, "auto") && strcmp(sweep, "order") && strcmp(sweep, "rounds"))
	{
		snprintf(why, whylen, "TUCCOMPI_BRANDES_SWEEP=%s: say auto, order or rounds (how a GPU sweeps: docs/apsp.md)",
			 sweep);
		return -EINVAL;
	}
	if (p->o.cuda)
	{
		st->delta = sssp_plan_bucket_width(p);
		if (!(st->c.arc_in = malloc((g->m ? g->m : 1) * sizeof(uint32_t))) ||
		    sssp_brandes_arc_map(g, st->c.in_rowptr, st->c.arc_in) < 0)
		{
			snprintf(why, whylen, "out of memory for the GPU's map of %llu arcs", (unsigned long long)g->m);
			return -ENOMEM;
		}
	}
	/* a distance engine named that has no betweenness engine of its own (plan.c's table) */
	if ((p->o.engine == SSSP_ENGINE_PHAST || p->o.engine == SSSP_ENGINE_CRAUSER) && !strcmp(p->reason, "as asked"))
		snprintf(p->reason, sizeof(p->reason),
			 "betweenness runs on the batched engine's traversals, not %s's (%s)", p->asked,
			 p->o.engine == SSSP_ENGINE_PHAST ? "PHAST's shortcuts stand for paths: they would not count them"
							  : "it has no 64-source kernel");
	return 0;
}

/* MK 1 on shallow graphs, 4 on deep ones: a betweenness batch's ordered sweeps take 1/MK of the GPU
 * each, and on a shallow graph one batch's distances and sweeps already fill it; on a deep graph the
 * sweeps wait on long chains, which other batches' work fills (docs/apsp.md, "Engines"). */
static int brandes_mk(const struct sssp_plan *p)
{
	const struct brandes_state *st = p->state;
	if (!st) /* judged ahead (sssp_plan_mk_ahead): the width prepare will take */
		return sssp_plan_bucket_width(p) ? 4 : 1;
	return st->delta ? 4 : 1;
}

static int brandes_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	const struct brandes_state *st = p->state;
	struct tuccompi_plugin *pl = &p->plugin;
	memset(pl, 0, sizeof(*pl));
	pl->name = "sssp-brandes";
	pl->result_size = sizeof(struct sssp_summary);
	size_t ws = 64;
	if (p->o.cpu)
	{
		pl->cpu = sssp_bc_cpu_task;
		ws = sssp_bc_source_workspace(&st->c, p->g->n);
	}
#ifdef SSSP_WITH_CUDA
	if (p->o.cuda)
	{
		pl->cuda_batch = brandes_cuda;
		pl->batch_max[TUCCOMPI_UNIT_CUDA] = SSSP_BATCH_LANES;
	}
#endif
	pl->workspace_size[0] = ws;
	pl->nworkspaces = 1;
	return sssp_bc_taskset(p, &st->c, desc, p->o.cpu);
}

/* The packed graph, out- and in-arcs, the arc map; a batch: the batched engine's workspace, Brandes' and the
 * worker's reduction buffer (the vertices' sums, and the arcs' with edge betweenness). */
static uint64_t brandes_gpu_bytes(const struct sssp_plan *p, int with_rows, uint64_t *shared)
{
	const struct brandes_state *st = p->state;
	(void)with_rows; /* no rows: the app refuses --rows with --betweenness */
	*shared = st->c.packed_size + sssp_bc_gpu_shared(p, &st->c);
#ifdef SSSP_WITH_CUDA
	return ALIGN64(sssp_batch_gpu_workspace_size(p->g->n, 0)) +
	       sssp_brandes_gpu_workspace_size(p->g->n, p->g->m, &st->shape, p->o.edge_betweenness) + sssp_bc_reduce_size(p);
#else
	return 0;
#endif
}

/* The plan goes on with its CPU units: the arc map was the GPU's alone. */
static void brandes_drop_gpu(struct sssp_plan *p)
{
	struct brandes_state *st = p->state;
	free(st->c.arc_in);
	st->c.arc_in = NULL;
	st->delta = 0;
}

static void brandes_free(struct sssp_plan *p)
{
	struct brandes_state *st = p->state;
	if (!st)
		return;
	sssp_bc_free(&st->c);
	free(st);
	p->state = NULL;
}

const struct sssp_engine_ops sssp_engine_brandes = {
	.name = "brandes",
	.mk = brandes_mk,
	.prepare = brandes_prepare,
	.taskset = brandes_taskset,
	.gpu_bytes = brandes_gpu_bytes,
	.drop_gpu = brandes_drop_gpu,
	.free = brandes_free,
};
