/* The "batched" engine, glued to the runtime: CPU units run one source per task with the
 * bucket-queue engine (sssp_cpu.c) on a packed copy of the graph; GPU units run batches of up to
 * 64 sources per traversal (32 with TUCCOMPI_SSSP_BATCH_LANES=32) (batch_gpu.cu) on the graph's out- and in-arcs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_gpu.h"
#include "plan.h"
#include "sssp_cpu.h"

#ifdef SSSP_WITH_CUDA
#include <tuccompi_cuda.h>
#endif

/* CPU: one source. Workspace 0 holds the n distances, then the engine's scratch. */
static void batched_cpu(struct tuccompi_task *t, void *arg)
{
	struct sssp_args *a = arg;
	const struct sssp_plan *p = a->plan;
	uint32_t src = *(const uint32_t *)tuccompi_task_input(t);
	uint32_t *dist = tuccompi_task_workspace(t, 0);
	void *work = (char *)dist + (((size_t)a->n * sizeof(uint32_t) + 63) & ~(size_t)63);
	struct sssp_summary *out = tuccompi_task_result(t);
	sssp_cpu_run(tuccompi_task_shared(t, SH_BATCH_PACKED), src, dist, work, out);
	out->source = src;
	(void)p;
	sssp_emit_row(a, t, src, dist);
}

#ifdef SSSP_WITH_CUDA
/* Pinned host rows of this stream worker (n x 32), grown on demand, kept for the thread. */
static __thread uint32_t *host_rows;
static __thread size_t host_rows_len;

/* The GPU workspace of this stream worker (one batch at a time per worker, so never shared by
 * concurrent batches: PARLLMK's rule). Allocated by the engine rather than as a StarPU scratch
 * buffer: a StarPU workspace is allocated on every unit that runs a task, CPU cores included,
 * where StarPU pins main memory for CUDA; 200 MB pinned per CPU worker cost seconds at start-up
 * (measured on the two-GPU node). */
static __thread void *dev_work;
static __thread size_t dev_work_len;

void *sssp_gpu_thread_workspace(size_t bytes)
{
	if (dev_work_len >= bytes)
		return dev_work;
	if (dev_work)
		cudaFree(dev_work);
	dev_work = NULL;
	dev_work_len = 0;
	if (cudaMalloc(&dev_work, bytes) != cudaSuccess)
	{
		cudaGetLastError();
		dev_work = NULL;
		return NULL;
	}
	dev_work_len = bytes;
	return dev_work;
}

static void batched_cuda(struct tuccompi_batch *b, void *arg)
{
	struct sssp_args *a = arg;
	const struct sssp_plan *p = a->plan;
	struct tuccompi_task *t0 = tuccompi_batch_task(b, 0);
	unsigned nsrc = tuccompi_batch_size(b);
	struct sssp_batch_dgraph dg = {
		.n = a->n,
		.m = p->g->m,
		.rowptr = tuccompi_task_shared(t0, SH_BATCH_ROWPTR),
		.col = tuccompi_task_shared(t0, SH_BATCH_COL),
		.w = tuccompi_task_shared(t0, SH_BATCH_W),
		.in_rowptr = tuccompi_task_shared(t0, SH_BATCH_IN_ROWPTR),
		.in_col = tuccompi_task_shared(t0, SH_BATCH_IN_COL),
		.in_w = tuccompi_task_shared(t0, SH_BATCH_IN_W),
	};
	uint32_t src[SSSP_BATCH_LANES];
	struct sssp_summary out[SSSP_BATCH_LANES];
	for (unsigned i = 0; i < nsrc; i++)
		src[i] = *(const uint32_t *)tuccompi_task_input(tuccompi_batch_task(b, i));
	uint32_t *rows = NULL;
	if (a->row)
	{
		size_t need = (size_t)a->n * SSSP_BATCH_LANES;
		if (host_rows_len < need)
		{
			if (host_rows)
				cudaFreeHost(host_rows);
			host_rows = NULL;
			host_rows_len = 0;
			if (cudaMallocHost((void **)&host_rows, need * sizeof(uint32_t)) != cudaSuccess)
			{
				tuccompi_batch_fail(b, -ENOMEM, "sssp: no pinned host memory for %zu distance rows", need);
				return;
			}
			host_rows_len = need;
		}
		rows = host_rows;
	}
	int mk = tuccompi_get_mk();
	struct sssp_batch_params prm = { .delta = p->delta, .share = mk > 0 ? (unsigned)mk : 1 };
	char err[256] = "";
	size_t wsb = sssp_batch_gpu_workspace_size(a->n, rows != NULL);
	void *ws = sssp_gpu_thread_workspace(wsb);
	if (!ws)
	{
		tuccompi_batch_fail(b, -ENOMEM, "sssp batched engine: cannot allocate %zu bytes of GPU workspace", wsb);
		return;
	}
	int ret = sssp_batch_gpu_run(&dg, src, nsrc, ws, &prm, tuccompi_gpu_stream(), out, rows, err, sizeof(err));
	if (ret < 0)
	{
		tuccompi_batch_fail(b, ret, "sssp batched engine: %s", err);
		return;
	}
	for (unsigned i = 0; i < nsrc; i++)
	{
		struct tuccompi_task *t = tuccompi_batch_task(b, i);
		*(struct sssp_summary *)tuccompi_task_result(t) = out[i];
		if (rows)
			sssp_emit_row(a, t, src[i], rows + (size_t)i * a->n);
	}
}
#endif

