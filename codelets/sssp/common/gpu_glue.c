/* The engines' GPU batch glue (gpu_glue.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffers.h"
#include "common/gpu_glue.h"

/* A worker's arrays of pointers, one per source of its batch (where each source's target columns
 * go, where each row lies), kept and grown. */
static __thread void **ptrs[2];
static __thread unsigned ptrs_len[2];

static void **thread_ptrs(int which, unsigned n)
{
	if (ptrs_len[which] < n)
	{
		void **p = realloc(ptrs[which], n * sizeof(*p));
		if (!p)
			return NULL;
		ptrs[which] = p;
		ptrs_len[which] = n;
	}
	return ptrs[which];
}

int sssp_gpu_batch_cols(const struct sssp_args *a, struct tuccompi_batch *b, unsigned lanes, struct sssp_gpu_cols *c)
{
	unsigned nsrc = tuccompi_batch_size(b);
	c->dst = NULL;
	c->host = NULL;
	if (!a->ntargets)
		return 0;
	uint32_t **dst;
	if (sssp_host_registered(tuccompi_task_result(tuccompi_batch_task(b, 0))) &&
	    (dst = (uint32_t **)thread_ptrs(0, nsrc)))
	{
		for (unsigned i = 0; i < nsrc; i++)
			dst[i] = sssp_result_cols(tuccompi_task_result(tuccompi_batch_task(b, i)));
		c->dst = dst;
		return 0;
	}
	if (!(c->host = sssp_thread_cols((size_t)a->ntargets * lanes, 1)))
	{
		tuccompi_batch_fail(b, -ENOMEM, "sssp: no pinned host memory for %zu target columns",
				    (size_t)a->ntargets * lanes);
		return -ENOMEM;
	}
	return 0;
}

void sssp_gpu_batch_results(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src,
			    const struct sssp_summary *out, const struct sssp_gpu_cols *c, const uint32_t *rows)
{
	unsigned nsrc = tuccompi_batch_size(b);
	for (unsigned i = 0; i < nsrc; i++)
	{
		void *res = tuccompi_task_result(tuccompi_batch_task(b, i));
		*(struct sssp_summary *)res = out[i];
		if (c->host) /* else the GPU put them there */
			memcpy(sssp_result_cols(res), c->host + (size_t)i * a->ntargets, (size_t)a->ntargets * sizeof(uint32_t));
	}
	if (!rows)
		return;
	const uint32_t **r = (const uint32_t **)thread_ptrs(1, nsrc);
	if (!r)
	{
		__atomic_store_n(&a->row_error, 1, __ATOMIC_RELAXED);
		return;
	}
	for (unsigned i = 0; i < nsrc; i++)
		r[i] = rows + (size_t)i * a->n;
	sssp_emit_batch_rows(a, b, src, r, nsrc);
}
