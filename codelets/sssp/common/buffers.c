/* What the SSSP engines share (buffers.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/buffers.h"
#include "cpu/sssp_cpu.h"

#ifdef SSSP_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

int sssp_cpu_graph_packed(const struct sssp_graph *g, void **packed, size_t *size, char *why, size_t whylen)
{
	*size = sssp_cpu_packed_size(g);
	if (posix_memalign(packed, 64, *size ? *size : 64) != 0)
	{
		*packed = NULL;
		snprintf(why, whylen, "out of memory for the CPU engine's copy of the graph (%zu bytes)", *size);
		return -ENOMEM;
	}
	sssp_cpu_pack(g, *packed);
	return 0;
}

int sssp_share_buffers(struct tuccompi_taskset_desc *desc, const void *const *ptr, const size_t *size, unsigned n)
{
	static const uint64_t dummy = 0; /* an empty array still needs a buffer */
	if (desc->nshared + n > TUCCOMPI_MAX_SHARED)
		return -ENOSPC;
	for (unsigned k = 0; k < n; k++)
	{
		int ret = tuccompi_shared_register(&desc->shared[desc->nshared], size[k] ? ptr[k] : &dummy,
						   size[k] ? size[k] : sizeof(dummy));
		if (ret < 0)
		{
			while (desc->nshared)
				tuccompi_shared_unregister(desc->shared[--desc->nshared]);
			return ret;
		}
		desc->nshared++;
	}
	return 0;
}

void sssp_unshare_buffers(struct tuccompi_taskset_desc *desc)
{
	for (unsigned k = 0; k < desc->nshared; k++)
		tuccompi_shared_unregister(desc->shared[k]);
	desc->nshared = 0;
}

#ifdef SSSP_WITH_CUDA
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
#endif

/* A worker's host buffers, one per use: the rows, the target columns, the trees' scratch. */
enum
{
	TB_ROWS,
	TB_COLS,
	TB_SCRATCH,
	TB_COUNT
};
static __thread struct
{
	void *buf;
	size_t len;
	int pinned;
} tbuf[TB_COUNT];

static void *thread_buf(int which, size_t bytes, int pinned)
{
	void **buf = &tbuf[which].buf;
	if (tbuf[which].len >= bytes && tbuf[which].pinned == pinned)
		return *buf;
#ifdef SSSP_WITH_CUDA
	if (*buf && tbuf[which].pinned)
		cudaFreeHost(*buf);
	else
#endif
		free(*buf);
	*buf = NULL;
	tbuf[which].len = 0;
#ifdef SSSP_WITH_CUDA
	if (pinned && cudaMallocHost(buf, bytes ? bytes : 1) != cudaSuccess)
		*buf = NULL;
	if (!pinned)
#endif
		*buf = malloc(bytes ? bytes : 1);
	tbuf[which].pinned = pinned;
	if (*buf)
		tbuf[which].len = bytes;
	return *buf;
}

int sssp_host_registered(const void *p)
{
#ifdef SSSP_WITH_CUDA
	struct cudaPointerAttributes at;
	if (p && cudaPointerGetAttributes(&at, p) == cudaSuccess)
		return at.type == cudaMemoryTypeHost;
	cudaGetLastError(); /* an unknown pointer leaves no sticky error, but clear it anyway */
#else
	(void)p;
#endif
	return 0;
}

#ifdef SSSP_WITH_CUDA
int sssp_gpu_cols_to_host(uint32_t *const *dst, size_t pitch, const uint32_t *dev, uint32_t ntargets, unsigned k,
			  void *stream)
{
	size_t width = (size_t)ntargets * sizeof(uint32_t);
	for (unsigned i = 0, j; i < k; i = j)
	{
		/* a run of sources whose results lie pitch bytes apart: one 2-D copy */
		for (j = i + 1; j < k && pitch >= width && (char *)dst[j] == (char *)dst[j - 1] + pitch; j++)
			;
		cudaError_t e = cudaMemcpy2DAsync(dst[i], pitch >= width ? pitch : width, dev + (size_t)i * ntargets, width,
						  width, j - i, cudaMemcpyDeviceToHost, (cudaStream_t)stream);
		if (e != cudaSuccess)
			return (int)e;
	}
	return 0;
}
#endif

uint32_t *sssp_thread_rows(size_t words, int pinned)
{
	return thread_buf(TB_ROWS, words * sizeof(uint32_t), pinned);
}

uint32_t *sssp_thread_cols(size_t words, int pinned)
{
	return thread_buf(TB_COLS, words * sizeof(uint32_t), pinned);
}

void *sssp_thread_scratch(size_t bytes)
{
	return thread_buf(TB_SCRATCH, bytes, 0);
}

void sssp_thread_scratch_free(void)
{
	free(tbuf[TB_SCRATCH].buf);
	tbuf[TB_SCRATCH].buf = NULL;
	tbuf[TB_SCRATCH].len = 0;
}

int sssp_share_targets(struct tuccompi_taskset_desc *desc, const struct sssp_args *a)
{
	const void *ptr = a->targets;
	size_t size = (size_t)a->ntargets * sizeof(uint32_t);
	return a->ntargets ? sssp_share_buffers(desc, &ptr, &size, 1) : 0;
}
