/* The SSSP plug-in's dispatcher: the engines in one table (engine.h), a plan = one engine prepared
 * for one graph, and the one MK and GPU-memory decision of its task sets (sssp.h). It calls the
 * engines only through their operations, and no engine calls it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffers.h"
#include "engine.h"

/* The engines, by enum sssp_engine; auto asks each engine that judges (ops->pays) in this order and
 * takes AUTO_DEFAULT when none would pay. */
static const struct sssp_engine_ops *const engines[] = {
	[SSSP_ENGINE_CRAUSER] = &sssp_engine_crauser,
	[SSSP_ENGINE_BATCHED] = &sssp_engine_batched,
	[SSSP_ENGINE_PHAST] = &sssp_engine_phast,
	[SSSP_ENGINE_BRANDES] = &sssp_engine_brandes, /* by sssp_options::betweenness only */
	[SSSP_ENGINE_DIAL] = &sssp_engine_dial,       /* after phast: on deep graphs it keeps phast's reason */
};
#define NENGINES (sizeof(engines) / sizeof(engines[0]))
#define AUTO_DEFAULT SSSP_ENGINE_BATCHED

int sssp_engine_parse(const char *name, enum sssp_engine *out, char *why, size_t whylen)
{
	if (name && !strcmp(name, "auto"))
	{
		*out = SSSP_ENGINE_AUTO;
		return 0;
	}
	for (unsigned i = 0; i < NENGINES; i++)
		if (engines[i] && i != SSSP_ENGINE_BRANDES && name && !strcmp(name, engines[i]->name))
		{
			*out = (enum sssp_engine)i;
			return 0;
		}
	snprintf(why, whylen, "unknown SSSP engine '%s' (auto, batched, crauser, dial, phast)", name ? name : "(null)");
	return -EINVAL;
}

const char *sssp_engine_name(enum sssp_engine e)
{
	if (e == SSSP_ENGINE_AUTO)
		return "auto";
	return (unsigned)e < NENGINES && engines[e] ? engines[e]->name : "?";
}

static void use(struct sssp_plan *p, enum sssp_engine e)
{
	p->engine = e;
	p->ops = engines[e];
}

/* o's engine is one of the table's (or auto) */
static int engine_known(const struct sssp_options *o)
{
	return o->engine == SSSP_ENGINE_AUTO || ((unsigned)o->engine < NENGINES && engines[o->engine]);
}

/* auto: the first engine that judges it would pay, else the default (p->reason says why). */
static void choose(struct sssp_plan *p)
{
	for (unsigned i = 0; i < NENGINES; i++)
		if (engines[i] && engines[i]->pays && engines[i]->pays(p, p->reason, sizeof(p->reason)))
		{
			use(p, (enum sssp_engine)i);
			return;
		}
	use(p, AUTO_DEFAULT);
}

/* the engine o asks for: betweenness's, auto's judgement, or the one named */
static void pick(struct sssp_plan *p)
{
	if (p->o.betweenness)
		use(p, SSSP_ENGINE_BRANDES); /* its prepare says why in p->reason */
	else if (p->o.engine == SSSP_ENGINE_AUTO)
		choose(p);
	else
		use(p, p->o.engine);
}

