/* The deployment level: what a plug-in sees of its tasks and batches, the StarPU codelet that
 * runs a job (a batch of tasks) on a unit, failures that move a job to another unit, the
 * plug-ins' performance models and the shared buffers. */
#include "taskset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <starpu_expert.h>

#ifdef TUCCOMPI_HAVE_CUDA
#include <tuccompi_cuda.h>
#endif

/* ------------------------------------------------------------------ what a plug-in sees */

uint64_t tuccompi_task_id(const struct tuccompi_task *t)
{
	return t->id;
}

const void *tuccompi_task_input(const struct tuccompi_task *t)
{
	const struct tuccompi_taskset_desc *d = &t->ts->desc;
	return d->inputs ? (const unsigned char *)d->inputs + t->id * d->input_size : NULL;
}

void *tuccompi_task_result(struct tuccompi_task *t)
{
	struct tuccompi_taskset *ts = t->ts;
	return ts->plugin.result_size ? ts->local_results + t->id * ts->plugin.result_size : NULL;
}

const void *tuccompi_task_shared(const struct tuccompi_task *t, unsigned k)
{
	if (k >= t->ts->desc.nshared)
		return NULL;
	return (const void *)STARPU_VARIABLE_GET_PTR(t->buffers[k]);
}

size_t tuccompi_task_shared_size(const struct tuccompi_task *t, unsigned k)
{
	if (k >= t->ts->desc.nshared)
		return 0;
	return STARPU_VARIABLE_GET_ELEMSIZE(t->buffers[k]);
}

void *tuccompi_task_workspace(struct tuccompi_task *t, unsigned k)
{
	if (k >= t->ts->nworkspaces)
		return NULL;
	return (void *)STARPU_VARIABLE_GET_PTR(t->buffers[t->ts->desc.nshared + k]);
}

int tuccompi_task_worker(const struct tuccompi_task *t)
{
	return t->worker;
}

enum tuccompi_unit_kind tuccompi_task_unit_kind(const struct tuccompi_task *t)
{
	return t->kind;
}

unsigned tuccompi_batch_size(const struct tuccompi_batch *b)
{
	return b ? b->job->n : 0;
}

struct tuccompi_task *tuccompi_batch_task(struct tuccompi_batch *b, unsigned i)
{
	return b && i < b->job->n ? &b->job->tasks[i] : NULL;
}

