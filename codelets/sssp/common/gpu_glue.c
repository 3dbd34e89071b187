/* The engines' GPU batch job (gpu_glue.h): built with CUDA only (SSSP_WITH_CUDA); a build of the
 * CPU engines that compiles every .c of codelets/sssp gets an empty unit. */
#ifdef SSSP_WITH_CUDA
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/buffers.h"
#include "common/fail.h"
#include "common/gpu_glue.h"

/* A worker's arrays, kept and grown: the batch's sources, their summaries, where each source's
 * target columns go, where each row lies. */
enum
{
	BUF_SRC,
	BUF_OUT,
	BUF_COLS,
	BUF_ROWS,
	NBUF
};
static __thread void *bufs[NBUF];
static __thread size_t bufs_len[NBUF];

static void *thread_buf(int which, size_t bytes)
{
	if (bufs_len[which] < bytes)
	{
		void *p = realloc(bufs[which], bytes);
		if (!p)
			return NULL;
		bufs[which] = p;
		bufs_len[which] = bytes;
	}
	return bufs[which];
}

/* Where batch @p b's target columns go (c), for @p lanes sources at most: 0, or -ENOMEM and why. */
static int batch_cols(const struct sssp_args *a, struct tuccompi_batch *b, unsigned lanes, struct sssp_gpu_cols *c,
		      char *why, size_t whylen)
{
	unsigned nsrc = tuccompi_batch_size(b);
	c->dst = NULL;
	c->host = NULL;
	if (!a->ntargets)
		return 0;
	uint32_t **dst;
	if (sssp_host_registered(tuccompi_task_result(tuccompi_batch_task(b, 0))) &&
	    (dst = thread_buf(BUF_COLS, nsrc * sizeof(*dst))))
	{
		for (unsigned i = 0; i < nsrc; i++)
			dst[i] = sssp_result_cols(tuccompi_task_result(tuccompi_batch_task(b, i)));
		c->dst = dst;
		return 0;
	}
	if (!(c->host = sssp_thread_cols((size_t)a->ntargets * lanes, 1)))
		return sssp_fail(why, whylen, -ENOMEM, "sssp: no pinned host memory for %zu target columns",
				 (size_t)a->ntargets * lanes);
	return 0;
}

/* The batch's end: each task's summary out[i], its target columns (from c->host, where the GPU did not
 * write them in place) and, with @p rows (the batch's host rows, a->n words each), its row. */
static void batch_results(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src,
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
	const uint32_t **r = thread_buf(BUF_ROWS, nsrc * sizeof(*r));
	if (!r)
	{
		__atomic_store_n(&a->row_error, 1, __ATOMIC_RELAXED);
		return;
	}
	for (unsigned i = 0; i < nsrc; i++)
		r[i] = rows + (size_t)i * a->n;
	sssp_emit_batch_rows(a, b, src, r, nsrc);
}

/* The job, 0 or a negative errno with one line in why. */
static int batch_job(struct sssp_args *a, struct tuccompi_batch *b, const struct sssp_gpu_batch_engine *e, char *why,
		     size_t whylen)
{
	unsigned nsrc = tuccompi_batch_size(b), lanes = e->lanes ? e->lanes : nsrc;
	uint32_t *src = thread_buf(BUF_SRC, nsrc * sizeof(*src));
	struct sssp_summary *out = thread_buf(BUF_OUT, nsrc * sizeof(*out));
	if (!src || !out)
		return sssp_fail(why, whylen, -ENOMEM, "sssp: out of memory for %u sources", nsrc);
	for (unsigned i = 0; i < nsrc; i++)
		src[i] = *(const uint32_t *)tuccompi_task_input(tuccompi_batch_task(b, i));
	uint32_t *rows = NULL;
	if (!e->summaries_only && sssp_wants_rows(a) && !(rows = sssp_thread_rows((size_t)a->n * lanes, 1)))
		return sssp_fail(why, whylen, -ENOMEM, "sssp: no pinned host memory for %zu distance rows",
				 (size_t)a->n * lanes);
	struct sssp_gpu_cols c = { NULL, NULL };
	int ret = e->summaries_only ? 0 : batch_cols(a, b, lanes, &c, why, whylen);
	if (ret < 0)
		return ret;
	size_t wsb = e->workspace(a, rows != NULL);
	void *ws = sssp_gpu_thread_workspace(wsb);
	if (!ws)
		return sssp_fail(why, whylen, -ENOMEM, "%s: cannot allocate %zu bytes of GPU workspace", e->prefix, wsb);
	char err[256] = "";
	if ((ret = e->run(a, b, src, nsrc, ws, &c, rows, out, err, sizeof(err))) < 0)
		return sssp_fail(why, whylen, ret, "%s: %s", e->prefix, err);
	batch_results(a, b, src, out, &c, rows);
	return 0;
}

void sssp_gpu_batch_job(struct sssp_args *a, struct tuccompi_batch *b, const struct sssp_gpu_batch_engine *e)
{
	char why[320];
	int ret = batch_job(a, b, e, why, sizeof(why));
	if (ret < 0)
		tuccompi_batch_fail(b, ret, "%s", why);
}
#endif
