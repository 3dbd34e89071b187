/* The simulated build only (TUCCOMPI_SIMGRID; included by plugin.c): how a job runs when StarPU
 * simulates the node on SimGrid (docs/simulation.md).
 *
 * The codelet carries STARPU_CODELET_SIMGRID_EXECUTE, so StarPU calls its entry on the simulated
 * worker; the entry does the job's bookkeeping as in the real build (a token takes its tasks,
 * results recorded, tokens topped up) and, unless TUCCOMPI_SIM_COMPUTE=0, computes the results
 * with the plug-in's CPU code (real time, which SimGrid does not count); then, still inside the
 * job's code (so that jobs.c times the job and counts its tasks once its time is spent, as in the
 * real build), the worker's actor sleeps the simulated duration: the codelet's model (lib/plugin.c model_for: history per batch
 * size, else the a*n^b+c fit) for this worker's kind and the job's size.
 *
 * Simulated GPUs: StarPU simulates CUDA workers without CUDA. A plug-in with a CPU
 * implementation and no CUDA one (this build has no CUDA) gets a simulated GPU implementation:
 * batches of TUCCOMPI_SIM_GPU_BATCH tasks (default: the CPU batch's largest, else 64 without
 * computing), computed by the CPU code on the shared buffers' main-memory copies and fresh
 * workspaces (a simulated GPU's memory holds nothing). */
#include <math.h>

static int sim_compute = -1;

static int sim_computes(void)
{
	if (sim_compute < 0)
		sim_compute = _tuccompi_env_flag("TUCCOMPI_SIM_COMPUTE", 1);
	return sim_compute;
}

static void sim_spend(struct _tuccompi_job *job);

/* The CPU implementations of the simulated build: the plug-in's code (unless TUCCOMPI_SIM_COMPUTE=0),
 * then the job's simulated time, inside the job's code, so that jobs.c times the job (and counts
 * its tasks once that time is spent) as in the real build. */
static void sim_cpu_batch(struct tuccompi_batch *b, void *arg)
{
	struct tuccompi_taskset *ts = b->job->ts;
	if (ts->sim_cpu_batch)
		ts->sim_cpu_batch(b, arg);
	sim_spend(b->job);
}

static void sim_cpu_task(struct tuccompi_task *t, void *arg)
{
	struct tuccompi_taskset *ts = t->ts;
	if (ts->sim_cpu)
		ts->sim_cpu(t, arg);
	if (t == &t->job->tasks[t->job->n - 1]) /* a job's tasks run in order: its time once */
		sim_spend(t->job);
}

/* The GPU implementation of the simulated build: the plug-in's CPU code, then the job's time. */
static void sim_gpu_batch(struct tuccompi_batch *b, void *arg)
{
	struct tuccompi_taskset *ts = b->job->ts;
	if (ts->sim_cpu_batch)
		ts->sim_cpu_batch(b, arg);
	else if (ts->sim_cpu)
		for (unsigned i = 0; i < b->job->n && !b->job->fail; i++)
			ts->sim_cpu(&b->job->tasks[i], arg);
	sim_spend(b->job);
}

static void sim_cuda_entry(void *buffers[], void *cl_arg);

static void _tuccompi_sim_codelet(struct tuccompi_taskset *ts)
{
	struct tuccompi_plugin *p = &ts->plugin;
	ts->cl.flags |= STARPU_CODELET_SIMGRID_EXECUTE;
	unsigned gpu_batch = p->cpu_batch ? p->batch_max[TUCCOMPI_UNIT_CPU] : 1;
	/* timings only without computing: nothing runs, results left as they are (zeros) */
	int compute = sim_computes();
	ts->sim_cpu = compute ? p->cpu : NULL;
	ts->sim_cpu_batch = compute ? p->cpu_batch : NULL;
	if (!compute && !p->cpu_batch)
		gpu_batch = 64;
	int has_cpu = p->cpu || p->cpu_batch;
	if (p->cpu_batch)
		p->cpu_batch = sim_cpu_batch;
	if (p->cpu)
		p->cpu = sim_cpu_task;
	double gb;
	if (_tuccompi_env_number("TUCCOMPI_SIM_GPU_BATCH", 0, 1, TUCCOMPI_MAX_BATCH, &gb) == 0 && gb >= 1)
		gpu_batch = (unsigned)gb;
	if (gpu_batch > TUCCOMPI_MAX_BATCH)
		gpu_batch = TUCCOMPI_MAX_BATCH;
	if (has_cpu && !p->cuda && !p->cuda_batch && !_tuccompi_env_flag("TUCCOMPI_SIM_NO_GPU", 0))
	{
		p->cuda_batch = sim_gpu_batch;
		p->batch_max[TUCCOMPI_UNIT_CUDA] = gpu_batch;
		ts->cl.cuda_funcs[0] = sim_cuda_entry;
		ts->cl.where |= STARPU_CUDA;
	}
}

/* The largest job size the history of @pa holds (its entry's size: tasks per job, lib/plugin.c
 * job_size) and that entry's mean, in us; 0 when it holds none. */
static unsigned sim_largest_entry(const struct starpu_perfmodel_per_arch *pa, double *mean)
{
	unsigned size = 0;
	for (const struct starpu_perfmodel_history_list *l = pa ? pa->list : NULL; l; l = l->next)
		if (l->entry && l->entry->nsample && l->entry->mean > 0 && l->entry->size > size)
		{
			size = (unsigned)l->entry->size;
			*mean = l->entry->mean;
		}
	return size;
}

