/* The "phast" engine, glued to the runtime: a contraction hierarchy of the graph (ch_build.c: built
 * once, cached in a file tied to the graph), then PHAST trees: CPU units sweep
 * SSSP_PHAST_LANES sources at once (phast.c), GPU units SSSP_PHAST_GPU_LANES per pass
 * (phast_gpu.cu; fewer when the GPU cannot hold their rows). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buffers.h"
#include "common/depth.h"
#include "engine.h"
#include "phast/ch.h"
#include "phast/phast.h"

#ifdef SSSP_WITH_CUDA
#include "phast/phast_gpu.h"
#include <tuccompi_cuda.h>
#endif

/* What the hierarchy costs to build, per vertex and core, and what it saves per source against the
 * batched engine, per million vertices, with a GPU (saved per source) and without one (16 cores'
 * bucket-queue Dijkstra and PHAST rates per core: saved 1/(dial c) - 1/(phast c) s per source on c
 * cores). The measurements they come from: docs/apsp.md, "Engines" (auto). Auto builds the
 * hierarchy when the sources pay for it. */
#define PHAST_BUILD_S_PER_VERTEX_CORE 1e-4
#define PHAST_SAVED_S_PER_SOURCE_PER_MVERTEX_GPU 1.8e-3
#define CPU_DIAL_SSSP_PER_S_PER_CORE_1M 20.0
#define CPU_PHAST_SSSP_PER_S_PER_CORE_1M 300.0

struct phast_state
{
	struct sssp_ch *ch;
	struct sssp_ch_dims dims;
	struct sssp_ch_stats stats;
	int from_cache;
};

