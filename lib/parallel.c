/* PARALLEL: a task set cut into jobs and submitted. The policy's 1st-layer rule (a partition,
 * or the MS master) decides which tasks this rank runs; its StarPU policy decides which unit
 * runs each job (taskset.h says how jobs carry tasks). */
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
	if (d->root < 0 || d->root >= _tuccompi.nranks)
		return _tuccompi_error(-EINVAL, "task set: root rank %d out of [0, %d)", d->root, _tuccompi.nranks);
	if (p->result_size && d->ntasks > SIZE_MAX / p->result_size)
		return _tuccompi_error(-EOVERFLOW, "task set: %llu results of %zu bytes do not fit in memory",
				       (unsigned long long)d->ntasks, p->result_size);
	if (d->resume && !d->journal)
		return _tuccompi_error(-EINVAL, "task set: resume asked without a journal (set desc.journal)");
	return 0;
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

/* Ranks must describe the same set: a cheap fingerprint in the first collective, so that a
 * mismatch fails everywhere with the same message instead of hanging some ranks. */
static int check_same_everywhere(const struct tuccompi_taskset_desc *d, const struct tuccompi_policy *policy)
{
	uint64_t h = 1469598103934665603ULL;
	uint64_t parts[] = { d->ntasks, d->plugin->result_size, (uint64_t)d->root, (uint64_t)policy->dynamic,
			     (uint64_t)policy->master, (uint64_t)d->nshared, (uint64_t)!!d->journal, (uint64_t)d->resume,
			     d->journal_key };
	for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		h = (h ^ parts[i]) * 1099511628211ULL;
	for (const char *c = d->plugin->name; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	int64_t v[2] = { (int64_t)h, -(int64_t)h };
	int ret = tuccompi_allreduce_i64(v, 2, TUCCOMPI_OP_MIN);
	if (ret < 0)
		return ret;
	if (v[0] != -v[1])
		return _tuccompi_error(-EINVAL,
				       "task set '%s': the ranks passed different descriptions (task count, plug-in, "
				       "result size, root, policy or journal differ); every rank must pass the same",
				       d->plugin->name);
	return 0;
}

/* ------------------------------------------------------------------ the pool */

static void pool_push(struct _tuccompi_pool *p, uint64_t first, uint64_t count, int front)
{
	if (!count)
		return;
	if (p->tail - p->head + 2 > p->cap || (front && p->head == 0))
	{
		/* grow, leaving room at the front for returned tasks */
		size_t len = p->tail - p->head, cap = 2 * (len + 8), off = cap / 4;
		uint64_t(*r)[2] = malloc(cap * sizeof(*r));
		STARPU_ASSERT_MSG(r, "out of memory for the task pool");
		if (len)
			memcpy(r + off, p->r + p->head, len * sizeof(*r));
		free(p->r);
		p->r = r;
		p->cap = cap;
		p->head = off;
		p->tail = off + len;
	}
	if (p->tail == p->cap)
	{
		size_t len = p->tail - p->head;
		memmove(p->r, p->r + p->head, len * sizeof(*p->r));
		p->head = 0;
		p->tail = len;
	}
	if (front)
	{
		p->head--;
		p->r[p->head][0] = first;
		p->r[p->head][1] = count;
	}
	else
	{
		p->r[p->tail][0] = first;
		p->r[p->tail][1] = count;
		p->tail++;
	}
	p->count += count;
}

/* Returned ids are stored as ranges of ids with the top bit set (positions never have it). */
#define RETURNED_ID (1ULL << 63)

void _tuccompi_pool_add_locked(struct tuccompi_taskset *ts, uint64_t first, uint64_t count)
{
	pool_push(&ts->pool, first, count, 0);
	_tuccompi_tokens_top_up_locked(ts);
	_tuccompi_ts_tell_remaining_locked(ts);
	pthread_cond_broadcast(&ts->cond);
}

void _tuccompi_pool_return_locked(struct tuccompi_taskset *ts, const uint64_t *ids, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		pool_push(&ts->pool, ids[i] | RETURNED_ID, 1, 1);
	_tuccompi_ts_tell_remaining_locked(ts);
	pthread_cond_broadcast(&ts->cond);
}

unsigned _tuccompi_pool_take_locked(struct tuccompi_taskset *ts, uint64_t *ids, unsigned max)
{
	struct _tuccompi_pool *p = &ts->pool;
	unsigned n = 0;
	while (n < max && p->head < p->tail)
	{
		uint64_t *r = p->r[p->head];
		if (r[0] & RETURNED_ID)
			ids[n++] = r[0] & ~RETURNED_ID;
		else
		{
			uint64_t take = r[1] < max - n ? r[1] : max - n;
			for (uint64_t i = 0; i < take; i++)
				ids[n++] = _tuccompi_ts_id(ts, r[0] + i);
			r[0] += take;
			r[1] -= take;
			p->count -= take;
			if (r[1])
				break;
			p->head++;
			continue;
		}
		p->count--;
		p->head++;
	}
	if (p->head == p->tail)
		p->head = p->tail = p->cap / 4;
	_tuccompi_ts_wake_locked(ts); /* the feeder waits for the pool to drain */
	return n;
}

void _tuccompi_tokens_top_up_locked(struct tuccompi_taskset *ts)
{
	/* A waiting token takes up to the largest batch: no more tokens than that covers (so that
	 * none starts empty), and no more than one per able worker (enough for nobody to wait for
	 * work that is here). Each token is counted before the lock is released, so concurrent
	 * callers never overshoot. */
	unsigned bmax = ts->batch_max_able ? ts->batch_max_able : 1;
	for (;;)
	{
		uint64_t need = (ts->pool.count + bmax - 1) / bmax;
		if (ts->error || ts->tokens_waiting >= ts->nworkers || ts->tokens_waiting >= need)
			break;
		ts->tokens_waiting++;
		pthread_mutex_unlock(&ts->lock);
		int ret = _tuccompi_job_submit(ts, NULL, 0);
		pthread_mutex_lock(&ts->lock);
		if (ret < 0)
		{
			ts->tokens_waiting--;
			if (!ts->error)
			{
				ts->error = ret;
				snprintf(ts->errmsg, sizeof(ts->errmsg), "%s", tuccompi_last_error());
			}
			break;
		}
	}
}

void _tuccompi_ts_tell_remaining_locked(struct tuccompi_taskset *ts)
{
	if (ts->policy->flags & TUCCOMPI_POLICY_HEARS_REMAINING)
		_tuccompi_sched_set_remaining(ts->ctx, (unsigned long)ts->pool.count + ts->master_rest);
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
	if (!b)
		b = _tuccompi_tune_batch_recorded(p->name, kind);
	if (!b || b > p->batch_max[kind])
		b = p->batch_max[kind];
	return b;
}

static int able(const struct tuccompi_taskset *ts, enum tuccompi_unit_kind kind)
{
	return kind == TUCCOMPI_UNIT_CPU ? (ts->cl.where & STARPU_CPU) != 0 : (ts->cl.where & STARPU_CUDA) != 0;
}

static int ts_create(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc,
		     struct tuccompi_taskset **out)
{
	struct tuccompi_taskset *ts = calloc(1, sizeof(*ts));
	if (!ts)
		return _tuccompi_error(-ENOMEM, "out of memory");
	*out = ts;
	ts->desc = *desc;
	ts->plugin = *desc->plugin;
	ts->desc.plugin = &ts->plugin;
	ts->policy = policy;
	ts->serial = serial_counter++;
	ts->mk = _tuccompi.mk;
	ts->ntodo = desc->ntasks;
	pthread_mutex_init(&ts->lock, NULL);
	pthread_cond_init(&ts->cond, NULL);
	int ret = _tuccompi_codelet_init(ts);
	if (ret < 0)
		return ret;
	for (int k = 0; k < 2; k++)
		ts->batch[k] = batch_for(ts, (enum tuccompi_unit_kind)k);
	ts->batch_static = 1;
	for (int k = 0; k < 2; k++)
		if (able(ts, (enum tuccompi_unit_kind)k) && _tuccompi_units_healthy((enum tuccompi_unit_kind)k) &&
		    ts->batch[k] > ts->batch_static)
			ts->batch_static = ts->batch[k];
	ts->batch_max_able = ts->batch_static;
	for (int k = 0; k < _tuccompi.nunits; k++)
		if (!_tuccompi.unit_failed[k] && able(ts, _tuccompi.units[k].kind))
			ts->nworkers += _tuccompi.units[k].kind == TUCCOMPI_UNIT_CUDA
						? (unsigned)(ts->mk < _tuccompi.units[k].nworkers ? ts->mk
												    : _tuccompi.units[k].nworkers)
						: 1;
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
	}
	if (desc->journal && (ret = _tuccompi_journal_open(ts)) < 0)
		return ret;
	return _tuccompi_sched_ctx(policy, &ts->ctx);
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
	if (ts->own_local_results)
		free(ts->local_results);
	free(ts->cl.dyn_modes);
	free(ts->todo);
	free(ts->pool.r);
	pthread_mutex_destroy(&ts->lock);
	pthread_cond_destroy(&ts->cond);
	free(ts);
}