int sssp_batched_prepare(struct sssp_plan *p, char *why, size_t whylen)
{
	const struct sssp_graph *g = p->g;
	if (p->o.cpu)
	{
		p->packed_size = sssp_cpu_packed_size(g);
		if (posix_memalign(&p->packed, 64, p->packed_size ? p->packed_size : 64) != 0)
		{
			snprintf(why, whylen, "out of memory for the CPU engine's copy of the graph (%zu bytes)",
				 p->packed_size);
			return -ENOMEM;
		}
		sssp_cpu_pack(g, p->packed);
		p->cpu_work = sssp_cpu_workspace_size(p->packed);
	}
	if (p->o.cuda)
	{
		p->in_rowptr = malloc(((size_t)g->n + 1) * sizeof(uint64_t));
		p->in_col = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
		p->in_w = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
		if (!p->in_rowptr || !p->in_col || !p->in_w)
		{
			snprintf(why, whylen, "out of memory for the graph's in-arcs (%llu arcs)", (unsigned long long)g->m);
			return -ENOMEM;
		}
		sssp_transpose(g, p->in_rowptr, p->in_col, p->in_w);
		p->delta = p->o.delta ? p->o.delta : sssp_batch_delta_rule(g);
	}
	return 0;
}

int sssp_batched_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc)
{
	const struct sssp_graph *g = p->g;
	struct tuccompi_plugin *pl = &p->plugin;
	memset(pl, 0, sizeof(*pl));
	pl->name = "sssp-batched";
	pl->result_size = sizeof(struct sssp_summary);
	size_t ws = 64;
	if (p->o.cpu)
	{
		pl->cpu = batched_cpu;
		ws = (((size_t)g->n * sizeof(uint32_t) + 63) & ~(size_t)63) + p->cpu_work;
	}
#ifdef SSSP_WITH_CUDA
	if (p->o.cuda)
	{
		/* its workspace is the stream worker's own (sssp_gpu_thread_workspace) */
		pl->cuda_batch = batched_cuda;
		pl->batch_max[TUCCOMPI_UNIT_CUDA] = SSSP_BATCH_LANES;
	}
#endif
	pl->workspace_size[0] = ws;
	pl->nworkspaces = 1;
	desc->nshared = 0;
	size_t n1 = ((size_t)g->n + 1) * sizeof(uint64_t), m4 = (size_t)g->m * sizeof(uint32_t);
	/* the CPU engine's packed graph first (a placeholder without CPU units), then the GPU's arcs */
	const void *ptr[7] = { p->packed, g->rowptr, g->col, g->w, p->in_rowptr, p->in_col, p->in_w };
	size_t size[7] = { p->packed ? p->packed_size : 0, n1, m4, m4, n1, m4, m4 };
	return sssp_share_buffers(desc, ptr, size, p->o.cuda ? 7 : 1);
}

void sssp_batched_free(struct sssp_plan *p)
{
	free(p->packed);
	free(p->in_rowptr);
	free(p->in_col);
	free(p->in_w);
}

uint64_t sssp_batched_gpu_workspace(const struct sssp_plan *p, int with_rows)
{
#ifdef SSSP_WITH_CUDA
	return sssp_batch_gpu_workspace_size(p->g->n, with_rows);
#else
	(void)p;
	(void)with_rows;
	return 0;
#endif
}
