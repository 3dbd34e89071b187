/* The SSSP plug-in's description: implementations, workspaces (PARLLMK), shared graph. */
#include <errno.h>
#include <string.h>

#include "sssp.h"

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

int sssp_share_buffers(struct tuccompi_taskset_desc *desc, const void *const *ptr, const size_t *size, unsigned n)
{
	static const uint64_t dummy = 0; /* an empty array still needs a buffer */
	if (desc->nshared + n > TUCCOMPI_MAX_SHARED)
		return -ENOSPC;
	for (unsigned k = 0; k < n; k++)
	{
		int ret = tuccompi_shared_register(&desc->shared[desc->nshared], size[k] ? ptr[k] : &dummy,
						   size[k] ? size[k] : sizeof(dummy));
		if (ret < 0)
		{
			while (desc->nshared)
				tuccompi_shared_unregister(desc->shared[--desc->nshared]);
			return ret;
		}
		desc->nshared++;
	}
	return 0;
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
	for (unsigned k = 0; k < desc->nshared; k++)
		tuccompi_shared_unregister(desc->shared[k]);
	desc->nshared = 0;
}

/* ------------------------------------------------------------------ engines and plans */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "batch_gpu.h"
#include "plan.h"

static const char *const engine_names[] = { "auto", "crauser", "batched", "phast" };

int sssp_engine_parse(const char *name, enum sssp_engine *out, char *why, size_t whylen)
{
	for (unsigned i = 0; i < sizeof(engine_names) / sizeof(engine_names[0]); i++)
		if (name && !strcmp(name, engine_names[i]))
		{
			*out = (enum sssp_engine)i;
			return 0;
		}
	snprintf(why, whylen, "unknown SSSP engine '%s' (auto, batched, crauser, phast)", name ? name : "(null)");
	return -EINVAL;
}

const char *sssp_engine_name(enum sssp_engine e)
{
	return (unsigned)e < sizeof(engine_names) / sizeof(engine_names[0]) ? engine_names[e] : "?";
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* auto: the batched engine, except on graphs of large diameter (road networks, grids) when a
 * contraction hierarchy pays for itself (engine_phast.c decides from its cache and the number of
 * sources). */
static enum sssp_engine choose(struct sssp_plan *p)
{
	uint32_t delta = sssp_batch_delta_rule(p->g);
	if (delta == 0)
	{
		snprintf(p->reason, sizeof(p->reason),
			 "auto: batched (shallow graph: a breadth-first search from a hub ends within %d levels, so "
			 "frontier rounds are few)",
			 64);
		return SSSP_ENGINE_BATCHED;
	}
	if (sssp_phast_pays(p, p->reason, sizeof(p->reason)))
		return SSSP_ENGINE_PHAST;
	return SSSP_ENGINE_BATCHED;
}

int sssp_plan_create(const struct sssp_graph *g, const struct sssp_options *o, struct sssp_plan **out, char *why,
		     size_t whylen)
{
	struct sssp_plan *p = calloc(1, sizeof(*p));
	if (!p)
	{
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->g = g;
	p->o = *o;
#ifndef SSSP_WITH_CUDA
	p->o.cuda = 0;
#endif
	p->engine = o->engine;
	snprintf(p->reason, sizeof(p->reason), "as asked");
	if (p->engine == SSSP_ENGINE_AUTO)
		p->engine = choose(p);
	double t0 = now_s();
	int ret = 0;
	switch (p->engine)
	{
	case SSSP_ENGINE_CRAUSER:
		break;
	case SSSP_ENGINE_BATCHED:
		ret = sssp_batched_prepare(p, why, whylen);
		break;
	case SSSP_ENGINE_PHAST:
		ret = sssp_phast_prepare(p, why, whylen);
		if (ret == -EDOM && o->engine == SSSP_ENGINE_AUTO)
		{
			/* auto took a deep graph for a road network, but it does not contract (the
			 * builder's only -EDOM) */
			snprintf(p->reason, sizeof(p->reason),
				 "auto: batched (deep graph, but it does not contract: not road-like)");
			sssp_phast_free(p);
			p->engine = SSSP_ENGINE_BATCHED;
			ret = sssp_batched_prepare(p, why, whylen);
		}
		break;
	default:
		snprintf(why, whylen, "SSSP engine %d unknown", (int)p->engine);
		ret = -EINVAL;
	}
	p->prep_s = now_s() - t0;
	if (ret < 0)
	{
		sssp_plan_free(p);
		return ret;
	}
	*out = p;
	return 0;
}

enum sssp_engine sssp_plan_engine(const struct sssp_plan *p)
{
	return p->engine;
}

const char *sssp_plan_reason(const struct sssp_plan *p)
{
	return p->reason;
}

uint64_t sssp_plan_gpu_bytes(const struct sssp_plan *p, int mk, int with_rows)
{
	if (!p->o.cuda)
		return 0;
	uint64_t n = p->g->n, m = p->g->m, shared = 0, ws = 0;
	switch (p->engine)
	{
	case SSSP_ENGINE_BATCHED:
		shared = p->packed_size + 2 * (8 * (n + 1) + 8 * m);
		ws = sssp_batched_gpu_workspace(p, with_rows);
		break;
	case SSSP_ENGINE_PHAST:
		shared = sssp_phast_shared_bytes(p);
		ws = sssp_phast_gpu_workspace(p);
		break;
	default:
		shared = 8 * (n + 1) + 12 * m + 4 * n;
		ws = 12 * n + 320;
	}
	return shared + (uint64_t)(mk > 0 ? mk : 1) * ws;
}

int sssp_plan_mk(const struct sssp_plan *p)
{
	/* H200, 2026-11-30: batched on the random 1M graph 2,776 SSSP/s at MK 1 and 2,547 at MK 2
	 * (a shallow graph's traversal fills the GPU); on the 1024x1024 grid 503 at MK 1 and 633 at
	 * MK 4 (small frontiers leave room for other batches). PHAST: its top levels are latency,
	 * which passes on a quarter of the GPU each overlap (docs/apsp.md, "PHAST on the GPU"). */
	if (p->engine == SSSP_ENGINE_BATCHED)
		return p->delta ? 4 : 1;
	return p->engine == SSSP_ENGINE_CRAUSER || p->engine == SSSP_ENGINE_PHAST ? 4 : 1;
}

double sssp_plan_prepare_seconds(const struct sssp_plan *p)
{
	return p->prep_s;
}

int sssp_plan_taskset(struct sssp_plan *p, const uint32_t *sources, uint64_t k, struct sssp_args *args,
		      struct tuccompi_taskset_desc *desc)
{
	args->n = p->g->n;
	args->plan = p;
	desc->ntasks = k;
	desc->arg = args;
	desc->inputs = sources;
	desc->input_size = sizeof(uint32_t);
	desc->plugin = &p->plugin;
	switch (p->engine)
	{
	case SSSP_ENGINE_BATCHED:
		return sssp_batched_taskset(p, desc);
	case SSSP_ENGINE_PHAST:
		return sssp_phast_taskset(p, desc);
	default:
		sssp_plugin_init(&p->plugin, p->g->n, p->o.cpu, p->o.cuda);
		return sssp_shared_register(p->g, desc);
	}
}

void sssp_plan_taskset_done(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	(void)p;
	sssp_shared_unregister(desc);
}

void sssp_plan_free(struct sssp_plan *p)
{
	if (!p)
		return;
	sssp_batched_free(p);
	sssp_phast_free(p);
	free(p);
}
