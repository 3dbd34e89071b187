/* The library's policies (one table) and by name, and the StarPU scheduling contexts that run them. */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The library's policies, the one table. The core reaches a policy only through this table and
 * its public struct: what a policy does is in the struct's fields (dynamic: ranks ask a master for
 * work; flags: unit shares, hears what remains, watches the ranks' tail), never in its name. */
static const struct tuccompi_policy *const table[] = { &tuccompi_policy_eq1, &tuccompi_policy_eq2, &tuccompi_policy_ms,
						       &tuccompi_policy_ms_tail };
#define NTABLE (sizeof(table) / sizeof(table[0]))

struct starpu_sched_policy *tuccompi_sched_policy(const char *name)
{
	for (unsigned i = 0; i < NTABLE; i++)
		if (name && strcmp(name, table[i]->sched->policy_name) == 0)
			return table[i]->sched;
	return NULL;
}

/* A policy's name as the user may write it: any case, '_' for '-' (the C name's spelling). */
static int same_name(const char *written, const char *name)
{
	for (; *written && *name; written++, name++)
	{
		char a = *written == '_' ? '-' : (char)tolower((unsigned char)*written);
		if (a != *name)
			return 0;
	}
	return *written == *name;
}

/* The table's names, for messages: "eq1, eq2, ms, ms-tail" (@sched: their StarPU policies'). */
static void table_names(char *out, size_t len, int sched)
{
	out[0] = '\0';
	for (unsigned i = 0; i < NTABLE; i++)
		snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? ", " : "",
			 sched ? table[i]->sched->policy_name : table[i]->name);
}

const struct tuccompi_policy *_tuccompi_policy_with(int dynamic, unsigned flags)
{
	for (unsigned i = 0; i < NTABLE; i++)
		if (table[i]->dynamic == dynamic && table[i]->flags == flags)
			return table[i];
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
	for (unsigned i = 0; i < NTABLE; i++)
		if (same_name(name, table[i]->name))
			return table[i];
	if (!starpu_builtin_exists(name))
	{
		char ours[256], known[512] = "";
		table_names(ours, sizeof(ours), 0);
		struct starpu_sched_policy **p = starpu_sched_get_predefined_policies();
		for (; *p; p++)
		{
			strncat(known, " ", sizeof(known) - strlen(known) - 1);
			strncat(known, (*p)->policy_name, sizeof(known) - strlen(known) - 1);
		}
		_tuccompi_error(-EINVAL, "unknown policy '%s'; use %s, or a StarPU policy:%s", name, ours, known);
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
	{
		char ours[256];
		table_names(ours, sizeof(ours), 1);
		return _tuccompi_error(-EINVAL,
				       "policy '%s' names no StarPU policy ('%s'); set .sched, or .sched_name to a StarPU "
				       "policy (eager, lws, dmda, ...) or one of ours (%s)",
				       policy->name ? policy->name : "?", sched_name ? sched_name : "(null)", ours);
	}
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
