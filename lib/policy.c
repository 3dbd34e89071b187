/* Policies by name, and the StarPU scheduling contexts that run them. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The library's policies, the one table: by their names, and by their StarPU policies'. */
static const struct tuccompi_policy *const lib[] = { &tuccompi_policy_eq1, &tuccompi_policy_eq2, &tuccompi_policy_ms,
						     &tuccompi_policy_ms_tail };

struct starpu_sched_policy *tuccompi_sched_policy(const char *name)
{
	for (unsigned i = 0; i < sizeof(lib) / sizeof(lib[0]); i++)
		if (name && strcmp(name, lib[i]->sched->policy_name) == 0)
			return lib[i]->sched;
	return NULL;
}

static int starpu_builtin_exists(const char *name)
{
	struct starpu_sched_policy **p = starpu_sched_get_predefined_policies();
	for (; *p; p++)
		if (strcmp((*p)->policy_name, name) == 0)
			return 1;
	return 0;
}

/* StarPU built-ins by name: ranks get tasks as in EQ1, StarPU's policy places them. */
#define NBUILTIN 32
static struct tuccompi_policy builtin[NBUILTIN];
static char builtin_desc[NBUILTIN][96];
static int nbuiltin;
static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;

const struct tuccompi_policy *tuccompi_policy_by_name(const char *name)
{
	if (!name)
	{
		_tuccompi_error(-EINVAL, "policy name is NULL");
		return NULL;
	}
	for (unsigned i = 0; i < sizeof(lib) / sizeof(lib[0]); i++)
		if (strcasecmp(name, lib[i]->name) == 0)
			return lib[i];
	if (strcasecmp(name, "ms_tail") == 0) /* the C name's spelling */
		return &tuccompi_policy_ms_tail;
	if (!starpu_builtin_exists(name))
	{
		char known[512] = "";
		struct starpu_sched_policy **p = starpu_sched_get_predefined_policies();
		for (; *p; p++)
		{
			strncat(known, " ", sizeof(known) - strlen(known) - 1);
			strncat(known, (*p)->policy_name, sizeof(known) - strlen(known) - 1);
		}
		_tuccompi_error(-EINVAL, "unknown policy '%s'; use eq1, eq2, ms, ms-tail, or a StarPU policy:%s", name, known);
		return NULL;
	}
	pthread_mutex_lock(&builtin_lock);
	const struct tuccompi_policy *found = NULL;
	for (int i = 0; i < nbuiltin; i++)
		if (strcmp(builtin[i].sched_name, name) == 0)
			found = &builtin[i];
	if (!found && nbuiltin < NBUILTIN)
	{
		struct tuccompi_policy *p = &builtin[nbuiltin];
		snprintf(builtin_desc[nbuiltin], sizeof(builtin_desc[0]), "StarPU's '%s' inside nodes, EQ1 across them",
			 name);
		p->name = strdup(name);
		p->sched_name = p->name;
		p->description = builtin_desc[nbuiltin];
		p->partition = tuccompi_partition_eq1;
		found = p;
		nbuiltin++;
	}
	pthread_mutex_unlock(&builtin_lock);
	return found;
}

int _tuccompi_ctx_labelled(unsigned ctx)
{
	int was = 0;
	pthread_mutex_lock(&_tuccompi.lock);
	for (int i = 0; i < _tuccompi.nctxs; i++)
		if (_tuccompi.ctxs[i].ctx == ctx)
		{
			was = _tuccompi.ctxs[i].labelled;
			_tuccompi.ctxs[i].labelled = 1;
		}
	pthread_mutex_unlock(&_tuccompi.lock);
	return was;
}

