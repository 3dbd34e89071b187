// The CUDA batch implementation of tests/core/batch.c: one kernel launch for the whole batch.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

struct result
{
	uint64_t id, value;
	int32_t rank, batch;
};

TUCCOMPI_KERNELCHAR(batch_square, 1, coalesced, low, low, low);

__global__ void batch_square(const uint64_t *ids, const uint64_t *in, uint64_t *out, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i] * 3 + ids[i] * ids[i];
}

static thread_local uint64_t *dev, *host;

extern "C" void test_batch_cuda(struct tuccompi_batch *b, void *arg)
{
	(void)arg;
	unsigned n = tuccompi_batch_size(b);
	cudaStream_t s = tuccompi_gpu_stream();
	if (!dev && (cudaMalloc((void **)&dev, 3 * 4096 * sizeof(uint64_t)) != cudaSuccess ||
		     cudaMallocHost((void **)&host, 3 * 4096 * sizeof(uint64_t)) != cudaSuccess))
	{
		tuccompi_batch_fail(b, -ENOMEM, "test batch: no device memory");
		return;
	}
	for (unsigned i = 0; i < n; i++)
	{
		struct tuccompi_task *t = tuccompi_batch_task(b, i);
		host[i] = tuccompi_task_id(t);
		host[4096 + i] = *(const uint64_t *)tuccompi_task_input(t);
	}
	cudaMemcpyAsync(dev, host, 4096 * 2 * sizeof(uint64_t), cudaMemcpyHostToDevice, s);
	TUCCOMPI_GPULAUNCH(batch_square, n, dev, dev + 4096, dev + 2 * 4096, n);
	cudaMemcpyAsync(host + 2 * 4096, dev + 2 * 4096, n * sizeof(uint64_t), cudaMemcpyDeviceToHost, s);
	if (TUCCOMPI_GPUSYN() < 0)
	{
		tuccompi_batch_fail(b, -EIO, "test batch: %s", tuccompi_last_error());
		return;
	}
	for (unsigned i = 0; i < n; i++)
	{
		struct tuccompi_task *t = tuccompi_batch_task(b, i);
		struct result *r = (struct result *)tuccompi_task_result(t);
		r->id = host[i];
		r->value = host[2 * 4096 + i];
		r->rank = tuccompi_rank();
		r->batch = (int32_t)n;
	}
}
