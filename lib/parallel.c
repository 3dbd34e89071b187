/* PARALLEL: a task set cut into jobs and submitted. The policy's 1st-layer rule (a partition,
 * or the MS master) decides which tasks this rank runs; its StarPU policy decides which unit
 * runs each job (taskset.h says how jobs carry tasks). */
#include "link.h"
#include "taskset.h"

#include <stdlib.h>
#include <string.h>

static unsigned serial_counter;

/* ------------------------------------------------------------------ checks */

static int check_desc(const struct tuccompi_taskset_desc *d)
{
	const struct tuccompi_plugin *p = d->plugin;
	if (!p)
		return _tuccompi_error(-EINVAL, "tuccompi_parallel: desc->plugin is NULL");
	if (!p->name || !*p->name)
		return _tuccompi_error(-EINVAL, "tuccompi_parallel: the plug-in has no name (set tuccompi_plugin.name)");
	if (!p->cpu && !p->cuda && !p->cpu_batch && !p->cuda_batch)
		return _tuccompi_error(-EINVAL, "plug-in '%s' has neither a CPU nor a CUDA implementation", p->name);
	for (int k = 0; k < 2; k++)
	{
		tuccompi_batch_func b = k == TUCCOMPI_UNIT_CPU ? p->cpu_batch : p->cuda_batch;
		if (b && (p->batch_max[k] < 1 || p->batch_max[k] > TUCCOMPI_MAX_BATCH))
			return _tuccompi_error(-EINVAL, "plug-in '%s': batch_max[%s] = %u, want 1..%d with a batch implementation",
					       p->name, k ? "CUDA" : "CPU", p->batch_max[k], TUCCOMPI_MAX_BATCH);
	}
	if (p->nworkspaces > TUCCOMPI_MAX_WORKSPACES)
		return _tuccompi_error(-EINVAL, "plug-in '%s': %u workspaces, at most %d", p->name, p->nworkspaces,
				       TUCCOMPI_MAX_WORKSPACES);
	for (unsigned k = 0; k < p->nworkspaces; k++)
		if (p->workspace_size[k] == 0)
			return _tuccompi_error(-EINVAL, "plug-in '%s': workspace %u has size 0", p->name, k);
	if (d->nshared > TUCCOMPI_MAX_SHARED)
		return _tuccompi_error(-EINVAL, "task set: %u shared buffers, at most %d", d->nshared, TUCCOMPI_MAX_SHARED);
	for (unsigned k = 0; k < d->nshared; k++)
		if (!d->shared[k])
			return _tuccompi_error(-EINVAL, "task set: shared[%u] is NULL (register it first)", k);
	if (d->inputs && !d->input_size)
		return _tuccompi_error(-EINVAL, "task set: inputs given with input_size 0");
	if (!d->inputs && d->input_size)
		return _tuccompi_error(-EINVAL, "task set: input_size %zu given without inputs (set desc.inputs, or input_size 0)",
				       d->input_size);
	if (d->results && !p->result_size)
		return _tuccompi_error(-EINVAL, "task set: a results buffer is given but plug-in '%s' has result_size 0: set "
						"its result_size (the bytes each task writes), or results NULL",
				       p->name);
	if (d->root < 0 || d->root >= _tuccompi.nranks)
		return _tuccompi_error(-EINVAL, "task set: root rank %d out of [0, %d)", d->root, _tuccompi.nranks);
	if (p->result_size && d->ntasks > SIZE_MAX / p->result_size)
		return _tuccompi_error(-EOVERFLOW, "task set: %llu results of %zu bytes do not fit in memory",
				       (unsigned long long)d->ntasks, p->result_size);
	if (d->resume && !d->journal)
		return _tuccompi_error(-EINVAL, "task set: resume asked without a journal (set desc.journal)");
	return _tuccompi_reduce_check(d);
}