static void job_vfail(struct _tuccompi_job *job, int err, const char *fmt, va_list ap)
{
	if (job->failed)
		return; /* the first reason is the one to tell */
	job->failed = 1;
	job->err = err < 0 ? err : -EIO;
	vsnprintf(job->why, sizeof(job->why), fmt, ap);
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

void _tuccompi_cpu_entry(void *buffers[], void *cl_arg);
#ifdef TUCCOMPI_HAVE_CUDA
void _tuccompi_cuda_entry(void *buffers[], void *cl_arg);
#endif

/* Jobs are recognised by their codelet's entry functions. */
unsigned tuccompi_sched_task_weight(const struct starpu_task *task)
{
	const struct starpu_codelet *cl = task ? task->cl : NULL;
	int ours = cl && (cl->cpu_funcs[0] == _tuccompi_cpu_entry
#ifdef TUCCOMPI_HAVE_CUDA
			  || cl->cuda_funcs[0] == _tuccompi_cuda_entry
#endif
			 );
	return ours ? ((const struct _tuccompi_job *)task->cl_arg)->n : 1;
}

void _tuccompi_ts_fail(struct tuccompi_taskset *ts, int err, const char *fmt, ...)
{
	pthread_mutex_lock(&ts->lock);
	if (!ts->error)
	{
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(ts->errmsg, sizeof(ts->errmsg), fmt, ap);
		va_end(ap);
		ts->error = err < 0 ? err : -EIO;
	}
	pthread_cond_broadcast(&ts->cond);
	pthread_mutex_unlock(&ts->lock);
}

/* ------------------------------------------------------------------ fault injection
 * TUCCOMPI_FAULT_INJECT=WHAT:N[,WHAT:N...], read at every PARALLEL: with WHAT cpu or cuda, the N-th
 * job of the task set run on a unit of that kind fails as if the plug-in had reported an error;
 * with WHAT ms, this rank's N-th request to the MS master fails; with WHAT mshang, the MS master's
 * server stops answering at the N-th request it receives from another rank (a stuck master, for the
 * ranks' TUCCOMPI_PEER_TIMEOUT). For tests of the recovery and error paths; off by default. */
static long inject_at[4] = { -1, -1, -1, -1 };
static _Atomic long inject_count[4];

/* Read TUCCOMPI_FAULT_INJECT again and restart the counts: the N-th event of a task set. */
void _tuccompi_inject_reset(void)
{
	long at[4] = { -1, -1, -1, -1 };
	const char *e = getenv("TUCCOMPI_FAULT_INJECT");
	for (const char *p = e; p && *p;)
	{
		long n;
		if (!strncmp(p, "cpu:", 4) && (n = strtol(p + 4, NULL, 10)) > 0)
			at[TUCCOMPI_UNIT_CPU] = n;
		else if (!strncmp(p, "cuda:", 5) && (n = strtol(p + 5, NULL, 10)) > 0)
			at[TUCCOMPI_UNIT_CUDA] = n;
		else if (!strncmp(p, "ms:", 3) && (n = strtol(p + 3, NULL, 10)) > 0)
			at[2] = n;
		else if (!strncmp(p, "mshang:", 7) && (n = strtol(p + 7, NULL, 10)) > 0)
			at[3] = n;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	for (int k = 0; k < 4; k++)
	{
		inject_at[k] = at[k];
		atomic_store(&inject_count[k], 0);
	}
}

int _tuccompi_injected(int what)
{
	if (inject_at[what] < 0)
		return 0;
	return atomic_fetch_add(&inject_count[what], 1) + 1 == inject_at[what];
}

/* ------------------------------------------------------------------ running a job */

/* Is there a healthy unit of this node that can run the plug-in? */
static int someone_left(const struct tuccompi_taskset *ts)
{
	return (ts->plugin.cpu || ts->plugin.cpu_batch ? _tuccompi_units_healthy(TUCCOMPI_UNIT_CPU) : 0) +
	       ((ts->cl.where & STARPU_CUDA) ? _tuccompi_units_healthy(TUCCOMPI_UNIT_CUDA) : 0);
}

/* A unit that failed a job is out of the set: workers of failed units run nothing more. Once
 * the set has failed, any worker may take its remaining jobs, which then only end. So may they
 * once no unit that could run the set is left, before the set's error is raised: StarPU parks a
 * task that no worker of its context can run in a list it drains only when workers join the
 * context (a job submitted while the last unit failed waited there forever, and the set with it);
 * a failed unit's worker hands the job back, and job_requeue() fails the set. */
static int can_execute(unsigned workerid, struct starpu_task *task, unsigned nimpl)
{
	(void)nimpl;
	const struct _tuccompi_job *job = task->cl_arg;
	if (job && __atomic_load_n(&job->ts->error, __ATOMIC_RELAXED))
		return 1;
	int u = _tuccompi.worker_unit[workerid];
	if (u < 0 || !__atomic_load_n(&_tuccompi.unit_failed[u], __ATOMIC_RELAXED))
		return 1;
	return job && !someone_left(job->ts);
}

static void run_job(void *buffers[], struct _tuccompi_job *job, enum tuccompi_unit_kind kind)
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
		if (!ts->error && !out)
			job->n = _tuccompi_pool_take_locked(ts, job->ids, ts->batch[kind]);
		/* the next worker to free up finds a token waiting */
		_tuccompi_tokens_top_up_locked(ts);
		_tuccompi_ts_tell_remaining_locked(ts);
		pthread_mutex_unlock(&ts->lock);
		if (out)
			return; /* job_done sees n == 0: nothing to hand back */
	}
	if (__atomic_load_n(&ts->error, __ATOMIC_RELAXED))
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
	if (_tuccompi_injected((int)kind))
		tuccompi_batch_fail(&(struct tuccompi_batch){ job }, -EIO,
				    "fault injected by TUCCOMPI_FAULT_INJECT into job of %u task(s)", job->n);
	else
	{
		struct tuccompi_batch b = { job };
		tuccompi_batch_func batch = kind == TUCCOMPI_UNIT_CPU ? ts->plugin.cpu_batch : ts->plugin.cuda_batch;
		tuccompi_plugin_func one = kind == TUCCOMPI_UNIT_CPU ? ts->plugin.cpu : ts->plugin.cuda;
		if (batch)
			batch(&b, ts->desc.arg);
		else
			for (unsigned i = 0; i < job->n && !job->failed; i++)
				one(&job->tasks[i], ts->desc.arg);
	}
#ifdef TUCCOMPI_HAVE_CUDA
	if (kind == TUCCOMPI_UNIT_CUDA)
	{
		/* The plug-in should have synchronised (GPUSYN); nothing of this job may still run
		 * when StarPU hands its buffers to the next one. An error here fails the job. */
		if (tuccompi_gpu_sync() < 0)
			tuccompi_batch_fail(&(struct tuccompi_batch){ job }, -EIO, "CUDA error after the tasks ran: %s",
					    tuccompi_last_error());
	}
#endif
	double t1 = _tuccompi_now();
	if (job->worker >= 0 && !job->failed)
	{
		atomic_fetch_add(&ts->worker_ntasks[job->worker], job->n);
		atomic_fetch_add(&ts->worker_busy_ns[job->worker], (uint64_t)((t1 - t0) * 1e9));
	}
}

