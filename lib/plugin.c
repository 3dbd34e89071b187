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

/* ------------------------------------------------------------------ the codelet's entries */

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
	if (job && __atomic_load_n(&job->ts->fail.err, __ATOMIC_RELAXED))
		return 1;
	int u = _tuccompi.worker_unit[workerid];
	if (u < 0 || !__atomic_load_n(&_tuccompi.unit_failed[u], __ATOMIC_RELAXED))
		return 1;
	return job && !_tuccompi_someone_left(job->ts);
}

#ifdef TUCCOMPI_SIMGRID
static void sim_run(void *buffers[], struct _tuccompi_job *job, enum tuccompi_unit_kind kind);
#endif

void _tuccompi_cpu_entry(void *buffers[], void *cl_arg)
{
#ifdef TUCCOMPI_SIMGRID
	sim_run(buffers, cl_arg, TUCCOMPI_UNIT_CPU);
	return;
#endif
	_tuccompi_job_run(buffers, cl_arg, TUCCOMPI_UNIT_CPU);
}

#ifdef TUCCOMPI_HAVE_CUDA
void _tuccompi_cuda_entry(void *buffers[], void *cl_arg)
{
	_tuccompi_job_run(buffers, cl_arg, TUCCOMPI_UNIT_CUDA);
}
#endif
#ifdef TUCCOMPI_SIMGRID
#include "sim_entry.c"
#endif

/* ------------------------------------------------------------------ shared data */

int tuccompi_shared_register(tuccompi_shared_t *out, const void *ptr, size_t size)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!out || (!ptr && size))
		return _tuccompi_error(-EINVAL, "tuccompi_shared_register: NULL %s", out ? "pointer" : "output");
	struct tuccompi_shared *s = calloc(1, sizeof(*s));
	if (!s)
		return _tuccompi_error(-ENOMEM, "out of memory");
	int ret = _tuccompi_shared_pin(s, ptr, size);
	if (ret < 0)
	{
		free(s);
		return ret;
	}
	starpu_variable_data_register(&s->handle, STARPU_MAIN_RAM, (uintptr_t)ptr, size);
	*out = s;
	return 0;
}

int tuccompi_shared_unregister(tuccompi_shared_t s)
{
	if (!s)
		return 0;
	starpu_data_unregister(s->handle);
	_tuccompi_shared_unpin(s);
	free(s);
	return 0;
}

/* ------------------------------------------------------------------ performance models */

/* One history-based model per plug-in name, kept until StarPU stops (StarPU holds on
 * to registered models until starpu_shutdown), so that dmda & co learn across sets. */
/* One entry per plug-in name: its model, and the code it was first seen with (a name is one
 * plug-in: its model and tuning records would mix two otherwise). */
struct model_entry
{
	struct starpu_perfmodel model;
	char symbol[128];
	void (*code[4])(void); /* cpu, cuda, cpu_batch, cuda_batch as first seen (NULL: none yet) */
	struct model_entry *next;
};
static struct model_entry *models;
static pthread_mutex_t models_lock = PTHREAD_MUTEX_INITIALIZER;

/* A job's model is kept per number of tasks in it (a batch of 64 sources is not a batch of 1):
 * the footprint is that number, and the regression's size too (STARPU_NL_REGRESSION_BASED keeps
 * the history per footprint and fits a*n^b+c over it, used for batch sizes never measured; the
 * simulated build, docs/simulation.md, needs a time for every batch size it meets). */
static uint32_t job_footprint(struct starpu_task *task)
{
	const struct _tuccompi_job *job = task->cl_arg;
	uint32_t n = job ? job->n : 1;
	return starpu_hash_crc32c_be(n, 0);
}

static size_t job_size(struct starpu_task *task, unsigned nimpl)
{
	(void)nimpl;
	const struct _tuccompi_job *job = task->cl_arg;
	return job ? job->n : 1;
}

static int model_for(const struct tuccompi_plugin *p, struct starpu_perfmodel **out)
{
	void (*code[4])(void) = { (void (*)(void))p->cpu, (void (*)(void))p->cuda, (void (*)(void))p->cpu_batch,
				  (void (*)(void))p->cuda_batch };
	int ret = 0;
	pthread_mutex_lock(&models_lock);
	struct model_entry *e;
	for (e = models; e; e = e->next)
		if (strcmp(e->symbol + strlen("tuccompi_"), p->name) == 0)
			break;
	if (!e && (e = calloc(1, sizeof(*e))))
	{
		snprintf(e->symbol, sizeof(e->symbol), "tuccompi_%s", p->name);
		e->model.type = STARPU_NL_REGRESSION_BASED;
		e->model.symbol = e->symbol;
		e->model.footprint = job_footprint;
		e->model.size_base = job_size;
		e->next = models;
		models = e;
	}
	for (int k = 0; e && k < 4 && ret == 0; k++)
		if (code[k] && e->code[k] && code[k] != e->code[k])
			ret = _tuccompi_error(-EINVAL,
					      "plug-in name '%s' is already used by a plug-in with other code (its performance "
					      "model and tuning records are kept by name): give each plug-in a name of its own",
					      p->name);
		else if (code[k])
			e->code[k] = code[k];
	pthread_mutex_unlock(&models_lock);
	if (!e)
		return _tuccompi_error(-ENOMEM, "out of memory");
	*out = &e->model;
	return ret;
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
#ifdef TUCCOMPI_SIMGRID
	_tuccompi_sim_codelet(ts);
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
	int ret = model_for(&ts->plugin, &ts->cl.model);
	if (ret < 0)
		return ret;
	for (unsigned k = 0; k < ts->nworkspaces; k++)
		starpu_variable_data_register(&ts->workspaces[k], -1, 0, ts->plugin.workspace_size[k]);
	return 0;
}
