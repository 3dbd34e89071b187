/* The "crauser" engine, the paper's: one source per task; CPU units run Dijkstra with an indexed
 * 4-ary heap (dijkstra.c), GPU units Crauser's phases as the three characterised kernels of the
 * paper's Table 2 (crauser.cu). Nothing to precompute: the task set shares the graph itself. */
#include <errno.h>
#include <string.h>

#include "common/buffers.h"
#include "common/sssp_env.h"
#include "engine.h"

int sssp_have_cuda(void)
{
#ifdef SSSP_WITH_CUDA
	return 1;
#else
	return 0;
#endif
}

/* Workspace 0: distances (4n bytes) on both kinds of unit. Workspaces 1 and 2: the CPU's
 * heap positions and heap (4n each); the GPU uses the first n bytes of 1 as vertex states
 * and the first bytes of 2 for its phase counters. */
void sssp_plugin_init(struct tuccompi_plugin *p, uint32_t n, int cpu, int cuda)
{
	memset(p, 0, sizeof(*p));
	p->name = "sssp";
	p->cpu = cpu ? sssp_cpu : NULL;
#ifdef SSSP_WITH_CUDA
	p->cuda = cuda ? sssp_cuda : NULL;
#else
	(void)cuda;
#endif
	p->result_size = sizeof(struct sssp_summary);
	size_t words = (size_t)n * sizeof(uint32_t);
	p->workspace_size[0] = words;
	p->workspace_size[1] = words > 64 ? words : 64;
	p->workspace_size[2] = words > 256 ? words : 256;
	p->nworkspaces = 3;
}

int sssp_shared_register(const struct sssp_graph *g, struct tuccompi_taskset_desc *desc)
{
	const void *ptr[4] = { g->rowptr, g->col, g->w, g->min_out };
	size_t size[4] = { ((size_t)g->n + 1) * sizeof(uint64_t), (size_t)g->m * sizeof(uint32_t),
			   (size_t)g->m * sizeof(uint32_t), (size_t)g->n * sizeof(uint32_t) };
	desc->nshared = 0;
	return sssp_share_buffers(desc, ptr, size, 4);
}

void sssp_shared_unregister(struct tuccompi_taskset_desc *desc)
{
	sssp_unshare_buffers(desc);
}

/* MK 4: the paper's one-source kernels leave most of a large GPU idle (docs/apsp.md, "Engines"). */
static int crauser_mk(const struct sssp_plan *p)
{
	(void)p;
	return 4;
}

static int crauser_prepare(struct sssp_plan *p, char *why, size_t whylen)
{
	(void)p;
	int fused; /* the GPU's kernels read it at their first run: refuse a bad value before the set */
	return sssp_kernels_fused(&fused, why, whylen) < 0 ? -EINVAL : 0;
}

static int crauser_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	sssp_plugin_init(&p->plugin, p->g->n, p->o.cpu, p->o.cuda);
	p->plugin.result_size = sssp_result_size(desc->arg);
	return sssp_shared_register(p->g, desc);
}

/* The graph (rowptr, col, w, min_out) and the three workspaces of n words (sssp_plugin_init). */
static uint64_t crauser_gpu_bytes(const struct sssp_plan *p, int with_rows, uint64_t *shared)
{
	uint64_t n = p->g->n, m = p->g->m;
	(void)with_rows;
	*shared = 8 * (n + 1) + 12 * m + 4 * n;
	return 12 * n + 320;
}

static void crauser_free(struct sssp_plan *p)
{
	(void)p;
}

const struct sssp_engine_ops sssp_engine_crauser = {
	.name = "crauser",
	.mk = crauser_mk,
	.prepare = crauser_prepare,
	.taskset = crauser_taskset,
	.gpu_bytes = crauser_gpu_bytes,
	.free = crauser_free,
};