int sssp_plan_create(const struct sssp_graph *g, const struct sssp_options *o, struct sssp_plan **out, char *why,
		     size_t whylen)
{
	if (!engine_known(o))
	{
		snprintf(why, whylen, "SSSP engine %d unknown", (int)o->engine);
		return -EINVAL;
	}
	struct sssp_plan *p = calloc(1, sizeof(*p));
	if (!p)
	{
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->g = g;
	p->o = *o;
	p->asked = sssp_engine_name(o->engine);
#ifndef SSSP_WITH_CUDA
	p->o.cuda = 0;
#endif
	snprintf(p->reason, sizeof(p->reason), "as asked");
	pick(p);
	double t0 = tuccompi_wtime();
	int ret = p->ops->prepare(p, why, whylen);
	if (ret == -EDOM && o->engine == SSSP_ENGINE_AUTO && !o->betweenness && p->engine != AUTO_DEFAULT)
	{
		/* the engine auto chose refused the graph, and wrote why into p->reason */
		p->ops->free(p);
		use(p, AUTO_DEFAULT);
		ret = p->ops->prepare(p, why, whylen);
	}
	p->prep_s = tuccompi_wtime() - t0;
	if (ret < 0)
	{
		sssp_plan_free(p);
		return ret;
	}
	*out = p;
	return 0;
}

int sssp_plan_mk_ahead(const struct sssp_graph *g, const struct sssp_options *o)
{
	struct sssp_plan p = { .g = g, .o = *o, .asked = sssp_engine_name(o->engine), .ahead = 1 };
#ifndef SSSP_WITH_CUDA
	p.o.cuda = 0;
#endif
	if (!p.o.cuda || !engine_known(o))
		return 0;
	pick(&p);
	int mk = p.ops->mk(&p);
	if (p.state) /* an engine's pays that kept something despite p.ahead */
		p.ops->free(&p);
	return mk;
}

enum sssp_engine sssp_plan_engine(const struct sssp_plan *p)
{
	return p->engine;
}

const char *sssp_plan_reason(const struct sssp_plan *p)
{
	return p->reason;
}

double sssp_plan_prepare_seconds(const struct sssp_plan *p)
{
	return p->prep_s;
}

int sssp_plan_uses_cuda(const struct sssp_plan *p)
{
	return p->o.cuda;
}

/* GPU bytes of a task set of the plan at @mk batches at once per GPU. */
static uint64_t gpu_bytes(const struct sssp_plan *p, int mk, int with_rows)
{
	uint64_t shared = 0, ws = p->ops->gpu_bytes(p, with_rows, &shared);
	return shared + (uint64_t)mk * ws;
}

int sssp_plan_fit_gpu(struct sssp_plan *p, int asked, int cap, uint64_t room, int with_rows, struct sssp_gpu_fit *f)
{
	int want = asked;
	if (want <= 0)
	{
		want = p->ops->mk(p);
		if (cap > 0 && want > cap)
			want = cap;
	}
	f->mk = want;
	f->lowered = 0;
	f->need = 0;
	f->why[0] = 0;
	if (!p->o.cuda)
		return 0;
	int mk = want;
	while (room && mk > 1 && gpu_bytes(p, mk, with_rows) > room)
		mk--;
	f->need = gpu_bytes(p, mk, with_rows);
	if (!room || f->need <= room)
	{
		f->mk = mk;
		f->lowered = mk < want;
		return 0;
	}
	if (p->o.engine == SSSP_ENGINE_AUTO && !p->o.betweenness && p->engine != AUTO_DEFAULT)
	{
		/* auto chose an engine of which not even one batch fits this GPU: its default, whose batches
		 * may (the dial engine's ring takes about 12 times batched's bytes per vertex) */
		uint64_t need = f->need;
		const char *was = p->ops->name;
		p->ops->free(p);
		p->state = NULL;
		use(p, AUTO_DEFAULT);
		char cause[256];
		int ret = p->ops->prepare(p, cause, sizeof cause);
		if (ret < 0)
		{
			snprintf(f->why, sizeof f->why, "auto: %s needs %.1f MB of GPU memory for one batch (%.1f MB free), and %s: %s",
				 was, need / 1e6, room / 1e6, p->ops->name, cause);
			return ret;
		}
		snprintf(p->reason, sizeof(p->reason),
			 "auto: %s (%s would need %.1f MB of GPU memory for one batch; %.1f MB are free)", p->ops->name,
			 was, need / 1e6, room / 1e6);
		return sssp_plan_fit_gpu(p, asked, cap, room, with_rows, f);
	}
	if (!p->o.cpu)
		return -ENOSPC;
	/* not even one batch fits: the CPU units alone */
	if (p->ops->drop_gpu)
		p->ops->drop_gpu(p);
	p->o.cuda = 0;
	f->mk = 0;
	return 0;
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
	return p->ops->taskset(p, desc);
}

void sssp_plan_taskset_done(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	(void)p;
	sssp_unshare_buffers(desc);
}

void sssp_plan_free(struct sssp_plan *p)
{
	if (!p)
		return;
	if (p->ops)
		p->ops->free(p);
	free(p);
}