static int check_policy(const struct tuccompi_policy *policy)
{
	if (!policy->dynamic && !policy->partition)
		return _tuccompi_error(-EINVAL, "policy '%s' is neither dynamic nor has a partition rule",
				       policy->name ? policy->name : "?");
	if (policy->dynamic && (policy->master < 0 || policy->master >= _tuccompi.nranks))
		return _tuccompi_error(-EINVAL, "policy '%s': master rank %d out of [0, %d)", policy->name, policy->master,
				       _tuccompi.nranks);
	return 0;
}

/* What every rank tells the others at PARALLEL: whether its checks passed, its node, and the
 * fields of the description that must be the same everywhere. */
struct set_info
{
	struct tuccompi_node_info node;
	uint64_t ntasks, result_size, input_size, journal_key, nshared, reduce_size;
	int64_t root, dynamic, master, journal, resume, flags, reduce_everywhere;
	char plugin[64], policy[64], sched[64];
};

static void describe(struct set_info *si, const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *d)
{
	memset(si, 0, sizeof(*si));
	si->node = (struct tuccompi_node_info){ .ncpu_units = tuccompi_unit_count(TUCCOMPI_UNIT_CPU),
						 .ncuda_units = tuccompi_unit_count(TUCCOMPI_UNIT_CUDA),
						 .mk = _tuccompi.mk };
	if (!d || !policy)
		return;
	const struct tuccompi_plugin *p = d->plugin;
	si->ntasks = d->ntasks;
	si->result_size = p ? p->result_size : 0;
	si->input_size = d->input_size;
	si->journal_key = d->journal_key;
	si->nshared = d->nshared;
	si->root = d->root;
	si->dynamic = policy->dynamic;
	si->master = policy->master;
	si->journal = d->journal != NULL;
	si->resume = d->resume;
	si->flags = policy->flags;
	si->reduce_size = d->reduce.size;
	si->reduce_everywhere = d->reduce.everywhere;
	snprintf(si->plugin, sizeof(si->plugin), "%s", p && p->name ? p->name : "");
	snprintf(si->policy, sizeof(si->policy), "%s", policy->name ? policy->name : "");
	snprintf(si->sched, sizeof(si->sched), "%s",
		 policy->sched ? (policy->sched->policy_name ? policy->sched->policy_name : "?")
			       : policy->sched_name ? policy->sched_name : "");
}

/* The first field in which rank @r's description differs from rank 0's, in words. */
static int differs(const struct set_info *a, const struct set_info *b, int r, char *why, size_t len)
{
#define NUM(f, what)                                                                                            \
	if (a->f != b->f)                                                                                      \
		return snprintf(why, len, "rank %d passes %s = %lld where rank 0 passes %lld", r, what, (long long)b->f, \
				(long long)a->f),                                                              \
		       1;
#define STR(f, what)                                                                                            \
	if (strcmp(a->f, b->f))                                                                                \
		return snprintf(why, len, "rank %d passes %s \"%s\" where rank 0 passes \"%s\"", r, what, b->f, a->f), 1;
	STR(plugin, "the plug-in")
	NUM(ntasks, "ntasks")
	NUM(result_size, "the plug-in's result_size")
	NUM(input_size, "input_size")
	NUM(root, "root")
	STR(policy, "the policy")
	NUM(dynamic, "the policy's dynamic")
	NUM(master, "the policy's master")
	STR(sched, "the policy's StarPU policy")
	NUM(flags, "the policy's flags")
	NUM(nshared, "nshared")
	NUM(journal, "a journal (1: yes)")
	NUM(resume, "resume")
	NUM(journal_key, "journal_key")
	NUM(reduce_size, "reduce.size")
	NUM(reduce_everywhere, "reduce.everywhere")
#undef NUM
#undef STR
	return 0;
}

/* Every rank's checks and description, to every rank: a rank that failed its own checks (a NULL
 * plug-in, a bad policy) is named with its reason on every rank, and ranks that describe
 * different sets are told which field differs on which rank, instead of some ranks going on
 * and the others waiting for them. Also refreshes every rank's view of the nodes (MK may have
 * changed since the last set). */
