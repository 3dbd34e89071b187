/* What the SSSP engines share (buffers.h). */
#include <errno.h>
#include <stdlib.h>

#include "buffers.h"

#ifdef SSSP_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

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

static __thread uint32_t *rows_buf;
static __thread size_t rows_len;
static __thread int rows_pinned;

uint32_t *sssp_thread_rows(size_t words, int pinned)
{
	if (rows_len >= words && rows_pinned == pinned)
		return rows_buf;
#ifdef SSSP_WITH_CUDA
	if (rows_buf && rows_pinned)
		cudaFreeHost(rows_buf);
	else
#endif
		free(rows_buf);
	rows_buf = NULL;
	rows_len = 0;
#ifdef SSSP_WITH_CUDA
	if (pinned && cudaMallocHost((void **)&rows_buf, words * sizeof(uint32_t)) != cudaSuccess)
		rows_buf = NULL;
	if (!pinned)
#endif
		rows_buf = malloc(words * sizeof(uint32_t));
	rows_pinned = pinned;
	if (rows_buf)
		rows_len = words;
	return rows_buf;
}
