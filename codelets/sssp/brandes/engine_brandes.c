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
#include "brandes/brandes.h"
#include "common/buffers.h"
#include "cpu/sssp_cpu.h"
#include "engine.h"

#ifdef SSSP_WITH_CUDA
#include "common/fail.h"
#include "common/gpu_glue.h"
#include <tuccompi_cuda.h>
#endif

/* Shared buffers of a task set (tuccompi_task_shared() indices). */
enum
{
	SH_PACKED = 0, /* the CPU engine's packed graph (a placeholder without CPU units) */
	SH_ROWPTR,     /* out-arcs and in-arcs (both kinds of unit) */
	SH_COL,
	SH_W,
	SH_IN_ROWPTR,
	SH_IN_COL,
	SH_IN_W,
	SH_ARC_IN, /* out-arc -> its place among the in-arcs (GPU; a placeholder without CUDA units) */
};

struct brandes_state
{
	void *packed;
	size_t packed_size, cpu_sssp_work, cpu_brandes_work;
	uint64_t *in_rowptr;
	uint32_t *in_col, *in_w;
	uint32_t *arc_in; /* GPU: sssp_brandes_arc_map() */
	uint32_t delta;   /* the GPU's bucket width (0: none) */
	struct sssp_brandes_shape shape;
};

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

static const struct brandes_state *state_of(const struct sssp_args *a)
{
	return a->plan->state;
}

static struct sssp_brandes_graph graph_of(struct tuccompi_task *t, uint32_t n, uint64_t m)
{
	struct sssp_brandes_graph bg = {
		.n = n,
		.m = m,
		.rowptr = tuccompi_task_shared(t, SH_ROWPTR),
		.col = tuccompi_task_shared(t, SH_COL),
		.w = tuccompi_task_shared(t, SH_W),
		.in_rowptr = tuccompi_task_shared(t, SH_IN_ROWPTR),
		.in_col = tuccompi_task_shared(t, SH_IN_COL),
		.in_w = tuccompi_task_shared(t, SH_IN_W),
		.arc_in = tuccompi_task_shared(t, SH_ARC_IN),
	};
	return bg;
}

/* CPU: one source. Workspace 0: the n distances, the bucket queue's scratch, Brandes' scratch. */
static void brandes_cpu_task(struct tuccompi_task *t, void *arg)
{
	struct sssp_args *a = arg;
	const struct brandes_state *st = state_of(a);
	uint32_t src = *(const uint32_t *)tuccompi_task_input(t);
	char *ws = tuccompi_task_workspace(t, 0);
	uint32_t *dist = (uint32_t *)ws;
	void *qwork = ws + ALIGN64((size_t)a->n * sizeof(uint32_t));
	void *bwork = (char *)qwork + ALIGN64(st->cpu_sssp_work);
	struct sssp_summary *out = tuccompi_task_result(t);
	sssp_cpu_run(tuccompi_task_shared(t, SH_PACKED), src, dist, qwork, out);
	out->source = src;
	struct sssp_brandes_graph bg = graph_of(t, a->n, a->plan->g->m);
	char err[256];
	const double *delta = sssp_brandes_cpu(&bg, src, dist, bwork, err, sizeof(err));
	if (!delta)
	{
		tuccompi_task_fail(t, -ELOOP, "%s", err);
		return;
	}
	/* only now, with nothing left to fail, into the sums */
	struct tuccompi_exact *acc = tuccompi_task_reduce_buffer(t);
	if (!acc)
	{
		tuccompi_task_fail(t, -ENOMEM, "betweenness: %s", tuccompi_last_error());
		return;
	}
	sssp_brandes_accumulate(acc, delta, a->n, src);
}

#ifdef SSSP_WITH_CUDA
/* GPU: up to 64 sources, one traversal; its workspace is the stream worker's own, the batched
 * engine's followed by Brandes'. */
static size_t brandes_gpu_workspace(const struct sssp_args *a, int with_rows)
{
	(void)with_rows; /* summaries only */
	return ALIGN64(sssp_batch_gpu_workspace_size(a->n, 0)) +
	       sssp_brandes_gpu_workspace_size(a->n, a->plan->g->m, &state_of(a)->shape);
}