static int agree_on_set(unsigned serial, int status, const struct tuccompi_policy *policy,
			const struct tuccompi_taskset_desc *d)
{
	int n = _tuccompi.nranks;
	struct set_info mine, *all = calloc((size_t)n, sizeof(*all));
	struct tuccompi_node_info *nodes = calloc((size_t)n, sizeof(*nodes));
	if (!all || !nodes)
	{
		free(all);
		free(nodes);
		return _tuccompi_error(-ENOMEM, "out of memory");
	}
	describe(&mine, status == 0 ? policy : NULL, status == 0 ? d : NULL);
	char msg[TUCCOMPI_LINK_MSG];
	snprintf(msg, sizeof(msg), "%s", tuccompi_last_error());
	struct _tuccompi_coll c = { .op = TUCCOMPI_COLL_PARALLEL, .serial = serial, .root = 0, .status = status, .msg = msg };
	int ret = _tuccompi_coll_allgather(&c, &mine, sizeof(mine), all);
	if (ret == 0)
	{
		for (int r = 0; r < n; r++)
			nodes[r] = all[r].node;
		free(_tuccompi.nodes);
		_tuccompi.nodes = nodes;
		nodes = NULL;
		char why[512];
		for (int r = 1; r < n && ret == 0; r++)
			if (differs(&all[0], &all[r], r, why, sizeof(why)))
				ret = _tuccompi_error(-EINVAL,
						      "task set '%s': the ranks passed different descriptions: %s; every rank must "
						      "pass the same",
						      all[0].plugin, why);
	}
	free(nodes);
	free(all);
	return ret;
}

/* Traces tell task sets apart: the set's number becomes the StarPU iteration of the tasks its
 * scheduling context runs from now on (tasks.rec's "Iteration"; two sets in flight in one context
 * take the later one's), and rank 0 notes what each number and context is. */
static void label_set(const struct tuccompi_taskset *ts)
{
	unsigned prev = starpu_sched_ctx_get_context(), ctx = ts->ctx;
	starpu_sched_ctx_set_context(&ctx);
	if (_tuccompi_ctx_labelled(ctx))
		starpu_iteration_pop();
	starpu_iteration_push(ts->serial);
	starpu_sched_ctx_set_context(prev == STARPU_NMAX_SCHED_CTXS ? NULL : &prev);
	_tuccompi_trace_note_set(&ts->desc, ts->policy, ts->serial, ts->ctx, ts->mk);
}

/* ------------------------------------------------------------------ building a set */

/* Tasks per job for units of @kind: the set's choice, the tuning database's, the plug-in's
 * largest; 1 without a batch implementation. */
static unsigned batch_for(const struct tuccompi_taskset *ts, enum tuccompi_unit_kind kind)
{
	const struct tuccompi_plugin *p = &ts->plugin;
	if (!(kind == TUCCOMPI_UNIT_CPU ? p->cpu_batch : p->cuda_batch))
		return 1;
	unsigned b = ts->desc.batch[kind];
	char key[96];
	if (!b && _tuccompi_units_key(kind, key, sizeof(key)) == 0)
		b = _tuccompi_tune_batch_recorded(p->name, kind, key);
	if (!b || b > p->batch_max[kind])
		b = p->batch_max[kind];
	return b;
}

static int able(const struct tuccompi_taskset *ts, enum tuccompi_unit_kind kind)
{
	return kind == TUCCOMPI_UNIT_CPU ? (ts->cl.where & STARPU_CPU) != 0 : (ts->cl.where & STARPU_CUDA) != 0;
}

/* PARALLEL's 3rd step, on each rank: tasks per job for each kind of unit, and what the tokens and
 * the unit shares are counted in (the node's units and workers able to run the set). */
