/* PARALLEL / SYN: a task set turned into StarPU tasks of one codelet, distributed over
 * ranks by the policy's 1st-layer rule and over units by its StarPU policy. */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef TUCCOMPI_HAVE_CUDA
#include <tuccompi_cuda.h>
#endif

struct tuccompi_task
{
	struct tuccompi_taskset *ts;
	uint64_t id;
	void **buffers;
	int worker;
	enum tuccompi_unit_kind kind;
};

struct tuccompi_taskset
{
	struct tuccompi_taskset_desc desc;
	struct tuccompi_plugin plugin;
	const struct tuccompi_policy *policy;
	unsigned ctx;
	unsigned serial;
	struct starpu_codelet cl;
	starpu_data_handle_t workspaces[TUCCOMPI_MAX_WORKSPACES];
	unsigned nbuffers;

	/* results of the tasks run here, indexed by task id (desc.results on the root) */
	unsigned char *local_results;
	int own_local_results;

	/* this rank's tasks */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t submitted, started, done;
	uint64_t *ran_ids; /* ids run here, in completion order */
	uint64_t ran_cap;
	int feeding;       /* MS feeder still running */
	int submit_error;
	uint64_t target;   /* MS: tasks this rank keeps queued (one pack per unit) */
	pthread_t feeder;
	int feeder_started;
	int tell_more; /* our central-queue policies hear what the master has left */
	struct _tuccompi_ms *ms;

	/* statistics */
	double t_start, t_end, t_local_done, comm_s, wait_s;
	uint64_t nrequests;
	_Atomic uint64_t worker_ntasks[STARPU_NMAXWORKERS];
	_Atomic uint64_t worker_busy_ns[STARPU_NMAXWORKERS];
	struct tuccompi_unit_stats *all_units;
	int nall_units;
	uint64_t *tasks_per_rank;
	double *wall_per_rank, *comm_per_rank, *xfer_s_per_rank, *wait_per_rank;
	uint64_t *xfer_bytes_per_rank;
	uint64_t xfer_bytes;
	double xfer_s;
	int *task_rank; /* root: rank of each task */
	int waited;
};

struct tuccompi_shared
{
	starpu_data_handle_t handle;
};

struct trec
{
	struct tuccompi_taskset *ts;
	uint64_t id;
};

static unsigned serial_counter;

/* ------------------------------------------------------------------ plug-in side */

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
	if (k >= t->ts->plugin.nworkspaces)
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

/* ------------------------------------------------------------------ codelet */

static void note_started(struct tuccompi_taskset *ts)
{
	if (!ts->ms)
		return;
	pthread_mutex_lock(&ts->lock);
	ts->started++;
	pthread_cond_broadcast(&ts->cond);
	pthread_mutex_unlock(&ts->lock);
}

static void run_plugin(void *buffers[], void *cl_arg, enum tuccompi_unit_kind kind)
{
	struct trec *r = cl_arg;
	struct tuccompi_taskset *ts = r->ts;
	struct tuccompi_task t = {
		.ts = ts,
		.id = r->id,
		.buffers = buffers,
		.worker = starpu_worker_get_id(),
		.kind = kind,
	};
	note_started(ts);
	double t0 = _tuccompi_now();
	if (kind == TUCCOMPI_UNIT_CPU)
		ts->plugin.cpu(&t, ts->desc.arg);
	else
		ts->plugin.cuda(&t, ts->desc.arg);
	double t1 = _tuccompi_now();
	if (t.worker >= 0)
	{
		atomic_fetch_add(&ts->worker_ntasks[t.worker], 1);
		atomic_fetch_add(&ts->worker_busy_ns[t.worker], (uint64_t)((t1 - t0) * 1e9));
	}
}

static void cpu_entry(void *buffers[], void *cl_arg)
{
	run_plugin(buffers, cl_arg, TUCCOMPI_UNIT_CPU);
}

#ifdef TUCCOMPI_HAVE_CUDA
static void cuda_entry(void *buffers[], void *cl_arg)
{
	run_plugin(buffers, cl_arg, TUCCOMPI_UNIT_CUDA);
	/* The plug-in should have synchronised (GPUSYN); make sure nothing of this task
	 * is still running when StarPU hands its buffers to the next one, and collect
	 * the tuner's measurements. */
	int ret = tuccompi_gpu_sync();
	STARPU_ASSERT_MSG(ret == 0, "CUDA error after task %llu of plug-in '%s': %s",
			  (unsigned long long)((struct trec *)cl_arg)->id, ((struct trec *)cl_arg)->ts->plugin.name,
			  tuccompi_last_error());
}
#endif