void _tuccompi_cpu_entry(void *buffers[], void *cl_arg)
{
	run_job(buffers, cl_arg, TUCCOMPI_UNIT_CPU);
}

#ifdef TUCCOMPI_HAVE_CUDA
void _tuccompi_cuda_entry(void *buffers[], void *cl_arg)
{
	run_job(buffers, cl_arg, TUCCOMPI_UNIT_CUDA);
}
#endif

static void job_free(struct _tuccompi_job *job)
{
	free(job->ids);
	free(job->tasks);
	free(job);
}

/* Every unit of this node that could run the set is out: the set fails, saying why the last one
 * went (the last failure is recorded before its unit is marked, so a job handed back by another
 * failed unit in the meantime says the same). */
static void fail_no_unit_left(struct tuccompi_taskset *ts, int err, uint64_t ntasks)
{
	char why[sizeof(ts->last_failure)];
	pthread_mutex_lock(&ts->lock);
	snprintf(why, sizeof(why), "%s", ts->last_failure[0] ? ts->last_failure : "unit taken out");
	pthread_mutex_unlock(&ts->lock);
	_tuccompi_ts_fail(ts, err, "task set '%s': no unit of rank %d is left to run %llu task(s) (last failure: %s)",
			  ts->plugin.name, _tuccompi.rank, (unsigned long long)ntasks, why);
	/* jobs queued for units that are out can now end: wake everybody to take them */
	starpu_wake_all_blocked_workers();
}

/* A job failed or was moved: take its unit out (failed), put its tasks back. */
static void job_requeue(struct _tuccompi_job *job)
{
	struct tuccompi_taskset *ts = job->ts;
	int u = job->worker >= 0 ? _tuccompi.worker_unit[job->worker] : -1;
	if (job->failed)
	{
		/* before the unit is marked: whoever then finds no unit left finds why */
		pthread_mutex_lock(&ts->lock);
		snprintf(ts->last_failure, sizeof(ts->last_failure), "%s", job->why);
		pthread_mutex_unlock(&ts->lock);
	}
	if (_tuccompi_reduce_job_failed(job)) /* the set fails, saying why; the unit is out all the same */
	{
		if (u >= 0)
			__atomic_store_n(&_tuccompi.unit_failed[u], 1, __ATOMIC_RELAXED);
		return;
	}
	if (job->failed && u >= 0 && !__atomic_exchange_n(&_tuccompi.unit_failed[u], 1, __ATOMIC_RELAXED))
		_tuccompi_warn("%s %d failed %u task(s) of '%s' (%s): taken out, its tasks run elsewhere",
			       _tuccompi.units[u].kind == TUCCOMPI_UNIT_CUDA ? "GPU" : "CPU core", _tuccompi.units[u].index,
			       job->n, ts->plugin.name, job->why);
	if (__atomic_load_n(&ts->error, __ATOMIC_RELAXED))
		return;
	if (!someone_left(ts))
	{
		fail_no_unit_left(ts, job->err ? job->err : -ENODEV, job->n);
		return;
	}
	if (job->failed)
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
	if (job->failed || job->moved)
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
	if (!job->failed && !job->moved && job->n)
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

/* ------------------------------------------------------------------ shared data */

int tuccompi_shared_register(tuccompi_shared_t *out, const void *ptr, size_t size)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!out || (!ptr && size))
		return _tuccompi_error(-EINVAL, "tuccompi_shared_register: NULL %s", out ? "pointer" : "output");
	struct tuccompi_shared *s = calloc(1, sizeof(*s));
	if (!s)
		return _tuccompi_error(-ENOMEM, "out of memory");
	starpu_variable_data_register(&s->handle, STARPU_MAIN_RAM, (uintptr_t)ptr, size);
	*out = s;
	return 0;
}