static void size_batches(struct tuccompi_taskset *ts)
{
	/* this set's runs again of failed jobs have their bounds (faults.c; tuccompi_init refused a bad
	 * value) */
	(void)_tuccompi_env_retries(&ts->retries_unit, &ts->retries_set);
	for (int k = 0; k < 2; k++)
		ts->batch[k] = batch_for(ts, (enum tuccompi_unit_kind)k);
	ts->batch_static = 1;
	for (int k = 0; k < 2; k++)
		if (able(ts, (enum tuccompi_unit_kind)k) && _tuccompi_units_healthy((enum tuccompi_unit_kind)k) &&
		    ts->batch[k] > ts->batch_static)
			ts->batch_static = ts->batch[k];
	ts->batch_max_able = ts->batch_static;
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		const struct tuccompi_unit *u = &_tuccompi.units[k];
		if (_tuccompi.unit_failed[k] || !able(ts, u->kind))
			continue;
		ts->nunits_able++;
		ts->nworkers += u->kind == TUCCOMPI_UNIT_CUDA ? (unsigned)(ts->mk < u->nworkers ? ts->mk : u->nworkers) : 1;
	}
}

static int ts_create_local(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc,
			   unsigned serial, struct tuccompi_taskset **out)
{
	struct tuccompi_taskset *ts = calloc(1, sizeof(*ts));
	*out = ts;
	if (!ts)
		return _tuccompi_error(-ENOMEM, "out of memory");
	ts->desc = *desc;
	ts->plugin = *desc->plugin;
	ts->desc.plugin = &ts->plugin;
	ts->policy = policy;
	ts->serial = serial;
	ts->mk = _tuccompi.mk;
	ts->ntodo = desc->ntasks;
	pthread_mutex_init(&ts->lock, NULL);
	pthread_cond_init(&ts->cond, NULL);
	int ret = _tuccompi_codelet_init(ts);
	if (ret == 0)
		ret = _tuccompi_reduce_start(ts);
	if (ret < 0)
		return ret;
	/* Results land here, indexed by task id; calloc'd pages of tasks run elsewhere are
	 * never touched. */
	if (ts->plugin.result_size)
	{
		if (desc->results && _tuccompi.rank == desc->root)
			ts->local_results = desc->results;
		else
		{
			ts->local_results = calloc(desc->ntasks ? desc->ntasks : 1, ts->plugin.result_size);
			ts->own_local_results = 1;
			if (!ts->local_results)
				return _tuccompi_error(-ENOMEM, "out of memory for %llu results",
						       (unsigned long long)desc->ntasks);
		}
		return _tuccompi_results_pin(ts, (size_t)(desc->ntasks ? desc->ntasks : 1) * ts->plugin.result_size);
	}
	return 0;
}

/* Resuming: the root reads every journal and sends every rank what is done, with its verdict.
 * Collective, so every rank comes here whatever its @status (the first error of its set so far),
 * which it returns if nothing failed before. @ts may be NULL (it could not be made). */
static int resume_from_journal(struct tuccompi_taskset *ts, const struct tuccompi_taskset_desc *d, unsigned serial,
			       int status)
{
	int root = d->root, ret = 0;
	uint8_t *done = NULL;
	if (_tuccompi.rank == root)
		ret = status < 0 ? status : _tuccompi_journal_read(ts, &done);
	char msg[TUCCOMPI_LINK_MSG];
	snprintf(msg, sizeof(msg), "%s", ret < 0 ? tuccompi_last_error() : "");
	struct _tuccompi_coll c = { .op = TUCCOMPI_COLL_JOURNAL, .serial = serial, .root = root, .status = ret, .msg = msg };
	void *got = NULL;
	size_t got_len = 0;
	ret = _tuccompi_coll_bcast(&c, ret == 0 ? done : NULL, ret == 0 ? d->ntasks : 0, &got, &got_len);
	if (_tuccompi.rank != root)
	{
		done = got;
		if (ret == 0 && got_len != d->ntasks)
			ret = _tuccompi_error(-EPROTO, "the journal's task list from rank %d has %zu entries, %llu expected", root,
					      got_len, (unsigned long long)d->ntasks);
	}
	if (ret == 0)
		ret = status < 0 ? status : _tuccompi_journal_skip(ts, done);
	free(done);
	return ret;
}

/* The set on this rank. Its local steps may fail on this rank alone; the journal's reading is
 * collective when resuming, so every rank reaches it whatever happened before, and returns the
 * first error (the caller's agreement tells every rank). */