static unsigned cores(const struct sssp_plan *p)
{
	if (p->o.threads)
		return p->o.threads;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* A hierarchy cache is named and there (whether it belongs to this graph is for sssp_ch_read). */
static int cache_there(const struct sssp_plan *p)
{
	struct stat sb;
	return p->o.ch_cache && stat(p->o.ch_cache, &sb) == 0;
}

/* Load the hierarchy into st from the cache when it is there and belongs to this graph. */
static int load_cached(const struct sssp_plan *p, struct phast_state *st, char *why, size_t len)
{
	if (!cache_there(p))
		return 0;
	int ret = sssp_ch_read(p->o.ch_cache, sssp_graph_hash(p->g), &st->ch, why, len);
	if (ret < 0)
	{
		if (p->o.verbose)
			fprintf(stderr, "sssp: %s: rebuilding the hierarchy\n", why);
		st->ch = NULL;
		return 0;
	}
	return 1;
}

/* auto: the batched engine, except on graphs of large diameter (road networks, grids) when a
 * contraction hierarchy pays for itself: it is cached, or the sources are enough to earn its
 * building. A hierarchy read from the cache stays in p->state for phast_prepare. */
static int phast_pays(struct sssp_plan *p, char *reason, size_t len)
{
	if (sssp_plan_depth_rule(p) == 0)
	{
		snprintf(reason, len,
			 "auto: batched (shallow graph: a breadth-first search from a hub ends within %u levels, so "
			 "frontier rounds are few)",
			 SSSP_DEPTH_LOW);
		return 0;
	}
	char why[256];
	if (p->ahead && cache_there(p))
		return 1; /* judged ahead: a cache is there (prepare reads it, or builds again if stale) */
	struct phast_state *st = calloc(1, sizeof(*st));
	if (st && load_cached(p, st, why, sizeof(why)))
	{
		p->state = st;
		snprintf(reason, len, "auto: phast (deep graph, road-like; its contraction hierarchy is cached in %s)",
			 p->o.ch_cache);
		return 1;
	}
	free(st);
	double build = PHAST_BUILD_S_PER_VERTEX_CORE * p->g->n / cores(p), mv = p->g->n / 1e6;
	double per = p->o.cuda ? PHAST_SAVED_S_PER_SOURCE_PER_MVERTEX_GPU * mv
			       : mv * (1 / CPU_DIAL_SSSP_PER_S_PER_CORE_1M - 1 / CPU_PHAST_SSSP_PER_S_PER_CORE_1M) / cores(p);
	double saved = per * (double)p->o.nsources;
	if (saved > build)
	{
		snprintf(reason, len,
			 "auto: phast (deep graph, road-like: building its contraction hierarchy, about %.1f s on %u "
			 "cores, saves about %.1f s over %llu sources)",
			 build, cores(p), saved, (unsigned long long)p->o.nsources);
		return 1;
	}
	snprintf(reason, len,
		 "auto: batched (deep graph, but %llu sources would not pay for a contraction hierarchy: about "
		 "%.1f s to build, %.1f s saved; give more sources or --ch-cache to keep one)",
		 (unsigned long long)p->o.nsources, build, saved);
	return 0;
}

static int phast_prepare(struct sssp_plan *p, char *why, size_t whylen)
{
	struct phast_state *st = p->state ? p->state : calloc(1, sizeof(*st));
	if (!st)
	{
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->state = st;
	if (st->ch || load_cached(p, st, why, whylen))
		st->from_cache = 1;
	else
	{
		/* every core for the build: the runtime's polling workers sleep meanwhile (beside them the
		 * build's threads would share their cores with the polling) */
		tuccompi_host_work_begin();
		int ret = sssp_ch_build(p->g, cores(p), &st->ch, &st->stats, why, whylen);
		tuccompi_host_work_end();
		if (ret == -EDOM && p->o.engine == SSSP_ENGINE_AUTO)
			/* auto took a deep graph for a road network, but it does not contract (the builder's
			 * only -EDOM): auto runs its default engine */
			snprintf(p->reason, sizeof(p->reason), "auto: batched (deep graph, but it does not contract: not road-like)");
		if (ret < 0)
			return ret;
		if (p->o.ch_cache)
		{
			char err[512];
			if (sssp_ch_write(st->ch, p->o.ch_cache, sssp_graph_hash(p->g), err, sizeof(err)) < 0)
				fprintf(stderr, "sssp: warning: the contraction hierarchy could not be cached: %s\n", err);
		}
	}
	sssp_ch_stats(st->ch, &st->stats);
	sssp_ch_dims(st->ch, &st->dims);
	if (p->o.verbose)
		fprintf(stderr,
			"sssp: contraction hierarchy %s: %llu shortcuts, %u levels, %llu up / %llu down arcs (built in %.2f s "
			"on %u threads)\n",
			st->from_cache ? "from the cache" : "built", (unsigned long long)st->stats.shortcuts, st->stats.levels,
			(unsigned long long)st->stats.up_arcs, (unsigned long long)st->stats.down_arcs, st->stats.build_s,
			st->stats.threads);
	return 0;
}

static void view_of(const struct sssp_plan *p, struct tuccompi_task *t0, struct sssp_ch_view *v)
{
	const void *buf[SSSP_CH_NBUF];
	for (unsigned k = 0; k < SSSP_CH_NBUF; k++)
		buf[k] = tuccompi_task_shared(t0, k);
	sssp_ch_view_from(&((const struct phast_state *)p->state)->dims, buf, v);
}

#ifdef SSSP_WITH_CUDA
static int lanes_warned; /* the GPU could not hold SSSP_PHAST_GPU_LANES rows per vertex: said once */
#endif

static void phast_batch(struct tuccompi_batch *b, void *arg, int gpu)
{
	struct sssp_args *a = arg;
	const struct sssp_plan *p = a->plan;
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	unsigned nsrc = tuccompi_batch_size(b);
	uint32_t *src = malloc(nsrc * sizeof(uint32_t));
	struct sssp_summary *out = malloc(nsrc * sizeof(struct sssp_summary));
	int want = sssp_wants_rows(a);
	uint32_t **rows = want ? calloc(nsrc, sizeof(uint32_t *)) : NULL;
	uint32_t *rb = want ? sssp_thread_rows((size_t)nsrc * a->n, gpu) : NULL;
	/* the target columns: gathered from the pass's distances (on the device by the GPU) */
	struct sssp_phast_out po = {
		.rows = rows,
		.targets = !a->ntargets ? NULL : gpu ? tuccompi_task_shared(t0, SSSP_CH_NBUF) : a->targets,
		.ntargets = a->ntargets,
		.harmonic = a->harmonic,
	};
	/* the GPU copies the columns straight into results registered with CUDA (the library does it
	 * for large results: tuccompi_taskset_desc::results) */
	uint32_t **col_dst = NULL;
	if (gpu && a->ntargets && sssp_host_registered(tuccompi_task_result(t0)) &&
	    (col_dst = malloc(nsrc * sizeof(*col_dst))))
	{
		for (unsigned i = 0; i < nsrc; i++)
			col_dst[i] = sssp_result_cols(tuccompi_task_result(tuccompi_batch_task(b, i)));
		po.col_dst = col_dst;
		po.col_pitch = sssp_result_size(a);
		po.cols = NULL;
	}
	else if (a->ntargets)
		po.cols = sssp_thread_cols((size_t)nsrc * a->ntargets, gpu);
	if (!src || !out || (want && (!rows || !rb)) || (a->ntargets && !po.cols && !po.col_dst))
	{
		tuccompi_batch_fail(b, -ENOMEM, "sssp phast engine: out of memory for %u sources", nsrc);
		goto out;
	}
	for (unsigned i = 0; i < nsrc; i++)
	{
		src[i] = *(const uint32_t *)tuccompi_task_input(tuccompi_batch_task(b, i));
		if (rows)
			rows[i] = rb + (size_t)i * a->n;
	}
	struct sssp_ch_view v;
	view_of(p, t0, &v);
	int ret;
	char err[256] = "";
	if (!gpu)
		ret = sssp_phast_cpu_out(&v, src, nsrc, tuccompi_task_workspace(t0, 0), out, &po);
#ifdef SSSP_WITH_CUDA
	else
	{
		/* a row of `lanes` words per vertex: fewer sources per pass where the GPU's memory
		 * cannot hold the rows (the batch then runs in several passes) */
		int mk = tuccompi_get_mk();
		unsigned lanes = SSSP_PHAST_GPU_LANES;
		size_t wsb;
		void *ws;
		while (!(ws = sssp_gpu_thread_workspace(wsb = sssp_phast_gpu_workspace_size_cols(a->n, lanes, a->ntargets))) &&
		       lanes > 32)
			lanes /= 2;
		if (ws && lanes < SSSP_PHAST_GPU_LANES && !__atomic_exchange_n(&lanes_warned, 1, __ATOMIC_RELAXED))
			fprintf(stderr, "sssp phast engine: the GPU has memory for %u sources per pass, not %u (%zu bytes of workspace)\n",
				lanes, SSSP_PHAST_GPU_LANES, sssp_phast_gpu_workspace_size(a->n, SSSP_PHAST_GPU_LANES));
		ret = ws ? sssp_phast_gpu_out(&v, src, nsrc, lanes, ws, wsb, out, &po, tuccompi_gpu_stream(),
					      mk > 0 ? (unsigned)mk : 1, NULL, err, sizeof(err))
			 : -ENOMEM;
		if (!ws)
			snprintf(err, sizeof(err), "cannot allocate %zu bytes of GPU workspace (32 sources per pass)", wsb);
	}
#else
	else
		ret = -ENODEV;
#endif
	if (ret < 0)
	{
		tuccompi_batch_fail(b, ret, "sssp phast engine: %s", err[0] ? err : "a source is out of range");
		goto out;
	}
	for (unsigned i = 0; i < nsrc; i++)
	{
		struct tuccompi_task *t = tuccompi_batch_task(b, i);
		*(struct sssp_summary *)tuccompi_task_result(t) = out[i];
		if (po.cols) /* else the GPU put them there */
			memcpy(sssp_result_cols(tuccompi_task_result(t)), po.cols + (size_t)i * a->ntargets,
			       (size_t)a->ntargets * sizeof(uint32_t));
	}
	if (rows)
		sssp_emit_batch_rows(a, b, src, (const uint32_t *const *)rows, nsrc);
out:
	free(src);
	free(out);
	free(rows);
	free(col_dst);
}

static void phast_cpu_batch(struct tuccompi_batch *b, void *arg)
{
	phast_batch(b, arg, 0);
}

#ifdef SSSP_WITH_CUDA
static void phast_cuda_batch(struct tuccompi_batch *b, void *arg)
{
	phast_batch(b, arg, 1);
}
#endif

static int phast_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	const struct phast_state *st = p->state;
	struct tuccompi_plugin *pl = &p->plugin;
	memset(pl, 0, sizeof(*pl));
	pl->name = "sssp-phast";
	pl->result_size = sssp_result_size(desc->arg);
	size_t ws = 64;
	if (p->o.cpu)
	{
		pl->cpu_batch = phast_cpu_batch;
		pl->batch_max[TUCCOMPI_UNIT_CPU] = SSSP_PHAST_LANES;
		ws = sssp_phast_cpu_workspace_size(p->g->n, SSSP_PHAST_LANES);
	}
#ifdef SSSP_WITH_CUDA
	if (p->o.cuda)
	{
		/* its workspace is the stream worker's own (sssp_gpu_thread_workspace) */
		pl->cuda_batch = phast_cuda_batch;
		pl->batch_max[TUCCOMPI_UNIT_CUDA] = SSSP_PHAST_GPU_LANES;
	}
#endif
	pl->workspace_size[0] = ws;
	pl->nworkspaces = 1;
	const void *ptr[SSSP_CH_NBUF];
	size_t size[SSSP_CH_NBUF];
	unsigned nb = sssp_ch_buffers(st->ch, ptr, size, SSSP_CH_NBUF);
	desc->nshared = 0;
	int ret = sssp_share_buffers(desc, ptr, size, nb);
	/* the GPU's gather reads the target list: shared buffer SSSP_CH_NBUF (a failure unshares all) */
	return ret == 0 && p->o.cuda ? sssp_share_targets(desc, desc->arg) : ret;
}

/* MK 12: a pass's top levels are latency, which overlapping passes hide, the more passes the more of
 * it, until the stream workers take the cores the CPU workers would use (docs/apsp.md, "PHAST").
 * The app holds it to the node's cores less four. */
static int phast_mk(const struct sssp_plan *p)
{
	(void)p;
	return 12;
}

/* The hierarchy's buffers and the targets, and one pass's workspace at the lanes the GPU runs. */
static uint64_t phast_gpu_bytes(const struct sssp_plan *p, int with_rows, uint64_t *shared)
{
	const struct phast_state *st = p->state;
	const void *ptr[SSSP_CH_NBUF];
	size_t size[SSSP_CH_NBUF];
	unsigned nb = st && st->ch ? sssp_ch_buffers(st->ch, ptr, size, SSSP_CH_NBUF) : 0;
	(void)with_rows; /* the rows' staging is part of the workspace */
	*shared = 4 * (uint64_t)p->o.ntargets;
	for (unsigned k = 0; k < nb; k++)
		*shared += size[k];
#ifdef SSSP_WITH_CUDA
	return sssp_phast_gpu_workspace_size_cols(p->g->n, SSSP_PHAST_GPU_LANES, p->o.ntargets);
#else
	return 0;
#endif
}

static void phast_free(struct sssp_plan *p)
{
	struct phast_state *st = p->state;
	if (!st)
		return;
	if (st->ch)
		sssp_ch_free(st->ch);
	free(st);
	p->state = NULL;
}

const struct sssp_engine_ops sssp_engine_phast = {
	.name = "phast",
	.mk = phast_mk,
	.pays = phast_pays,
	.prepare = phast_prepare,
	.taskset = phast_taskset,
	.gpu_bytes = phast_gpu_bytes,
	.free = phast_free,
};