static void task_done(void *arg)
{
	struct trec *r = arg;
	struct tuccompi_taskset *ts = r->ts;
	if (ts->desc.on_done)
		ts->desc.on_done(r->id,
				 ts->plugin.result_size ? ts->local_results + r->id * ts->plugin.result_size : NULL,
				 ts->desc.on_done_arg);
	pthread_mutex_lock(&ts->lock);
	if (ts->done == ts->ran_cap)
	{
		uint64_t cap = ts->ran_cap ? 2 * ts->ran_cap : 1024;
		uint64_t *p = realloc(ts->ran_ids, cap * sizeof(*p));
		STARPU_ASSERT_MSG(p, "out of memory recording finished tasks");
		ts->ran_ids = p;
		ts->ran_cap = cap;
	}
	ts->ran_ids[ts->done++] = r->id;
	ts->t_local_done = _tuccompi_now();
	pthread_cond_broadcast(&ts->cond);
	pthread_mutex_unlock(&ts->lock);
	free(r);
}

static int submit_one(struct tuccompi_taskset *ts, uint64_t id)
{
	struct trec *r = malloc(sizeof(*r));
	if (!r)
		return _tuccompi_error(-ENOMEM, "out of memory submitting task %llu", (unsigned long long)id);
	r->ts = ts;
	r->id = id;
	struct starpu_task *task = starpu_task_create();
	task->cl = &ts->cl;
	task->cl_arg = r;
	task->cl_arg_size = sizeof(*r);
	task->callback_func = task_done;
	task->callback_arg = r;
	task->sched_ctx = ts->ctx;
	task->name = ts->plugin.name;
	if (ts->nbuffers > STARPU_NMAXBUFS)
		task->dyn_handles = malloc(ts->nbuffers * sizeof(starpu_data_handle_t));
	for (unsigned k = 0; k < ts->desc.nshared; k++)
		STARPU_TASK_SET_HANDLE(task, ts->desc.shared[k]->handle, k);
	for (unsigned k = 0; k < ts->plugin.nworkspaces; k++)
		STARPU_TASK_SET_HANDLE(task, ts->workspaces[k], ts->desc.nshared + k);
	pthread_mutex_lock(&ts->lock);
	ts->submitted++;
	pthread_mutex_unlock(&ts->lock);
	int ret = starpu_task_submit(task);
	if (ret < 0)
	{
		pthread_mutex_lock(&ts->lock);
		ts->submitted--;
		pthread_mutex_unlock(&ts->lock);
		task->destroy = 0;
		starpu_task_destroy(task);
		free(r);
		return _tuccompi_error(ret, "starpu_task_submit failed for task %llu of '%s': %s%s", (unsigned long long)id,
				       ts->plugin.name, strerror(-ret),
				       ret == -ENODEV ? " (no unit of this node can run the plug-in)" : "");
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

/* ------------------------------------------------------------------ PARALLEL */

static int check_desc(const struct tuccompi_taskset_desc *d)
{
	const struct tuccompi_plugin *p = d->plugin;
	if (!p)
		return _tuccompi_error(-EINVAL, "tuccompi_parallel: desc->plugin is NULL");
	if (!p->name || !*p->name)
		return _tuccompi_error(-EINVAL, "tuccompi_parallel: the plug-in has no name (set tuccompi_plugin.name)");
	if (!p->cpu && !p->cuda)
		return _tuccompi_error(-EINVAL, "plug-in '%s' has neither a CPU nor a CUDA implementation", p->name);
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
	return 0;
}

/* Tasks each unit of this node takes per request (MS): 1 per CPU core, MK per GPU. */
static uint64_t local_slots(const struct tuccompi_taskset *ts)
{
	uint64_t slots = 0;
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		const struct _tuccompi_unit *u = &_tuccompi.units[k];
		if (u->kind == TUCCOMPI_UNIT_CPU && ts->cl.where & STARPU_CPU)
			slots += 1;
		else if (u->kind == TUCCOMPI_UNIT_CUDA && ts->cl.where & STARPU_CUDA)
			slots += (uint64_t)_tuccompi.mk;
	}
	return slots;
}

/* MS feeder: keep one pack per unit queued here, asking the master for more. */
static void *feeder(void *arg)
{
	struct tuccompi_taskset *ts = arg;
	for (;;)
	{
		pthread_mutex_lock(&ts->lock);
		while (ts->submitted - ts->started >= ts->target)
			pthread_cond_wait(&ts->cond, &ts->lock);
		uint64_t want = ts->target - (ts->submitted - ts->started);
		pthread_mutex_unlock(&ts->lock);

		uint64_t first = 0, count = 0, rest = 0;
		int ret = _tuccompi_ms_request(ts->ms, want, &first, &count, &rest);
		if (ret == 0 && ts->tell_more)
			_tuccompi_sched_set_more(ts->ctx, (unsigned long)rest);
		if (ret == 0)
			for (uint64_t i = 0; i < count && ret == 0; i++)
				ret = submit_one(ts, first + i);
		if (ret < 0 || count == 0)
		{
			/* After a submission error, still tell the master we stop (a request
			 * for nothing is answered with nothing and counts as our stop), so it
			 * does not wait for us; the lost tasks make tuccompi_wait() fail. */
			if (ret < 0 && count != 0)
				_tuccompi_ms_request(ts->ms, 0, &first, &count, &rest);
			pthread_mutex_lock(&ts->lock);
			if (ret < 0)
				ts->submit_error = ret;
			ts->feeding = 0;
			pthread_cond_broadcast(&ts->cond);
			pthread_mutex_unlock(&ts->lock);
			return NULL;
		}
	}
}

int tuccompi_parallel(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc,
		      tuccompi_taskset_t *out)
{
	int ret;
	TUCCOMPI_REQUIRE_INIT();
	if (!policy || !desc || !out)
		return _tuccompi_error(-EINVAL, "tuccompi_parallel: NULL %s", !policy ? "policy" : !desc ? "desc" : "out");
	if ((ret = check_desc(desc)) < 0)
		return ret;
	/* MK may have changed since the last set (SETMK): refresh every rank's view. */
	if ((ret = _tuccompi_comm_exchange_nodes()) < 0)
		return ret;
	if (!policy->dynamic && !policy->partition)
		return _tuccompi_error(-EINVAL, "policy '%s' is neither dynamic nor has a partition rule",
				       policy->name ? policy->name : "?");
	if (policy->dynamic && (policy->master < 0 || policy->master >= _tuccompi.nranks))
		return _tuccompi_error(-EINVAL, "policy '%s': master rank %d out of [0, %d)", policy->name, policy->master,
				       _tuccompi.nranks);

	struct tuccompi_taskset *ts = calloc(1, sizeof(*ts));
	if (!ts)
		return _tuccompi_error(-ENOMEM, "out of memory");
	ts->desc = *desc;
	ts->plugin = *desc->plugin;
	ts->desc.plugin = &ts->plugin;
	ts->policy = policy;
	ts->serial = serial_counter++;
	pthread_mutex_init(&ts->lock, NULL);
	pthread_cond_init(&ts->cond, NULL);

	/* The codelet: CPU and/or CUDA entry, shared buffers read-only, workspaces scratch. */
	starpu_codelet_init(&ts->cl);
	ts->cl.name = ts->plugin.name;
	if (ts->plugin.cpu)
	{
		ts->cl.cpu_funcs[0] = cpu_entry;
		ts->cl.where |= STARPU_CPU;
	}
#ifdef TUCCOMPI_HAVE_CUDA
	if (ts->plugin.cuda)
	{
		ts->cl.cuda_funcs[0] = cuda_entry;
		ts->cl.where |= STARPU_CUDA;
	}
#endif
	if (!ts->cl.where)
	{
		ret = _tuccompi_error(-ENODEV, "plug-in '%s' has only a CUDA implementation and this build has no CUDA",
				      ts->plugin.name);
		goto fail;
	}
	ts->nbuffers = desc->nshared + ts->plugin.nworkspaces;
	ts->cl.nbuffers = (int)ts->nbuffers;
	if (ts->nbuffers > STARPU_NMAXBUFS)
		ts->cl.dyn_modes = malloc(ts->nbuffers * sizeof(enum starpu_data_access_mode));
	for (unsigned k = 0; k < ts->nbuffers; k++)
		STARPU_CODELET_SET_MODE(&ts->cl, k < desc->nshared ? STARPU_R : STARPU_SCRATCH, k);
	if (!(ts->cl.model = model_for(ts->plugin.name)))
	{
		ret = _tuccompi_error(-ENOMEM, "out of memory for a performance model");
		goto fail;
	}
	for (unsigned k = 0; k < ts->plugin.nworkspaces; k++)
		starpu_variable_data_register(&ts->workspaces[k], -1, 0, ts->plugin.workspace_size[k]);

	/* Results land here, indexed by task id; calloc'd pages of tasks run elsewhere
	 * are never touched. */
	if (ts->plugin.result_size)
	{
		if (desc->results && _tuccompi.rank == desc->root)
			ts->local_results = desc->results;
		else
		{
			ts->local_results = calloc(desc->ntasks ? desc->ntasks : 1, ts->plugin.result_size);
			ts->own_local_results = 1;
			if (!ts->local_results)
			{
				ret = _tuccompi_error(-ENOMEM, "out of memory for %llu results",
						      (unsigned long long)desc->ntasks);
				goto fail;
			}
		}
	}

	/* Which unit kinds can run the plug-in, the same view on every rank. */
	struct tuccompi_cluster cluster = {
		.nranks = _tuccompi.nranks,
		.nodes = _tuccompi.nodes,
		.use_cpu = ts->plugin.cpu != NULL,
		.use_cuda = (ts->cl.where & STARPU_CUDA) != 0,
	};
	if ((ret = _tuccompi_sched_ctx(policy, &ts->ctx)) < 0)
		goto fail;
	_tuccompi_bus_counters(NULL, NULL); /* reading them resets them */
	ts->t_start = _tuccompi_now();

	if (!policy->dynamic)
	{
		uint64_t *count = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
		ret = policy->partition(&cluster, desc->ntasks, count, policy->arg);
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
		{
			ret = _tuccompi_error(ret, "policy '%s': its partition rule failed (%s)%s", policy->name, strerror(-ret),
					      ret == -ENODEV ? ": no rank has a unit able to run the plug-in" : "");
			goto fail;
		}
		if (sum != desc->ntasks)
		{
			ret = _tuccompi_error(-EINVAL, "policy '%s': partition gave %llu tasks in all, not %llu", policy->name,
					      (unsigned long long)sum, (unsigned long long)desc->ntasks);
			goto fail;
		}
		for (uint64_t i = 0; i < mine; i++)
			if ((ret = submit_one(ts, first + i)) < 0)
			{
				ts->submit_error = ret;
				break;
			}
	}
	else
	{
		ts->ms = _tuccompi_ms_start(desc->ntasks, policy->master, ts->serial);
		if (!ts->ms)
		{
			ret = _tuccompi_error(-ENOMEM, "cannot start the MS protocol");
			goto fail;
		}
		ts->target = local_slots(ts);
		ts->tell_more = policy->sched && (policy->sched == tuccompi_sched_policy("tuccompi-ms") ||
						  policy->sched == tuccompi_sched_policy("tuccompi-ms-tail"));
		if (_tuccompi.nranks == 1)
		{
			/* One node: every id is this node's; units pull from the queue. */
			uint64_t first, count, rest;
			_tuccompi_ms_request(ts->ms, desc->ntasks, &first, &count, &rest);
			for (uint64_t i = 0; i < count; i++)
				if ((ret = submit_one(ts, first + i)) < 0)
				{
					ts->submit_error = ret;
					break;
				}
		}
		else if (ts->target == 0)
		{
			/* No unit here can run it: a request for nothing is our stop. */
			uint64_t first, count, rest;
			if ((ret = _tuccompi_ms_request(ts->ms, 0, &first, &count, &rest)) < 0)
				goto fail;
		}
		else
		{
			ts->feeding = 1;
			ts->feeder_started = 1;
			if (pthread_create(&ts->feeder, NULL, feeder, ts) != 0)
			{
				ts->feeder_started = 0;
				ts->feeding = 0;
				ret = _tuccompi_error(-EAGAIN, "cannot start the MS feeder thread");
				goto fail;
			}
		}
	}
	*out = ts;
	return 0;
fail:
	/* Nothing was submitted on the failure paths above but a submit error, which
	 * tuccompi_wait reports; free what we made. */
	for (unsigned k = 0; k < ts->plugin.nworkspaces; k++)
		if (ts->workspaces[k])
			starpu_data_unregister_submit(ts->workspaces[k]);
	if (ts->own_local_results)
		free(ts->local_results);
	free(ts->cl.dyn_modes);
	free(ts);
	return ret;
}

/* ------------------------------------------------------------------ SYN */

static int gather_results(struct tuccompi_taskset *ts)
{
	size_t rs = ts->plugin.result_size;
	int n = _tuccompi.nranks, root = ts->desc.root, ret;
	uint64_t *counts = calloc((size_t)n, sizeof(uint64_t));
	ts->tasks_per_rank = calloc((size_t)n, sizeof(uint64_t));
	if ((ret = _tuccompi_comm_allgather_u64(ts->done, counts)) < 0)
		goto out;
	memcpy(ts->tasks_per_rank, counts, (size_t)n * sizeof(uint64_t));
	uint64_t total = 0;
	for (int r = 0; r < n; r++)
		total += counts[r];
	uint64_t *all_ids = NULL;
	uint64_t *bytes = NULL;
	if (_tuccompi.rank == root)
	{
		all_ids = malloc((total ? total : 1) * sizeof(uint64_t));
		bytes = malloc((size_t)n * sizeof(uint64_t));
		for (int r = 0; r < n; r++)
			bytes[r] = counts[r] * sizeof(uint64_t);
	}
	if ((ret = _tuccompi_comm_gatherv(ts->ran_ids, ts->done * sizeof(uint64_t), all_ids, bytes, root)) < 0)
		goto out2;
	if (_tuccompi.rank == root)
	{
		ts->task_rank = malloc((ts->desc.ntasks ? ts->desc.ntasks : 1) * sizeof(int));
		for (uint64_t i = 0; i < ts->desc.ntasks; i++)
			ts->task_rank[i] = -1;
		uint64_t k = 0;
		for (int r = 0; r < n; r++)
			for (uint64_t i = 0; i < counts[r]; i++, k++)
			{
				if (all_ids[k] >= ts->desc.ntasks || ts->task_rank[all_ids[k]] != -1)
				{
					ret = _tuccompi_error(-EPROTO, "task %llu reported twice or out of range (rank %d)",
							      (unsigned long long)all_ids[k], r);
					goto out2;
				}
				ts->task_rank[all_ids[k]] = r;
			}
	}
	/* Collective whenever there are results: only the root's desc.results matters (the
	 * other ranks may pass NULL), so no rank may decide from its own. */
	if (rs && _tuccompi.mpi_active && n > 1)
	{
		/* Pack this rank's results in completion order, gather, place by id. */
		unsigned char *pack = NULL, *recv = NULL;
		if (_tuccompi.rank != root)
		{
			pack = malloc(ts->done ? ts->done * rs : 1);
			for (uint64_t i = 0; i < ts->done; i++)
				memcpy(pack + i * rs, ts->local_results + ts->ran_ids[i] * rs, rs);
		}
		if (_tuccompi.rank == root)
		{
			recv = malloc(total ? total * rs : 1);
			for (int r = 0; r < n; r++)
				bytes[r] = r == root ? 0 : counts[r] * rs;
		}
		ret = _tuccompi_comm_gatherv(pack, _tuccompi.rank == root ? 0 : ts->done * rs, recv, bytes, root);
		if (ret == 0 && _tuccompi.rank == root && ts->desc.results)
		{
			uint64_t k = 0, off = 0;
			for (int r = 0; r < n; r++)
				for (uint64_t i = 0; i < counts[r]; i++, k++)
					if (r != root)
					{
						memcpy((unsigned char *)ts->desc.results + all_ids[k] * rs, recv + off * rs, rs);
						off++;
					}
		}
		free(pack);
		free(recv);
	}
out2:
	free(all_ids);
	free(bytes);
out:
	free(counts);
	return ret;
}

static int gather_unit_stats(struct tuccompi_taskset *ts)
{
	int n = _tuccompi.nranks, ret;
	int nu = _tuccompi.nunits;
	struct tuccompi_unit_stats *mine = calloc((size_t)(nu ? nu : 1), sizeof(*mine));
	for (int k = 0; k < nu; k++)
	{
		const struct _tuccompi_unit *u = &_tuccompi.units[k];
		mine[k].rank = _tuccompi.rank;
		mine[k].kind = u->kind;
		mine[k].index = u->index;
		for (int i = 0; i < u->nworkers; i++)
		{
			mine[k].ntasks += atomic_load(&ts->worker_ntasks[u->workers[i]]);
			mine[k].busy_s += 1e-9 * (double)atomic_load(&ts->worker_busy_ns[u->workers[i]]);
		}
	}
	uint64_t *nus = calloc((size_t)n, sizeof(uint64_t));
	if ((ret = _tuccompi_comm_allgather_u64((uint64_t)nu, nus)) < 0)
		goto out;
	uint64_t total = 0;
	for (int r = 0; r < n; r++)
		total += nus[r];
	ts->all_units = calloc(total ? total : 1, sizeof(*mine));
	ts->nall_units = (int)total;
	/* Everybody gets everything: gather on each rank in turn is n gathers; the
	 * counts are tiny, so do a gather on rank 0 and share it. */
	uint64_t *bytes = malloc((size_t)n * sizeof(uint64_t));
	for (int r = 0; r < n; r++)
		bytes[r] = nus[r] * sizeof(*mine);
	ret = _tuccompi_comm_gatherv(mine, (uint64_t)nu * sizeof(*mine), ts->all_units, bytes, 0);
#ifdef TUCCOMPI_HAVE_MPI
	if (ret == 0 && _tuccompi.mpi_active && n > 1)
		ret = MPI_Bcast(ts->all_units, (int)(total * sizeof(*mine)), MPI_BYTE, 0, _tuccompi.comm) == MPI_SUCCESS
			      ? 0
			      : _tuccompi_error(-EIO, "MPI_Bcast of unit statistics failed");
#endif
	free(bytes);
out:
	free(nus);
	free(mine);
	return ret;
}

/* Every rank learns every rank's wall, communication and transfer numbers. */
static int share_rank_numbers(struct tuccompi_taskset *ts)
{
	int n = _tuccompi.nranks, ret = 0;
	uint64_t *tmp = calloc((size_t)n, sizeof(uint64_t));
	ts->wall_per_rank = calloc((size_t)n, sizeof(double));
	ts->comm_per_rank = calloc((size_t)n, sizeof(double));
	ts->xfer_s_per_rank = calloc((size_t)n, sizeof(double));
	ts->wait_per_rank = calloc((size_t)n, sizeof(double));
	ts->xfer_bytes_per_rank = calloc((size_t)n, sizeof(uint64_t));
	double mine[4] = { ts->t_end - ts->t_start, ts->comm_s, ts->xfer_s, ts->wait_s };
	double *dst[4] = { ts->wall_per_rank, ts->comm_per_rank, ts->xfer_s_per_rank, ts->wait_per_rank };
	for (int k = 0; k < 4 && ret == 0; k++)
	{
		uint64_t bits;
		memcpy(&bits, &mine[k], sizeof(bits));
		ret = _tuccompi_comm_allgather_u64(bits, tmp);
		for (int r = 0; r < n && ret == 0; r++)
			memcpy(&dst[k][r], &tmp[r], sizeof(double));
	}
	if (ret == 0)
		ret = _tuccompi_comm_allgather_u64(ts->xfer_bytes, ts->xfer_bytes_per_rank);
	free(tmp);
	return ret;
}

int tuccompi_wait(tuccompi_taskset_t ts)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!ts)
		return _tuccompi_error(-EINVAL, "tuccompi_wait: NULL task set");
	if (ts->waited)
		return 0;
	/* 1. every task given to this rank has run */
	pthread_mutex_lock(&ts->lock);
	while (ts->feeding || ts->done < ts->submitted)
		pthread_cond_wait(&ts->cond, &ts->lock);
	pthread_mutex_unlock(&ts->lock);
	if (ts->feeder_started)
		pthread_join(ts->feeder, NULL);
	if (ts->ms)
		_tuccompi_ms_finish(ts->ms, &ts->comm_s, &ts->nrequests);
	ts->ms = NULL;
	for (unsigned k = 0; k < ts->plugin.nworkspaces; k++)
		starpu_data_unregister_submit(ts->workspaces[k]);
	ts->plugin.nworkspaces = 0;

	_tuccompi_bus_counters(&ts->xfer_bytes, &ts->xfer_s);

	/* 2. results and counts to the root, statistics to everybody; the barrier first, so
	 * that waiting for the slowest rank is not counted as communication */
	double tw = _tuccompi_now();
	_tuccompi_comm_barrier();
	double t0 = _tuccompi_now();
	ts->wait_s = t0 - tw;
	int ret = gather_results(ts);
	if (ret == 0)
		ret = gather_unit_stats(ts);
	if (_tuccompi.mpi_active && _tuccompi.nranks > 1)
		ts->comm_s += _tuccompi_now() - t0;
	ts->t_end = _tuccompi_now();
	if (ret == 0)
		ret = share_rank_numbers(ts);
	ts->waited = 1;

	/* 3. a submission failure on any rank fails the whole set */
	uint64_t *errs = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
	int r2 = _tuccompi_comm_allgather_u64((uint64_t)(int64_t)ts->submit_error, errs);
	for (int r = 0; r < _tuccompi.nranks && r2 == 0 && ret == 0; r++)
		if (errs[r])
			ret = r == _tuccompi.rank ? ts->submit_error
						  : _tuccompi_error(-EIO, "rank %d could not submit its tasks", r);
	free(errs);
	if (ret == 0 && ts->submit_error)
		ret = ts->submit_error;
	if (ret == 0 && _tuccompi.rank == ts->desc.root)
	{
		uint64_t total = 0;
		for (int r = 0; r < _tuccompi.nranks; r++)
			total += ts->tasks_per_rank[r];
		if (total != ts->desc.ntasks)
			ret = _tuccompi_error(-EPROTO, "task set '%s': %llu of %llu tasks ran", ts->plugin.name,
					      (unsigned long long)total, (unsigned long long)ts->desc.ntasks);
	}
	return ret ? ret : r2;
}