/* The simulated duration of @job on this worker, in us: the codelet's model for the job's size.
 * A job larger than every recorded one runs as that many recorded jobs one after another (an
 * engine runs a job in passes of its batch: a CPU core one source at a time, a GPU 64 or 256
 * lanes): EQ1 and EQ2 bind jobs of the largest unit's batch to every unit, so a CPU core's job
 * of 64 sources costs 64 of its one-source jobs, not one (the fit below, made over the sizes
 * seen, says nothing past them: over CPU jobs of one task it is flat). */
static double sim_length(struct _tuccompi_job *job)
{
	struct starpu_task *task = starpu_task_get_current();
	struct starpu_perfmodel *model = job->ts->cl.model;
	if (!task || !model)
		return NAN;
	struct starpu_perfmodel_arch *arch = starpu_worker_get_perf_archtype(job->worker, task->sched_ctx);
	double t = starpu_perfmodel_history_based_expected_perf(model, arch, starpu_hash_crc32c_be(job->n, 0));
	if (!isnan(t) && t > 0)
		return t;
	struct starpu_perfmodel_per_arch *pa = starpu_perfmodel_get_model_per_arch(model, arch, 0);
	double mean = 0;
	unsigned largest = sim_largest_entry(pa, &mean);
	if (largest && job->n > largest)
		return mean * job->n / largest;
	if (pa && pa->regression.nl_valid)
		t = pa->regression.a * pow((double)job->n, pa->regression.b) + pa->regression.c;
	else if (pa && pa->regression.valid)
		t = pa->regression.alpha * pow((double)job->n, pa->regression.beta);
	/* the footprint of a job that takes its tasks when it starts (not bound at submission) is
	 * computed before it has any (n = 0, footprint 0) in the real build: then all its sizes
	 * share that entry (right where every job of this kind of unit had the same size) */
	if (isnan(t) || t <= 0)
		t = starpu_perfmodel_history_based_expected_perf(model, arch, 0);
	return t;
}

/* The job's simulated time on this worker: the model's (sim_length), slept by the worker's actor. */
static void sim_spend(struct _tuccompi_job *job)
{
	if (job->n == 0 || job->fail || job->moved)
		return;
	double t = sim_length(job);
	if (isnan(t) || t <= 0)
	{
		char arch[64] = "?";
		struct starpu_task *task = starpu_task_get_current();
		if (task)
			starpu_perfmodel_get_arch_name(starpu_worker_get_perf_archtype(job->worker, task->sched_ctx), arch,
						       sizeof(arch), 0);
		/* no unit could time it better: the set fails (every rank is told at SYN) */
		_tuccompi_ts_fail(job->ts, -ENOENT,
				  "simulation: no model of '%s' for %s and %u task(s) per job: calibrate on the node "
				  "(scripts/gpu-node.sh calibrate) or derive one (simulation/README.md); STARPU_HOSTNAME=%s, "
				  "STARPU_PERF_MODEL_DIR=%s",
				  job->ts->cl.model ? job->ts->cl.model->symbol : "?", arch, job->n,
				  getenv("STARPU_HOSTNAME") ? getenv("STARPU_HOSTNAME") : "(unset)",
				  getenv("STARPU_PERF_MODEL_DIR") ? getenv("STARPU_PERF_MODEL_DIR") : "(unset)");
		return;
	}
	starpu_usleep((float)t);
}

static void sim_run(void *buffers[], struct _tuccompi_job *job, enum tuccompi_unit_kind kind)
{
	_tuccompi_job_run(buffers, job, kind);
}

static void sim_cuda_entry(void *buffers[], void *cl_arg)
{
	struct _tuccompi_job *job = cl_arg;
	struct tuccompi_taskset *ts = job->ts;
	unsigned nb = ts->nbuffers;
	if (!sim_computes())
	{
		sim_run(buffers, job, TUCCOMPI_UNIT_CUDA);
		return;
	}
	/* the CPU code reads main memory: the shared buffers' own copies, fresh workspaces */
	struct starpu_task *task = starpu_task_get_current();
	struct starpu_variable_interface *v = calloc(nb ? nb : 1, sizeof(*v));
	void **b = calloc(nb ? nb : 1, sizeof(*b));
	if (!v || !b)
	{
		free(v);
		free(b);
		/* the set fails; the job still ends as every job of a failed set does (it runs nothing) */
		_tuccompi_ts_fail(ts, -ENOMEM, "simulation: out of memory for a simulated GPU job of '%s'", ts->plugin.name);
		sim_run(buffers, job, TUCCOMPI_UNIT_CUDA);
		return;
	}
	for (unsigned k = 0; k < nb; k++)
	{
		starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, k);
		v[k] = *(struct starpu_variable_interface *)buffers[k];
		v[k].elemsize = starpu_variable_get_elemsize(h);
		if (k < ts->desc.nshared)
			v[k].ptr = (uintptr_t)starpu_data_handle_to_pointer(h, STARPU_MAIN_RAM);
		else
			v[k].ptr = (uintptr_t)calloc(1, v[k].elemsize ? v[k].elemsize : 1);
		v[k].dev_handle = v[k].ptr;
		v[k].offset = 0;
		b[k] = &v[k];
	}
	sim_run(b, job, TUCCOMPI_UNIT_CUDA);
	for (unsigned k = ts->desc.nshared; k < nb; k++)
		free((void *)v[k].ptr);
	free(v);
	free(b);
}
