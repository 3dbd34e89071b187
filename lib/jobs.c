/* Jobs: how a task set's tasks reach the units. A job is one StarPU task running a batch of the
 * set's tasks (taskset.h says how jobs carry tasks): submitting one, running it (the codelet's
 * entries in plugin.c call _tuccompi_job_run; a failure that passes runs it again there, faults.c),
 * its end (results recorded, tokens topped up), and a failed job moved to another unit. The rank's
 * pool of tasks waiting for a unit and the tokens that draw from it; the task sets in flight (failed
 * at once when the 1st layer stops). Below PARALLEL (parallel.c) and the MS feeder (ms_ranks.c),
 * which put tasks here; calls nothing above it (faults.c, which judges failures, is below). */
#include "taskset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TUCCOMPI_HAVE_CUDA
#include <tuccompi_cuda.h>
#endif

/* ------------------------------------------------------------------ failures: a job's (the plug-in says), a set's */

/* Where a job's failure goes when there is no memory for its own line: the job fails all the same. */
static struct _tuccompi_fail job_fail_nomem = { -ENOMEM, "a job failed, and there was no memory to say why" };

static void job_vfail(struct _tuccompi_job *job, int err, const char *fmt, va_list ap)
{
	if (job->fail)
		return; /* the first reason is the one to tell */
	struct _tuccompi_fail *f = calloc(1, sizeof(*f));
	if (!f)
	{
		job->fail = &job_fail_nomem;
		return;
	}
	_tuccompi_fail_vset(f, err, fmt, ap);
	job->fail = f;
}

static void job_fail_free(struct _tuccompi_job *job)
{
	if (job->fail != &job_fail_nomem)
		free(job->fail);
	job->fail = NULL;
}

void tuccompi_task_fail(struct tuccompi_task *t, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	job_vfail(t->job, err, fmt, ap);
	va_end(ap);
}

void tuccompi_batch_fail(struct tuccompi_batch *b, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	job_vfail(b->job, err, fmt, ap);
	va_end(ap);
}

void _tuccompi_ts_fail(struct tuccompi_taskset *ts, int err, const char *fmt, ...)
{
	pthread_mutex_lock(&ts->lock);
	va_list ap;
	va_start(ap, fmt);
	_tuccompi_fail_vset(&ts->fail, err, fmt, ap);
	va_end(ap);
	pthread_cond_broadcast(&ts->cond);
	pthread_mutex_unlock(&ts->lock);
}


/* ------------------------------------------------------------------ running a job */

/* Is there a healthy unit of this node that can run the plug-in? */
int _tuccompi_someone_left(const struct tuccompi_taskset *ts)
{
	return (ts->plugin.cpu || ts->plugin.cpu_batch ? _tuccompi_units_healthy(TUCCOMPI_UNIT_CPU) : 0) +
	       ((ts->cl.where & STARPU_CUDA) ? _tuccompi_units_healthy(TUCCOMPI_UNIT_CUDA) : 0);
}

