/* Faults of units: which failures pass and which take a unit out. A job that fails (the plug-in's
 * tuccompi_task_fail(), a CUDA error or a launch not made after it ran, TUCCOMPI_FAULT_INJECT) is run
 * again at once on its own unit when the cause passes: the unit still works (a GPU's context still
 * takes a memset on the worker's stream) and neither the unit's retries in the set
 * (TUCCOMPI_RETRIES_UNIT) nor the rank's for the set (TUCCOMPI_RETRIES_SET) are spent. Otherwise the
 * unit is taken out, with a warning saying which cause: a sticky one (a broken CUDA context) for the
 * rest of the run, repeated failures or spent retries for the rest of the set only: the next
 * PARALLEL tries it again. Below jobs.c (which runs jobs and moves them) and PARALLEL (which reads
 * the bounds and brings units back); calls nothing above it. */
#include "taskset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ fault injection
 * TUCCOMPI_FAULT_INJECT=WHAT:N[:MODE][,WHAT:N[:MODE]...], read at every PARALLEL: with WHAT cpu or
 * cuda, the N-th run of a job of the task set on a unit of that kind fails as if the plug-in had
 * reported an error (a job run again counts again); MODE says how the unit fares: transient (the
 * default) it works again at once, repeat the job fails again every time it runs on that unit,
 * sticky the unit is broken. With WHAT ms, this rank's N-th request to the MS master fails; with
 * WHAT mshang, the MS master's server stops answering at the N-th request it receives from another
 * rank (a stuck master, for the ranks' TUCCOMPI_PEER_TIMEOUT). For tests of the recovery and error
 * paths; off by default. */

static const char *const inject_what[TUCCOMPI_INJECT_KINDS] = {
	[TUCCOMPI_UNIT_CPU] = "cpu", [TUCCOMPI_UNIT_CUDA] = "cuda", [TUCCOMPI_INJECT_MS] = "ms",
	[TUCCOMPI_INJECT_MSHANG] = "mshang"
};
static const char *const inject_mode[] = { [TUCCOMPI_FAULT_TRANSIENT] = "transient",
					   [TUCCOMPI_FAULT_REPEAT] = "repeat",
					   [TUCCOMPI_FAULT_STICKY] = "sticky" };

static struct _tuccompi_inject injecting;
static _Atomic long inject_count[TUCCOMPI_INJECT_KINDS];

static int inject_bad(const char *e, struct _tuccompi_inject *in)
{
	in->n = 0;
	return _tuccompi_error(-EINVAL,
			       "environment variable TUCCOMPI_FAULT_INJECT='%s' is not a list of cpu:N, cuda:N, ms:N or "
			       "mshang:N (N >= 1; cpu:N and cuda:N may add :transient, :repeat or :sticky) separated "
			       "by commas; fix or unset it",
			       e);
}

int _tuccompi_inject_parse(const char *e, struct _tuccompi_inject *in)
{
	in->n = 0;
	for (const char *p = e; p && *p;)
	{
		size_t len = strcspn(p, ":,");
		int k = 0;
		while (k < TUCCOMPI_INJECT_KINDS && (strlen(inject_what[k]) != len || strncmp(p, inject_what[k], len)))
			k++;
		char *end = NULL;
		long n = k < TUCCOMPI_INJECT_KINDS && p[len] == ':' ? strtol(p + len + 1, &end, 10) : 0;
		if (k == TUCCOMPI_INJECT_KINDS || n <= 0 || (*end && *end != ',' && *end != ':') ||
		    in->n == TUCCOMPI_INJECT_MAX)
			return inject_bad(e, in);
		int mode = TUCCOMPI_FAULT_TRANSIENT;
		if (*end == ':')
		{
			/* a mode: for jobs only */
			size_t mlen = strcspn(end + 1, ",");
			for (mode = 1; mode <= TUCCOMPI_FAULT_STICKY; mode++)
				if (strlen(inject_mode[mode]) == mlen && !strncmp(end + 1, inject_mode[mode], mlen))
					break;
			if (mode > TUCCOMPI_FAULT_STICKY || k > TUCCOMPI_UNIT_CUDA)
				return inject_bad(e, in);
			end += 1 + mlen;
		}
		in->what[in->n] = k;
		in->at[in->n] = n;
		in->mode[in->n] = mode;
		in->n++;
		p = *end ? end + 1 : end;
	}
	return 0;
}

void _tuccompi_inject_reset(void)
{
	struct _tuccompi_inject in;
	(void)_tuccompi_inject_parse(getenv("TUCCOMPI_FAULT_INJECT"), &in); /* tuccompi_init refused a bad value */
	injecting = in;
	for (int k = 0; k < TUCCOMPI_INJECT_KINDS; k++)
		atomic_store(&inject_count[k], 0);
}

int _tuccompi_injected(int what)
{
	int any = 0;
	for (int i = 0; i < injecting.n; i++)
		any |= injecting.what[i] == what;
	if (!any)
		return 0;
	long count = atomic_fetch_add(&inject_count[what], 1) + 1;
	for (int i = 0; i < injecting.n; i++)
		if (injecting.what[i] == what && injecting.at[i] == count)
			return injecting.mode[i];
	return 0;
}

/* ------------------------------------------------------------------ retries in place */

const char *_tuccompi_unit_name(int u)
{
	return _tuccompi.units[u].kind == TUCCOMPI_UNIT_CUDA ? "GPU" : "CPU core";
}

int _tuccompi_job_retry(struct _tuccompi_job *job, int u)
{
	struct tuccompi_taskset *ts = job->ts;
	if (u < 0 || __atomic_load_n(&ts->fail.err, __ATOMIC_RELAXED) || job->reduced)
		return 0; /* nothing to save, or nothing that can be taken back (reduce.c) */
	if (job->inject == TUCCOMPI_FAULT_STICKY)
		job->sticky = "its fault was injected as sticky (TUCCOMPI_FAULT_INJECT)";
	else if (_tuccompi.units[u].kind == TUCCOMPI_UNIT_CUDA)
		job->sticky = _tuccompi_cuda_unit_broken();
	if (job->sticky)
	{
		job->out = TUCCOMPI_OUT_STICKY;
		return 0;
	}
	unsigned fails = atomic_fetch_add(&ts->unit_fails[u], 1) + 1;
	if (fails > ts->retries_unit)
	{
		job->out = TUCCOMPI_OUT_REPEATED;
		return 0;
	}
	if (atomic_fetch_add(&ts->retries_used, 1) >= ts->retries_set)
	{
		job->out = TUCCOMPI_OUT_SPENT;
		return 0;
	}
	_tuccompi_log("%s %d failed %u task(s) of '%s' (%s): run again on it (failure %u of the %u it may have in the set)",
		      _tuccompi_unit_name(u), _tuccompi.units[u].index, job->n, ts->plugin.name, job->fail->msg, fails,
		      ts->retries_unit);
	__atomic_add_fetch(&ts->retried, job->n, __ATOMIC_RELAXED);
	return 1;
}

/* ------------------------------------------------------------------ taking units out and back */

void _tuccompi_unit_take_out(const struct _tuccompi_job *job, int u)
{
	const struct tuccompi_taskset *ts = job->ts;
	int out = job->out == TUCCOMPI_OUT_STICKY ? TUCCOMPI_UNIT_OUT_RUN : TUCCOMPI_UNIT_OUT_SET;
	int was = 0;
	/* a cause for good wins over one for the set */
	if (!__atomic_compare_exchange_n(&_tuccompi.unit_failed[u], &was, out, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
	{
		if (was != TUCCOMPI_UNIT_OUT_SET || out != TUCCOMPI_UNIT_OUT_RUN)
			return; /* out already, said so then */
		__atomic_store_n(&_tuccompi.unit_failed[u], out, __ATOMIC_RELAXED);
	}
	char cause[256];
	switch (job->out)
	{
	case TUCCOMPI_OUT_STICKY:
		snprintf(cause, sizeof(cause), "a sticky failure: %s; taken out for the rest of the run", job->sticky);
		break;
	case TUCCOMPI_OUT_REPEATED:
		snprintf(cause, sizeof(cause),
			 "repeated failures: more than TUCCOMPI_RETRIES_UNIT=%u in this set; taken out for the rest of "
			 "the set, tried again at the next set",
			 ts->retries_unit);
		break;
	case TUCCOMPI_OUT_SPENT:
		snprintf(cause, sizeof(cause),
			 "the rank's retries for this set are spent (TUCCOMPI_RETRIES_SET=%u); taken out for the rest of "
			 "the set, tried again at the next set",
			 ts->retries_set);
		break;
	default:
		snprintf(cause, sizeof(cause), "taken out for the rest of the set, tried again at the next set");
	}
	_tuccompi_warn("%s %d failed %u task(s) of '%s' (%s): %s; its tasks run elsewhere", _tuccompi_unit_name(u),
		       _tuccompi.units[u].index, job->n, ts->plugin.name, job->fail ? job->fail->msg : "?", cause);
}

void _tuccompi_units_reinstate(void)
{
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		int was = TUCCOMPI_UNIT_OUT_SET;
		if (__atomic_compare_exchange_n(&_tuccompi.unit_failed[k], &was, TUCCOMPI_UNIT_IN, 0, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			_tuccompi_log("%s %d, taken out of an earlier set for a failure that passes, is tried again",
				      _tuccompi_unit_name(k), _tuccompi.units[k].index);
	}
}