int _tuccompi_sched_ctx(const struct tuccompi_policy *policy, unsigned *ctx)
{
	/* our own StarPU policies may be named too */
	struct starpu_sched_policy *sched = policy->sched ? policy->sched : tuccompi_sched_policy(policy->sched_name);
	const char *sched_name = sched ? sched->policy_name : policy->sched_name;
	if (!sched && !(sched_name && starpu_builtin_exists(sched_name)))
		return _tuccompi_error(-EINVAL,
				       "policy '%s' names no StarPU policy ('%s'); set .sched, or .sched_name to a StarPU "
				       "policy (eager, lws, dmda, ...) or one of ours (tuccompi-eq1, tuccompi-eq2, "
				       "tuccompi-ms, tuccompi-ms-tail)",
				       policy->name ? policy->name : "?", sched_name ? sched_name : "(null)");
	pthread_mutex_lock(&_tuccompi.lock);
	for (int i = 0; i < _tuccompi.nctxs; i++)
	{
		struct _tuccompi_ctx_cache *c = &_tuccompi.ctxs[i];
		if (c->sched == sched && strcmp(c->sched_name, sched_name) == 0 && c->mk == _tuccompi.mk)
		{
			*ctx = c->ctx;
			pthread_mutex_unlock(&_tuccompi.lock);
			return 0;
		}
	}
	if (_tuccompi.nctxs == (int)(sizeof(_tuccompi.ctxs) / sizeof(_tuccompi.ctxs[0])))
	{
		pthread_mutex_unlock(&_tuccompi.lock);
		return _tuccompi_error(-ENOSPC, "too many distinct (policy, MK) pairs in one run");
	}
	/* Every CPU unit, and MK stream workers of each GPU (units that failed stay in: their
	 * workers refuse jobs through the codelet's can_execute). */
	int workers[STARPU_NMAXWORKERS], n = 0;
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		const struct tuccompi_unit *u = &_tuccompi.units[k];
		int take = u->kind == TUCCOMPI_UNIT_CUDA ? _tuccompi.mk : 1;
		for (int i = 0; i < take && i < u->nworkers; i++)
			workers[n++] = u->workers[i];
	}
	char name[96];
	snprintf(name, sizeof(name), "tuccompi-%s-mk%d", sched_name, _tuccompi.mk);
	unsigned id;
	if (sched)
		id = starpu_sched_ctx_create(workers, n, name, STARPU_SCHED_CTX_POLICY_STRUCT, sched, 0);
	else
		id = starpu_sched_ctx_create(workers, n, name, STARPU_SCHED_CTX_POLICY_NAME, sched_name, 0);
	struct _tuccompi_ctx_cache *c = &_tuccompi.ctxs[_tuccompi.nctxs++];
	c->sched = sched;
	snprintf(c->sched_name, sizeof(c->sched_name), "%s", sched_name);
	c->mk = _tuccompi.mk;
	c->ctx = id;
	*ctx = id;
	pthread_mutex_unlock(&_tuccompi.lock);
	return 0;
}

void _tuccompi_sched_ctx_free_all(void)
{
	pthread_mutex_lock(&_tuccompi.lock);
	for (int i = 0; i < _tuccompi.nctxs; i++)
		starpu_sched_ctx_delete(_tuccompi.ctxs[i].ctx);
	_tuccompi.nctxs = 0;
	pthread_mutex_unlock(&_tuccompi.lock);
}

/* What the core knows of each context for its policy: tasks not started yet. */
static unsigned long ctx_remaining[STARPU_NMAX_SCHED_CTXS];

void _tuccompi_sched_set_remaining(unsigned ctx, unsigned long remaining)
{
	if (ctx < STARPU_NMAX_SCHED_CTXS)
		__atomic_store_n(&ctx_remaining[ctx], remaining, __ATOMIC_RELAXED);
}

unsigned long tuccompi_sched_remaining(unsigned sched_ctx_id)
{
	return sched_ctx_id < STARPU_NMAX_SCHED_CTXS ? __atomic_load_n(&ctx_remaining[sched_ctx_id], __ATOMIC_RELAXED) : 0;
}