/* Run the job's tasks once on this worker: 0, or the error of its failure (job->fail). */
static int run_once(struct _tuccompi_job *job, enum tuccompi_unit_kind kind)
{
	struct tuccompi_taskset *ts = job->ts;
	struct tuccompi_batch b = { job };
#ifdef TUCCOMPI_HAVE_CUDA
	if (kind == TUCCOMPI_UNIT_CUDA)
		_tuccompi_gpu_launch_take(NULL); /* launches of this run only */
#endif
	job->inject = job->inject == TUCCOMPI_FAULT_REPEAT ? TUCCOMPI_FAULT_REPEAT : _tuccompi_injected((int)kind);
	if (job->inject)
		tuccompi_batch_fail(&b, -EIO, "fault injected by TUCCOMPI_FAULT_INJECT into job of %u task(s)", job->n);
	else
	{
		tuccompi_batch_func batch = kind == TUCCOMPI_UNIT_CPU ? ts->plugin.cpu_batch : ts->plugin.cuda_batch;
		tuccompi_plugin_func one = kind == TUCCOMPI_UNIT_CPU ? ts->plugin.cpu : ts->plugin.cuda;
		if (batch)
			batch(&b, ts->desc.arg);
		else
			for (unsigned i = 0; i < job->n && !job->fail; i++)
				one(&job->tasks[i], ts->desc.arg);
	}
#ifdef TUCCOMPI_HAVE_CUDA
	if (kind == TUCCOMPI_UNIT_CUDA)
	{
		/* A launch the tuner could not make, or CUDA refused, fails the job (the plug-in may not
		 * have looked at GPUSYN's answer). */
		struct _tuccompi_fail lf;
		if (_tuccompi_gpu_launch_take(&lf) < 0)
			tuccompi_batch_fail(&b, lf.err, "%s", lf.msg);
		/* The plug-in should have synchronised (GPUSYN); nothing of this job may still run
		 * when StarPU hands its buffers to the next one. An error here fails the job. */
		if (tuccompi_gpu_sync() < 0)
			tuccompi_batch_fail(&b, -EIO, "CUDA error after the tasks ran: %s", tuccompi_last_error());
	}
#endif
	return job->fail ? job->fail->err : 0;
}

void _tuccompi_job_run(void *buffers[], struct _tuccompi_job *job, enum tuccompi_unit_kind kind)
{
	struct tuccompi_taskset *ts = job->ts;
	job->worker = starpu_worker_get_id();
	job->kind = kind;
	int u = job->worker >= 0 ? _tuccompi.worker_unit[job->worker] : -1;
	int out = u >= 0 && __atomic_load_n(&_tuccompi.unit_failed[u], __ATOMIC_RELAXED);
	if (!job->bound)
	{
		/* a token takes its tasks now, sized for this kind of unit */
		pthread_mutex_lock(&ts->lock);
		ts->tokens_waiting--;
		if (!ts->fail.err && !out)
			job->n = _tuccompi_pool_take_locked(ts, job->ids, ts->batch[kind]);
		/* the next worker to free up finds a token waiting */
		_tuccompi_tokens_top_up_locked(ts);
		_tuccompi_ts_tell_remaining_locked(ts);
		pthread_mutex_unlock(&ts->lock);
		if (out)
			return; /* job_done sees n == 0: nothing to hand back */
	}
	if (__atomic_load_n(&ts->fail.err, __ATOMIC_RELAXED))
	{
		job->n = 0; /* the set has failed: nothing more runs */
		return;
	}
	if (out)
	{
		/* queued on this unit before it failed: hand back untouched */
		job->moved = 1;
		return;
	}
	if (job->n == 0)
		return;
	for (unsigned i = 0; i < job->n; i++)
		job->tasks[i] = (struct tuccompi_task){ .ts = ts,
							.job = job,
							.id = job->ids[i],
							.buffers = buffers,
							.worker = job->worker,
							.kind = kind };
	double t0 = _tuccompi_now();
	/* a failure that passes runs the job again at once, here (faults.c) */
	while (run_once(job, kind) < 0 && _tuccompi_job_retry(job, u))
		job_fail_free(job);
	double t1 = _tuccompi_now();
	if (!__atomic_load_n(&ts->first_job[kind], __ATOMIC_RELAXED) &&
	    !__atomic_exchange_n(&ts->first_job[kind], 1, __ATOMIC_ACQ_REL))
	{
		ts->t_first_job[kind] = t0; /* read after the set's jobs are done (TUCCOMPI_END_LOG) */
		ts->first_job_s[kind] = t1 - t0;
	}
	if (job->worker >= 0 && !job->fail)
	{
		atomic_fetch_add(&ts->worker_ntasks[job->worker], job->n);
		atomic_fetch_add(&ts->worker_busy_ns[job->worker], (uint64_t)((t1 - t0) * 1e9));
	}
}

static void job_free(struct _tuccompi_job *job)
{
	job_fail_free(job);
	free(job->ids);
	free(job->tasks);
	free(job);
}

