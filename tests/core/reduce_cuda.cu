// The CUDA batch implementation of tests/core/reduce_test.c: one kernel adds the whole batch's
// contributions into the worker's reduction buffer in device memory.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#define NELEM 37 // as in reduce.c
enum mode
{
	MODE_F64,
	MODE_I64,
	MODE_EXACT,
	MODE_FAIL,
	MODE_NONE,
};
struct arg
{
	enum mode mode;
	int null_seen;
};

TUCCOMPI_KERNELCHAR(reduce_add, 1, coalesced, low, low, low);

__device__ double x_of(uint64_t i, unsigned j)
{
	return (i % 3 == 1 ? -1.0 : 1.0) / (double)(i + j + 3);
}

// One thread per element: the batch's tasks in order.
__global__ void reduce_add(const uint64_t *ids, unsigned n, int mode, void *buf)
{
	unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j >= NELEM)
		return;
	for (unsigned k = 0; k < n; k++)
	{
		uint64_t i = ids[k];
		if (mode == MODE_F64)
			((double *)buf)[j] += (double)(i + 1) * (j + 1);
		else if (mode == MODE_I64)
			((long long *)buf)[j] += i % NELEM == j;
		else
			tuccompi_exact_add(&((struct tuccompi_exact *)buf)[j], x_of(i, j));
	}
}

static thread_local uint64_t *dev_ids;

extern "C" void test_reduce_cuda(struct tuccompi_batch *b, void *arg)
{
	const struct arg *a = (const struct arg *)arg;
	unsigned n = tuccompi_batch_size(b);
	uint64_t ids[64];
	if (n > 64)
	{
		tuccompi_batch_fail(b, -EINVAL, "test reduce: %u tasks in a batch, at most 64", n);
		return;
	}
	if (!dev_ids && cudaMalloc((void **)&dev_ids, sizeof(ids)) != cudaSuccess)
	{
		tuccompi_batch_fail(b, -ENOMEM, "test reduce: no device memory");
		return;
	}
	for (unsigned i = 0; i < n; i++)
		ids[i] = tuccompi_task_id(tuccompi_batch_task(b, i));
	void *buf = tuccompi_task_reduce_buffer(tuccompi_batch_task(b, 0));
	if (!buf)
	{
		tuccompi_batch_fail(b, -ENOMEM, "test reduce: %s", tuccompi_last_error());
		return;
	}
	cudaStream_t s = tuccompi_gpu_stream();
	cudaMemcpyAsync(dev_ids, ids, n * sizeof(uint64_t), cudaMemcpyHostToDevice, s);
	TUCCOMPI_GPULAUNCH(reduce_add, NELEM, dev_ids, n, (int)a->mode, buf);
	if (TUCCOMPI_GPUSYN() < 0)
		tuccompi_batch_fail(b, -EIO, "test reduce: %s", tuccompi_last_error());
}