static int ts_create(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc, unsigned serial,
		     struct tuccompi_taskset **out)
{
	int ret = ts_create_local(policy, desc, serial, out);
	if (desc->journal && desc->resume)
		ret = resume_from_journal(ret == 0 ? *out : NULL, desc, serial, ret);
	if (ret == 0 && desc->journal)
		ret = _tuccompi_journal_open(*out);
	if (ret == 0)
		ret = _tuccompi_sched_ctx(policy, &(*out)->ctx);
	return ret;
}

static void ts_free(struct tuccompi_taskset *ts)
{
	if (!ts)
		return;
	for (unsigned k = 0; k < ts->nworkspaces; k++)
		if (ts->workspaces[k])
			starpu_data_unregister_submit(ts->workspaces[k]);
	if (ts->journal)
		_tuccompi_journal_close(ts);
	_tuccompi_reduce_free(ts);
	_tuccompi_results_unpin(ts);
	if (ts->own_local_results)
		free(ts->local_results);
	free(ts->cl.dyn_modes);
	free(ts->todo);
	free(ts->pool.r);
	pthread_mutex_destroy(&ts->lock);
	pthread_cond_destroy(&ts->cond);
	free(ts);
}

/* Static policies: this rank's share by the partition rule. */
static int start_partition(struct tuccompi_taskset *ts)
{
	struct tuccompi_cluster cluster = {
		.nranks = _tuccompi.nranks,
		.nodes = _tuccompi.nodes,
		.use_cpu = able(ts, TUCCOMPI_UNIT_CPU),
		.use_cuda = able(ts, TUCCOMPI_UNIT_CUDA),
	};
	uint64_t *count = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
	if (!count)
		return _tuccompi_error(-ENOMEM, "out of memory");
	int ret = ts->policy->partition(&cluster, ts->ntodo, count, ts->policy->arg);
	uint64_t sum = 0, first = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
	{
		if (r < _tuccompi.rank)
			first += count[r];
		sum += count[r];
	}
	uint64_t mine = count[_tuccompi.rank];
	free(count);
	if (ret < 0)
		return _tuccompi_error(ret, "policy '%s': its partition rule failed (%s)%s", ts->policy->name, strerror(-ret),
				       ret == -ENODEV ? ": no rank has a unit able to run the plug-in" : "");
	if (sum != ts->ntodo)
		return _tuccompi_error(-EINVAL, "policy '%s': partition gave %llu tasks in all, not %llu", ts->policy->name,
				       (unsigned long long)sum, (unsigned long long)ts->ntodo);
	return _tuccompi_ts_take(ts, first, mine);
}

/* PARALLEL's 1st step, on each rank: the call's own checks. */
static int check_call(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc,
		      tuccompi_taskset_t *out)
{
	if (!policy || !desc || !out)
		return _tuccompi_error(-EINVAL, "tuccompi_parallel: NULL %s", !policy ? "policy" : !desc ? "desc" : "out");
	int ret = check_desc(desc);
	return ret < 0 ? ret : check_policy(policy);
}

/* When PARALLEL's steps ended (TUCCOMPI_END_LOG). */
struct steps
{
	double call, made, agreed;
	int early;
};

/* PARALLEL's 2nd step: every rank agrees on the checks and the description, and has its set
 * (results, journal, scheduling context). Both are agreed on in one round trip where making the set
 * touches nothing outside this process: without a journal, a rank makes its set before the
 * agreement and frees it if another rank failed. A journal is opened (and a resumed one read,
 * collectively) only once every rank's checks have passed, in a second round. */
static int agree_and_make(unsigned serial, int status, const struct tuccompi_policy *policy,
			  const struct tuccompi_taskset_desc *desc, struct tuccompi_taskset **out, struct steps *t)
{
	struct tuccompi_taskset *ts = NULL;
	t->early = status == 0 && !desc->journal;
	if (t->early)
		status = ts_create(policy, desc, serial, &ts);
	t->made = _tuccompi_now();
	int ret = agree_on_set(serial, status, policy, desc);
	t->agreed = _tuccompi_now();
	if (ret == 0 && !t->early)
	{
		status = ts_create(policy, desc, serial, &ts);
		t->made = _tuccompi_now();
		char msg[TUCCOMPI_LINK_MSG];
		snprintf(msg, sizeof(msg), "%s", tuccompi_last_error());
		ret = _tuccompi_coll_agree(TUCCOMPI_COLL_START, serial, status, msg);
	}
	if (ret < 0)
	{
		ts_free(ts);
		return ret;
	}
	*out = ts;
	return 0;
}