/* Every unit of this node that could run the set is out: the set fails, saying why the last one
 * went (the last failure is recorded before its unit is marked, so a job handed back by another
 * failed unit in the meantime says the same). */
static void fail_no_unit_left(struct tuccompi_taskset *ts, int err, uint64_t ntasks)
{
	char why[sizeof(ts->last_failure.msg)];
	pthread_mutex_lock(&ts->lock);
	snprintf(why, sizeof(why), "%s", ts->last_failure.err ? ts->last_failure.msg : "unit taken out");
	pthread_mutex_unlock(&ts->lock);
	_tuccompi_ts_fail(ts, err, "task set '%s': no unit of rank %d is left to run %llu task(s) (last failure: %s)",
			  ts->plugin.name, _tuccompi.rank, (unsigned long long)ntasks, why);
	/* jobs queued for units that are out can now end: wake everybody to take them */
	starpu_wake_all_blocked_workers();
}

/* A failed job that added into its set's reduction buffer (reduce.c) cannot be run again: its share
 * of the sums cannot be taken back, so the set fails. 1 when it did. */
static int reduced_job_failed(struct _tuccompi_job *job)
{
	struct tuccompi_taskset *ts = job->ts;
	if (!ts->red || !job->reduced || !job->fail)
		return 0;
	_tuccompi_ts_fail(ts, job->fail->err,
			  "task set '%s': a job of %u task(s) failed on rank %d after adding into its reduction buffer (%s): "
			  "its share of the sums cannot be taken back, so the set fails (a plug-in should ask for "
			  "tuccompi_task_reduce_buffer() only once its contribution is certain)",
			  ts->plugin.name, job->n, _tuccompi.rank, job->fail->msg);
	return 1;
}

/* A job failed (its failure did not pass: faults.c says why) or was moved: take its unit out,
 * put its tasks back. */
static void job_requeue(struct _tuccompi_job *job)
{
	struct tuccompi_taskset *ts = job->ts;
	int u = job->worker >= 0 ? _tuccompi.worker_unit[job->worker] : -1;
	if (job->fail)
	{
		/* before the unit is marked: whoever then finds no unit left finds why */
		pthread_mutex_lock(&ts->lock);
		ts->last_failure = *job->fail;
		pthread_mutex_unlock(&ts->lock);
	}
	if (reduced_job_failed(job)) /* the set fails, saying why; the unit is out all the same */
	{
		if (u >= 0)
			__atomic_store_n(&_tuccompi.unit_failed[u], TUCCOMPI_UNIT_OUT_SET, __ATOMIC_RELAXED);
		return;
	}
	if (job->fail && u >= 0)
		_tuccompi_unit_take_out(job, u);
	if (__atomic_load_n(&ts->fail.err, __ATOMIC_RELAXED))
		return;
	if (!_tuccompi_someone_left(ts))
	{
		fail_no_unit_left(ts, job->fail ? job->fail->err : -ENODEV, job->n);
		return;
	}
	if (job->fail)
		__atomic_add_fetch(&ts->retried, job->n, __ATOMIC_RELAXED);
	if (job->bound)
	{
		int ret = _tuccompi_job_submit(ts, job->ids, job->n);
		if (ret < 0)
			_tuccompi_ts_fail(ts, ret, "%s", tuccompi_last_error());
		return;
	}
	pthread_mutex_lock(&ts->lock);
	_tuccompi_pool_return_locked(ts, job->ids, job->n);
	_tuccompi_tokens_top_up_locked(ts);
	pthread_mutex_unlock(&ts->lock);
}