int tuccompi_shared_unregister(tuccompi_shared_t s)
{
	if (!s)
		return 0;
	starpu_data_unregister(s->handle);
	free(s);
	return 0;
}

/* ------------------------------------------------------------------ performance models */

/* One history-based model per plug-in name, kept until StarPU stops (StarPU holds on
 * to registered models until starpu_shutdown), so that dmda & co learn across sets. */
struct model_entry
{
	struct starpu_perfmodel model;
	char symbol[128];
	struct model_entry *next;
};
static struct model_entry *models;
static pthread_mutex_t models_lock = PTHREAD_MUTEX_INITIALIZER;

static struct starpu_perfmodel *model_for(const char *name)
{
	pthread_mutex_lock(&models_lock);
	struct model_entry *e;
	for (e = models; e; e = e->next)
		if (strcmp(e->symbol + strlen("tuccompi_"), name) == 0)
			break;
	if (!e && (e = calloc(1, sizeof(*e))))
	{
		snprintf(e->symbol, sizeof(e->symbol), "tuccompi_%s", name);
		e->model.type = STARPU_HISTORY_BASED;
		e->model.symbol = e->symbol;
		e->next = models;
		models = e;
	}
	pthread_mutex_unlock(&models_lock);
	return e ? &e->model : NULL;
}

void _tuccompi_models_free(void)
{
	pthread_mutex_lock(&models_lock);
	while (models)
	{
		struct model_entry *e = models;
		models = e->next;
		free(e);
	}
	pthread_mutex_unlock(&models_lock);
}

/* ------------------------------------------------------------------ the codelet */

int _tuccompi_codelet_init(struct tuccompi_taskset *ts)
{
	const struct tuccompi_taskset_desc *desc = &ts->desc;
	starpu_codelet_init(&ts->cl);
	ts->cl.name = ts->plugin.name;
	ts->cl.can_execute = can_execute;
	if (ts->plugin.cpu || ts->plugin.cpu_batch)
	{
		ts->cl.cpu_funcs[0] = _tuccompi_cpu_entry;
		ts->cl.where |= STARPU_CPU;
	}
#ifdef TUCCOMPI_HAVE_CUDA
	if (ts->plugin.cuda || ts->plugin.cuda_batch)
	{
		ts->cl.cuda_funcs[0] = _tuccompi_cuda_entry;
		ts->cl.where |= STARPU_CUDA;
	}
#endif
	if (!ts->cl.where)
		return _tuccompi_error(-ENODEV, "plug-in '%s' has only a CUDA implementation and this build has no CUDA",
				       ts->plugin.name);
	ts->nworkspaces = ts->plugin.nworkspaces;
	ts->nbuffers = desc->nshared + ts->nworkspaces;
	ts->cl.nbuffers = (int)ts->nbuffers;
	if (ts->nbuffers > STARPU_NMAXBUFS &&
	    !(ts->cl.dyn_modes = malloc(ts->nbuffers * sizeof(enum starpu_data_access_mode))))
		return _tuccompi_error(-ENOMEM, "out of memory");
	for (unsigned k = 0; k < ts->nbuffers; k++)
		STARPU_CODELET_SET_MODE(&ts->cl, k < desc->nshared ? STARPU_R : STARPU_SCRATCH, k);
	if (!(ts->cl.model = model_for(ts->plugin.name)))
		return _tuccompi_error(-ENOMEM, "out of memory for a performance model");
	for (unsigned k = 0; k < ts->nworkspaces; k++)
		starpu_variable_data_register(&ts->workspaces[k], -1, 0, ts->plugin.workspace_size[k]);
	return 0;
}
