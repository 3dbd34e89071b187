/* A task set's reduction (tuccompi_taskset_desc::reduce): one partial buffer per StarPU worker,
 * made when the worker's first task asks for it (host memory on a CPU core, device memory on a
 * CUDA worker); at SYN each rank combines its workers' partials in worker order, then the ranks'
 * partials are combined in rank order up a binomial tree (through the 1st layer, as part of
 * tuccompi_wait(): comm.c), and the root sends the result back when every rank wants it. A job that asked for its buffer cannot be undone: if it fails,
 * the set fails (jobs.c's job_requeue, which sees job->reduced). */
#include "link.h"
#include "taskset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TUCCOMPI_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

struct _tuccompi_red
{
	void *part[STARPU_NMAXWORKERS]; /* per worker, NULL until its first task asks */
	int dev[STARPU_NMAXWORKERS];    /* -1: host memory; else the CUDA device holding it */
};

/* ------------------------------------------------------------------ the built-in combinations */

void tuccompi_reduce_sum_f64(void *into, const void *from, size_t size, void *arg)
{
	(void)arg;
	double *a = into;
	const double *b = from;
	for (size_t i = 0; i < size / sizeof(double); i++)
		a[i] += b[i];
}

void tuccompi_reduce_sum_i64(void *into, const void *from, size_t size, void *arg)
{
	(void)arg;
	uint64_t *a = into; /* unsigned: wraps around instead of overflowing */
	const uint64_t *b = from;
	for (size_t i = 0; i < size / sizeof(uint64_t); i++)
		a[i] += b[i];
}

void tuccompi_reduce_sum_exact(void *into, const void *from, size_t size, void *arg)
{
	(void)arg;
	struct tuccompi_exact *a = into;
	const struct tuccompi_exact *b = from;
	for (size_t i = 0; i < size / sizeof(*a); i++)
		tuccompi_exact_combine(&a[i], &b[i]);
}

/* ------------------------------------------------------------------ PARALLEL */

int _tuccompi_reduce_check(const struct tuccompi_taskset_desc *d)
{
	const struct tuccompi_reduce *r = &d->reduce;
	if (!r->size)
		return 0;
	const char *name = d->plugin->name;
	if (!r->combine)
		return _tuccompi_error(-EINVAL, "task set '%s': a reduction of %zu bytes without a combine function (set "
					       "desc.reduce.combine, e.g. tuccompi_reduce_sum_f64)",
				       name, r->size);
	if (d->journal)
		return _tuccompi_error(-EINVAL, "task set '%s': a reduction cannot be resumed from a journal (the journal "
					       "holds each task's result, not its share of the sums); drop desc.journal",
				       name);
	return 0;
}

static void init_buffer(const struct tuccompi_reduce *r, void *buf)
{
	if (r->init)
		r->init(buf, r->size, r->arg);
	else
		memset(buf, 0, r->size);
}

int _tuccompi_reduce_start(struct tuccompi_taskset *ts)
{
	if (!ts->desc.reduce.size)
		return 0;
	if (!(ts->red = calloc(1, sizeof(*ts->red))))
		return _tuccompi_error(-ENOMEM, "out of memory");
	for (int w = 0; w < STARPU_NMAXWORKERS; w++)
		ts->red->dev[w] = -1;
	return 0;
}

/* ------------------------------------------------------------------ the tasks */

#ifdef TUCCOMPI_HAVE_CUDA
/* The calling CUDA worker's partial, on its device, started from init (copied from the host on
 * the worker's stream, before any kernel of the task). */
static void *device_part(const struct tuccompi_reduce *r, int *dev)
{
	void *host = malloc(r->size), *d = NULL;
	if (!host)
	{
		_tuccompi_error(-ENOMEM, "out of memory for a reduction buffer of %zu bytes", r->size);
		return NULL;
	}
	init_buffer(r, host);
	cudaStream_t s = starpu_cuda_get_local_stream();
	cudaError_t e = cudaGetDevice(dev);
	if (e == cudaSuccess)
		e = cudaMalloc(&d, r->size);
	if (e == cudaSuccess)
		e = cudaMemcpyAsync(d, host, r->size, cudaMemcpyHostToDevice, s);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(s);
	free(host);
	if (e != cudaSuccess)
	{
		if (d)
			cudaFree(d);
		cudaGetLastError();
		_tuccompi_error(-ENOMEM, "no device memory for a reduction buffer of %zu bytes: %s", r->size,
				cudaGetErrorString(e));
		return NULL;
	}
	return d;
}
#endif

void *tuccompi_task_reduce_buffer(struct tuccompi_task *t)
{
	struct tuccompi_taskset *ts = t ? t->ts : NULL;
	if (!ts || !ts->red)
	{
		_tuccompi_error(-EINVAL, "tuccompi_task_reduce_buffer: %s", t ? "the task set has no reduction (desc.reduce)"
									  : "NULL task");
		return NULL;
	}
	struct _tuccompi_red *red = ts->red;
	int w = t->worker;
	if (w < 0 || w >= STARPU_NMAXWORKERS)
	{
		_tuccompi_error(-EINVAL, "tuccompi_task_reduce_buffer: called outside a task");
		return NULL;
	}
	t->job->reduced = 1;
	if (red->part[w]) /* only this worker touches its slot; SYN reads it after every job ended */
		return red->part[w];
	const struct tuccompi_reduce *r = &ts->desc.reduce;
	void *p = NULL;
#ifdef TUCCOMPI_HAVE_CUDA
	if (t->kind == TUCCOMPI_UNIT_CUDA)
		p = device_part(r, &red->dev[w]);
	else
#endif
	{
		if ((p = malloc(r->size)))
			init_buffer(r, p);
		else
			_tuccompi_error(-ENOMEM, "out of memory for a reduction buffer of %zu bytes", r->size);
	}
	red->part[w] = p;
	return p;
}