/* StarPU callback of a job (a StarPU thread; may submit). */
static void job_done(void *arg)
{
	struct _tuccompi_job *job = arg;
	struct tuccompi_taskset *ts = job->ts;
	if (job->fail || job->moved)
		job_requeue(job);
	else if (job->n)
	{
		size_t rs = ts->plugin.result_size;
		if (ts->desc.on_done)
			for (unsigned i = 0; i < job->n; i++)
				ts->desc.on_done(job->ids[i], rs ? ts->local_results + job->ids[i] * rs : NULL,
						 ts->desc.on_done_arg);
		if (ts->journal)
			_tuccompi_journal_record(ts, job->ids, job->n);
	}
	pthread_mutex_lock(&ts->lock);
	if (!job->fail && !job->moved && job->n)
	{
		if (ts->done + job->n > ts->ran_cap)
		{
			uint64_t cap = ts->ran_cap ? 2 * ts->ran_cap : 1024;
			while (cap < ts->done + job->n)
				cap *= 2;
			uint64_t *p = realloc(ts->ran_ids, cap * sizeof(*p));
			STARPU_ASSERT_MSG(p, "out of memory recording finished tasks");
			ts->ran_ids = p;
			ts->ran_cap = cap;
		}
		memcpy(ts->ran_ids + ts->done, job->ids, job->n * sizeof(uint64_t));
		ts->done += job->n;
		ts->t_local_done = _tuccompi_now();
	}
	else if (!job->fail && !job->moved)
		ts->jobs_empty++;
	ts->t_last_job = _tuccompi_now();
	ts->jobs_inflight--;
	_tuccompi_ts_wake_locked(ts);
	pthread_mutex_unlock(&ts->lock);
	job_free(job);
}

int _tuccompi_job_submit(struct tuccompi_taskset *ts, const uint64_t *ids, unsigned n)
{
	unsigned cap = ids ? n : (ts->batch[0] > ts->batch[1] ? ts->batch[0] : ts->batch[1]);
	struct _tuccompi_job *job = calloc(1, sizeof(*job));
	if (job)
	{
		job->ids = malloc((cap ? cap : 1) * sizeof(uint64_t));
		job->tasks = malloc((cap ? cap : 1) * sizeof(struct tuccompi_task));
	}
	if (!job || !job->ids || !job->tasks)
	{
		if (job)
			job_free(job);
		return _tuccompi_error(-ENOMEM, "out of memory submitting a job of '%s'", ts->plugin.name);
	}
	job->ts = ts;
	job->cap = cap;
	job->bound = ids != NULL;
	if (ids)
	{
		memcpy(job->ids, ids, n * sizeof(uint64_t));
		job->n = n;
	}
	struct starpu_task *task = starpu_task_create();
	task->cl = &ts->cl;
	task->cl_arg = job;
	task->callback_func = job_done;
	task->callback_arg = job;
	task->sched_ctx = ts->ctx;
	task->name = ts->plugin.name;
	if (ts->nbuffers > STARPU_NMAXBUFS)
		task->dyn_handles = malloc(ts->nbuffers * sizeof(starpu_data_handle_t));
	for (unsigned k = 0; k < ts->desc.nshared; k++)
		STARPU_TASK_SET_HANDLE(task, ts->desc.shared[k]->handle, k);
	for (unsigned k = 0; k < ts->nworkspaces; k++)
		STARPU_TASK_SET_HANDLE(task, ts->workspaces[k], ts->desc.nshared + k);
	/* (a token's place in tokens_waiting was taken by the caller, under the lock) */
	pthread_mutex_lock(&ts->lock);
	ts->jobs_inflight++;
	pthread_mutex_unlock(&ts->lock);
	int ret = starpu_task_submit(task);
	if (ret < 0)
	{
		pthread_mutex_lock(&ts->lock);
		ts->jobs_inflight--;
		pthread_cond_broadcast(&ts->cond);
		pthread_mutex_unlock(&ts->lock);
		task->destroy = 0;
		starpu_task_destroy(task);
		job_free(job);
		return _tuccompi_error(ret, "starpu_task_submit failed for a job of '%s': %s%s", ts->plugin.name,
				       strerror(-ret), ret == -ENODEV ? " (no unit of this node can run the plug-in)" : "");
	}
	return 0;
}