/* This rank takes positions [first, first+count): equal jobs for unit-share policies, the
 * pool otherwise. */
int _tuccompi_ts_take(struct tuccompi_taskset *ts, uint64_t first, uint64_t count)
{
	if (!(ts->policy->flags & TUCCOMPI_POLICY_UNIT_SHARES))
	{
		pthread_mutex_lock(&ts->lock);
		_tuccompi_pool_add_locked(ts, first, count);
		int ret = ts->error;
		pthread_mutex_unlock(&ts->lock);
		return ret;
	}
	uint64_t ids[TUCCOMPI_MAX_BATCH];
	for (uint64_t done = 0; done < count;)
	{
		unsigned n = count - done < ts->batch_static ? (unsigned)(count - done) : ts->batch_static;
		for (unsigned i = 0; i < n; i++)
			ids[i] = _tuccompi_ts_id(ts, first + done + i);
		int ret = _tuccompi_job_submit(ts, ids, n);
		if (ret < 0)
			return ret;
		done += n;
	}
	return 0;
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

int tuccompi_parallel(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc,
		      tuccompi_taskset_t *out)
{
	TUCCOMPI_REQUIRE_INIT();
	_tuccompi_clear_error(); /* tuccompi_last_error() tells of this call's failure only */
	if (!policy || !desc || !out)
		return _tuccompi_error(-EINVAL, "tuccompi_parallel: NULL %s", !policy ? "policy" : !desc ? "desc" : "out");
	int ret;
	if ((ret = check_desc(desc)) < 0 || (ret = check_policy(policy)) < 0)
		return ret;
	/* MK may have changed since the last set (SETMK): every rank's view is refreshed, and
	 * the ranks check that they describe the same set. */
	if ((ret = _tuccompi_comm_exchange_nodes()) < 0 || (ret = check_same_everywhere(desc, policy)) < 0)
		return ret;
	struct tuccompi_taskset *ts = NULL;
	if ((ret = ts_create(policy, desc, &ts)) < 0)
	{
		ts_free(ts);
		return ret;
	}
	_tuccompi_bus_counters(NULL, NULL); /* reading them resets them */
	_tuccompi_inject_reset();
	ts->t_start = _tuccompi_now();
	ret = policy->dynamic ? _tuccompi_ms_feed(ts) : start_partition(ts);
	if (ret < 0 && ts->jobs_inflight == 0 && !ts->feeding)
	{
		/* nothing runs: undo everything (SYN would only report the error) */
		ts_free(ts);
		return ret;
	}
	if (ret < 0)
		_tuccompi_ts_fail(ts, ret, "%s", tuccompi_last_error());
	*out = ts;
	return 0;
}

void tuccompi_taskset_destroy(tuccompi_taskset_t ts)
{
	if (!ts)
		return;
	if (!ts->waited && _tuccompi.initialized)
		tuccompi_wait(ts);
	free(ts->ran_ids);
	free(ts->all_units);
	free(ts->tasks_per_rank);
	free(ts->wall_per_rank);
	free(ts->comm_per_rank);
	free(ts->xfer_s_per_rank);
	free(ts->wait_per_rank);
	free(ts->xfer_bytes_per_rank);
	free(ts->mk_per_rank);
	free(ts->placement_per_rank);
	free(ts->task_rank);
	ts_free(ts);
}