/* ------------------------------------------------------------------ SYN */

static void free_parts(struct _tuccompi_red *red)
{
	for (int w = 0; w < STARPU_NMAXWORKERS; w++)
	{
		if (!red->part[w])
			continue;
#ifdef TUCCOMPI_HAVE_CUDA
		if (red->dev[w] >= 0)
		{
			int cur = -1;
			cudaGetDevice(&cur);
			cudaSetDevice(red->dev[w]);
			cudaFree(red->part[w]);
			if (cur >= 0)
				cudaSetDevice(cur);
		}
		else
#endif
			free(red->part[w]);
		red->part[w] = NULL;
	}
}

/* This rank's partial: the workers' in worker order (a device's copied back first). */
static int combine_local(struct tuccompi_taskset *ts, unsigned char *mine)
{
	const struct tuccompi_reduce *r = &ts->desc.reduce;
	struct _tuccompi_red *red = ts->red;
	unsigned char *tmp = NULL;
	int ret = 0;
	init_buffer(r, mine);
	for (int w = 0; w < STARPU_NMAXWORKERS && ret == 0; w++)
	{
		const void *from = red->part[w];
		if (!from)
			continue;
#ifdef TUCCOMPI_HAVE_CUDA
		if (red->dev[w] >= 0)
		{
			if (!tmp && !(tmp = malloc(r->size)))
			{
				ret = _tuccompi_error(-ENOMEM, "out of memory at SYN for a reduction buffer of %zu bytes", r->size);
				break;
			}
			int cur = -1;
			cudaGetDevice(&cur);
			cudaError_t e = cudaSetDevice(red->dev[w]);
			if (e == cudaSuccess)
				e = cudaMemcpy(tmp, from, r->size, cudaMemcpyDeviceToHost);
			if (cur >= 0)
				cudaSetDevice(cur);
			if (e != cudaSuccess)
			{
				cudaGetLastError();
				ret = _tuccompi_error(-EIO, "task set '%s': reading the reduction buffer of GPU %d back: %s",
						      ts->plugin.name, red->dev[w], cudaGetErrorString(e));
				break;
			}
			from = tmp;
		}
#endif
		r->combine(mine, from, r->size, r->arg);
	}
	free(tmp);
	free_parts(red);
	return ret;
}

int _tuccompi_reduce_finish(struct tuccompi_taskset *ts)
{
	const struct tuccompi_reduce *r = &ts->desc.reduce;
	int n = _tuccompi.nranks, me = _tuccompi.rank, root = ts->desc.root;
	unsigned char *mine = malloc(r->size);
	int status = mine ? combine_local(ts, mine)
			  : _tuccompi_error(-ENOMEM, "out of memory at SYN for a reduction buffer of %zu bytes", r->size);
	if (!mine)
		free_parts(ts->red);
	if (n == 1 || !_tuccompi_link_on())
	{
		if (status == 0 && r->result)
			memcpy(r->result, mine, r->size);
		free(mine);
		return status;
	}
	char msg[TUCCOMPI_LINK_MSG];
	snprintf(msg, sizeof(msg), "%s", status < 0 ? tuccompi_last_error() : "");
	struct _tuccompi_coll c = { .op = TUCCOMPI_COLL_SYN, .serial = ts->serial, .root = root, .status = status, .msg = msg };
	/* every rank's partial reduced up a tree (one partial in hand per rank, log2(n) steps), not
	 * gathered: n partials of a large vector do not fit the root */
	unsigned char tiny[8];
	unsigned char *buf = mine ? mine : tiny;
	struct _tuccompi_coll v = c;
	char vmsg[TUCCOMPI_LINK_MSG + 64] = "";
	int ret = _tuccompi_coll_reduce(&c, buf, mine ? r->size : 0, r->combine, r->arg, &v.status, vmsg, sizeof(vmsg));
	if (ret < 0) /* the layer stopped: every rank hears of it */
	{
		free(mine);
		return ret;
	}
	v.msg = vmsg;
	if (me == root && v.status == 0 && r->result)
		memcpy(r->result, mine, r->size);
	void *got = NULL;
	size_t got_len = 0;
	int send = me == root && v.status == 0 && r->everywhere;
	ret = _tuccompi_coll_bcast(&v, send ? mine : NULL, send ? r->size : 0, &got, &got_len);
	if (ret == 0 && me != root && r->everywhere)
	{
		if (got_len != r->size)
			ret = _tuccompi_error(-EPROTO, "task set '%s': the root sent %zu bytes of reduction, %zu expected",
					      ts->plugin.name, got_len, r->size);
		else if (r->result)
			memcpy(r->result, got, r->size);
	}
	free(got);
	free(mine);
	return ret;
}

void _tuccompi_reduce_free(struct tuccompi_taskset *ts)
{
	if (!ts->red)
		return;
	free_parts(ts->red);
	free(ts->red);
	ts->red = NULL;
}