/* ------------------------------------------------------------------ task sets in flight
 * Kept so that a stopped 1st layer (a lost peer) fails every set of this rank at once. */

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tuccompi_taskset *live_sets[64];
static int nlive;

void _tuccompi_sets_add(struct tuccompi_taskset *ts)
{
	pthread_mutex_lock(&live_lock);
	if (nlive < (int)(sizeof(live_sets) / sizeof(live_sets[0])))
		live_sets[nlive++] = ts;
	pthread_mutex_unlock(&live_lock);
}

void _tuccompi_sets_remove(struct tuccompi_taskset *ts)
{
	pthread_mutex_lock(&live_lock);
	for (int i = 0; i < nlive; i++)
		if (live_sets[i] == ts)
		{
			live_sets[i] = live_sets[--nlive];
			break;
		}
	pthread_mutex_unlock(&live_lock);
}

int _tuccompi_sets_unwaited(void)
{
	pthread_mutex_lock(&live_lock);
	int n = 0;
	for (int i = 0; i < nlive; i++)
		n += !live_sets[i]->waited;
	pthread_mutex_unlock(&live_lock);
	return n;
}

void _tuccompi_sets_fail_all(int err, const char *msg)
{
	pthread_mutex_lock(&live_lock);
	for (int i = 0; i < nlive; i++)
		if (!live_sets[i]->waited) /* a set already waited for keeps its outcome */
			_tuccompi_ts_fail(live_sets[i], err, "%s", msg);
	pthread_mutex_unlock(&live_lock);
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
		if (ts->fail.err || ts->tokens_waiting >= ts->nworkers || ts->tokens_waiting >= need)
			break;
		ts->tokens_waiting++;
		pthread_mutex_unlock(&ts->lock);
		int ret = _tuccompi_job_submit(ts, NULL, 0);
		pthread_mutex_lock(&ts->lock);
		if (ret < 0)
		{
			ts->tokens_waiting--;
			_tuccompi_fail_set(&ts->fail, ret, "%s", tuccompi_last_error());
			break;
		}
	}
}

void _tuccompi_ts_tell_remaining_locked(struct tuccompi_taskset *ts)
{
	if (ts->policy->flags & TUCCOMPI_POLICY_HEARS_REMAINING)
		_tuccompi_sched_set_remaining(ts->ctx, (unsigned long)ts->pool.count + ts->master_rest);
}

/* This rank takes positions [first, first+count): equal jobs for unit-share policies, the
 * pool otherwise. Unit shares: as many jobs as the largest unit's batch needs, rounded up to a
 * multiple of the node's able units, the tasks spread evenly over them (sizes differ by at most
 * one), so that every unit's share is equal to a job's size, small sets included (jobs of the
 * batch's size would leave units of a small set without any). */
int _tuccompi_ts_take(struct tuccompi_taskset *ts, uint64_t first, uint64_t count)
{
	if (!(ts->policy->flags & TUCCOMPI_POLICY_UNIT_SHARES))
	{
		pthread_mutex_lock(&ts->lock);
		_tuccompi_pool_add_locked(ts, first, count);
		int ret = ts->fail.err;
		pthread_mutex_unlock(&ts->lock);
		return ret;
	}
	uint64_t ids[TUCCOMPI_MAX_BATCH];
	uint64_t njobs = (count + ts->batch_static - 1) / ts->batch_static, units = ts->nunits_able ? ts->nunits_able : 1;
	njobs = (njobs + units - 1) / units * units;
	if (njobs > count)
		njobs = count;
	for (uint64_t j = 0, done = 0; j < njobs; j++)
	{
		unsigned n = (unsigned)(count / njobs + (j < count % njobs));
		for (unsigned i = 0; i < n; i++)
			ids[i] = _tuccompi_ts_id(ts, first + done + i);
		int ret = _tuccompi_job_submit(ts, ids, n);
		if (ret < 0)
			return ret;
		done += n;
	}
	return 0;
}