static int brandes_gpu_run(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src, unsigned nsrc, void *ws,
			   const struct sssp_gpu_cols *c, uint32_t *rows, struct sssp_summary *out, char *why, size_t whylen)
{
	const struct brandes_state *st = state_of(a);
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	struct sssp_brandes_graph bg = graph_of(t0, a->n, a->plan->g->m);
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
	return sssp_brandes_gpu(&bg, &st->shape, src, nsrc, sssp_batch_gpu_dist(ws), acc,
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
	st->in_rowptr = malloc(((size_t)g->n + 1) * sizeof(uint64_t));
	st->in_col = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
	st->in_w = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
	uint32_t *tmp = malloc(2 * ((size_t)g->n + 1) * sizeof(uint32_t));
	if (!st->in_rowptr || !st->in_col || !st->in_w || !tmp)
	{
		free(tmp);
		snprintf(why, whylen, "out of memory for the graph's in-arcs (%llu arcs)", (unsigned long long)g->m);
		return -ENOMEM;
	}
	uint32_t cu, cv;
	int cyc = sssp_brandes_zero_cycle(g, tmp, &cu, &cv);
	free(tmp);
	if (cyc)
	{
		snprintf(why, whylen,
			 "betweenness: arcs of weight 0 form a cycle (through the arc %u -> %u, ids from 0): the vertices on it have "
			 "infinitely many shortest paths; give those arcs a positive weight (an undirected edge of weight 0 "
			 "is such a cycle)",
			 cu, cv);
		return -EINVAL;
	}
	sssp_transpose(g, st->in_rowptr, st->in_col, st->in_w);
	struct sssp_brandes_graph bg = { g->n, g->m, g->rowptr, g->col, g->w, st->in_rowptr, st->in_col, st->in_w, NULL };
	sssp_brandes_shape_of(&bg, &st->shape);
	if (p->o.cpu)
	{
		int ret = sssp_cpu_graph_packed(g, &st->packed, &st->packed_size, why, whylen);
		if (ret < 0)
			return ret;
		st->cpu_sssp_work = sssp_cpu_workspace_size(st->packed);
		st->cpu_brandes_work = sssp_brandes_cpu_work_size(g->n);
	}
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
		if (!(st->arc_in = malloc((g->m ? g->m : 1) * sizeof(uint32_t))) ||
		    sssp_brandes_arc_map(g, st->in_rowptr, st->arc_in) < 0)
		{
			snprintf(why, whylen, "out of memory for the GPU's map of %llu arcs", (unsigned long long)g->m);
			return -ENOMEM;
		}
	}
	if (p->o.engine == SSSP_ENGINE_PHAST || p->o.engine == SSSP_ENGINE_CRAUSER || p->o.engine == SSSP_ENGINE_DIAL)
		snprintf(p->reason, sizeof(p->reason),
			 "betweenness runs on the batched engine's traversals, not %s's (%s)", p->asked,
			 p->o.engine == SSSP_ENGINE_PHAST  ? "PHAST's shortcuts stand for paths: they would not count them"
			 : p->o.engine == SSSP_ENGINE_DIAL ? "its levels keep no distances to sweep back over"
							   : "it has no 64-source kernel");
	else
		snprintf(p->reason, sizeof(p->reason),
			 "betweenness: Brandes' sweeps after the batched engine's traversals (PHAST's shortcuts would not "
			 "count paths)");
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
	const struct sssp_graph *g = p->g;
	const struct brandes_state *st = p->state;
	struct tuccompi_plugin *pl = &p->plugin;
	memset(pl, 0, sizeof(*pl));
	pl->name = "sssp-brandes";
	pl->result_size = sizeof(struct sssp_summary);
	size_t ws = 64;
	if (p->o.cpu)
	{
		pl->cpu = brandes_cpu_task;
		ws = ALIGN64((size_t)g->n * sizeof(uint32_t)) + ALIGN64(st->cpu_sssp_work) + st->cpu_brandes_work;
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
	struct sssp_args *a = desc->arg;
	desc->reduce = (struct tuccompi_reduce){
		.size = (size_t)g->n * sizeof(struct tuccompi_exact),
		.combine = tuccompi_reduce_sum_exact,
		.result = a->betweenness,
	};
	desc->nshared = 0;
	size_t n1 = ((size_t)g->n + 1) * sizeof(uint64_t), m4 = (size_t)g->m * sizeof(uint32_t);
	const void *ptr[8] = { st->packed, g->rowptr, g->col, g->w, st->in_rowptr, st->in_col, st->in_w, st->arc_in };
	size_t size[8] = { st->packed ? st->packed_size : 0, n1, m4, m4, n1, m4, m4, st->arc_in ? m4 : 0 };
	return sssp_share_buffers(desc, ptr, size, 8);
}

/* The packed graph, out- and in-arcs, the arc map; a batch: the batched engine's workspace, Brandes' and the
 * worker's reduction buffer. */
static uint64_t brandes_gpu_bytes(const struct sssp_plan *p, int with_rows, uint64_t *shared)
{
	const struct brandes_state *st = p->state;
	uint64_t n = p->g->n, m = p->g->m;
	(void)with_rows; /* no rows: the app refuses --rows with --betweenness */
	*shared = st->packed_size + 2 * (8 * (n + 1) + 8 * m) + 4 * m;
#ifdef SSSP_WITH_CUDA
	return ALIGN64(sssp_batch_gpu_workspace_size(p->g->n, 0)) +
	       sssp_brandes_gpu_workspace_size(p->g->n, p->g->m, &st->shape) + n * sizeof(struct tuccompi_exact);
#else
	return 0;
#endif
}

/* The plan goes on with its CPU units: the arc map was the GPU's alone. */
static void brandes_drop_gpu(struct sssp_plan *p)
{
	struct brandes_state *st = p->state;
	free(st->arc_in);
	st->arc_in = NULL;
	st->delta = 0;
}

static void brandes_free(struct sssp_plan *p)
{
	struct brandes_state *st = p->state;
	if (!st)
		return;
	free(st->packed);
	free(st->in_rowptr);
	free(st->in_col);
	free(st->in_w);
	free(st->arc_in);
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