static void log_steps(const struct tuccompi_taskset *ts, const struct steps *t)
{
	if (!_tuccompi_env_flag("TUCCOMPI_END_LOG", 0))
		return;
	if (t->early)
		fprintf(stderr, "[tuccompi %d/%d] PARALLEL ms: set made %.3f, agreed %.3f\n", _tuccompi.rank,
			_tuccompi.nranks, 1e3 * (t->made - t->call), 1e3 * (ts->t_start - t->made));
	else
		fprintf(stderr, "[tuccompi %d/%d] PARALLEL ms: checks agreed %.3f, set made %.3f, start agreed %.3f\n",
			_tuccompi.rank, _tuccompi.nranks, 1e3 * (t->agreed - t->call), 1e3 * (t->made - t->agreed),
			1e3 * (ts->t_start - t->made));
}

/* PARALLEL's 4th step: this rank's tasks, by the policy's 1st-layer rule (its partition, or the
 * MS master's grants), go to the units in jobs. From here a failure fails the set: every rank
 * learns of it at SYN. */
static void submit(struct tuccompi_taskset *ts, const struct steps *t)
{
	label_set(ts);
	_tuccompi_bus_counters(NULL, NULL); /* reading them resets them */
	_tuccompi_inject_reset();
	ts->t_start = _tuccompi_now();
	log_steps(ts, t);
	_tuccompi_sets_add(ts);
	int ret = ts->policy->dynamic ? _tuccompi_ms_feed(ts) : start_partition(ts);
	if (ret < 0)
		_tuccompi_ts_fail(ts, ret, "%s", tuccompi_last_error());
	if (_tuccompi_link_broken())
		_tuccompi_ts_fail(ts, _tuccompi_link_broken(), "%s", tuccompi_last_error());
}

int tuccompi_parallel(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc,
		      tuccompi_taskset_t *out)
{
	TUCCOMPI_REQUIRE_INIT();
	_tuccompi_clear_error(); /* tuccompi_last_error() tells of this call's failure only */
	/* Every rank numbers its PARALLELs alike, failed ones too: the number tags the set's messages. */
	unsigned serial = serial_counter++;
	if (out)
		*out = NULL;
	int ret = _tuccompi_link_broken();
	if (ret < 0)
		return ret;
	struct steps t = { .call = _tuccompi_now() };
	struct tuccompi_taskset *ts;
	_tuccompi_units_reinstate(); /* out for an earlier set, for a failure that passes: tried again */
	/* 1. check; 2. agree (and make the set on each rank) */
	int status = check_call(policy, desc, out);
	if ((ret = agree_and_make(serial, status, policy, desc, &ts, &t)) < 0)
		return ret;
	/* 3. size batches; 4. submit */
	size_batches(ts);
	submit(ts, &t);
	*out = ts;
	return 0;
}

void tuccompi_taskset_destroy(tuccompi_taskset_t ts)
{
	if (!ts)
		return;
	if (!ts->waited && _tuccompi.initialized)
		tuccompi_wait(ts);
	_tuccompi_sets_remove(ts);
	free(ts->ran_ids);
	free(ts->all_units);
	free(ts->tasks_per_rank);
	free(ts->wall_per_rank);
	free(ts->comm_per_rank);
	free(ts->xfer_s_per_rank);
	free(ts->wait_per_rank);
	free(ts->xfer_bytes_per_rank);
	free(ts->requests_per_rank);
	free(ts->request_s_per_rank);
	free(ts->mk_per_rank);
	free(ts->placement_per_rank);
	free(ts->task_rank);
	ts_free(ts);
}