void tuccompi_taskset_destroy(tuccompi_taskset_t ts)
{
	if (!ts)
		return;
	if (!ts->waited && _tuccompi.initialized)
		tuccompi_wait(ts);
	if (ts->own_local_results)
		free(ts->local_results);
	free(ts->cl.dyn_modes);
	free(ts->ran_ids);
	free(ts->all_units);
	free(ts->tasks_per_rank);
	free(ts->wall_per_rank);
	free(ts->comm_per_rank);
	free(ts->xfer_s_per_rank);
	free(ts->wait_per_rank);
	free(ts->xfer_bytes_per_rank);
	free(ts->task_rank);
	pthread_mutex_destroy(&ts->lock);
	pthread_cond_destroy(&ts->cond);
	free(ts);
}

int tuccompi_taskset_get_stats(tuccompi_taskset_t ts, struct tuccompi_taskset_stats *st)
{
	if (!ts || !st)
		return _tuccompi_error(-EINVAL, "tuccompi_taskset_get_stats: NULL argument");
	if (!ts->waited)
		return _tuccompi_error(-EBUSY, "tuccompi_taskset_get_stats: call tuccompi_wait() first");
	st->ntasks = ts->desc.ntasks;
	st->wall_s = ts->t_end - ts->t_start;
	st->local_s = ts->done ? ts->t_local_done - ts->t_start : 0;
	st->comm_s = ts->comm_s;
	st->nrequests = ts->nrequests;
	st->nunits = ts->nall_units;
	st->units = ts->all_units;
	st->tasks_per_rank = ts->tasks_per_rank;
	st->wall_s_per_rank = ts->wall_per_rank;
	st->comm_s_per_rank = ts->comm_per_rank;
	st->transfer_bytes_per_rank = ts->xfer_bytes_per_rank;
	st->transfer_s_per_rank = ts->xfer_s_per_rank;
	st->wait_s_per_rank = ts->wait_per_rank;
	return 0;
}

int tuccompi_taskset_task_rank(tuccompi_taskset_t ts, uint64_t id)
{
	if (!ts || !ts->task_rank || id >= ts->desc.ntasks)
		return -1;
	return ts->task_rank[id];
}
