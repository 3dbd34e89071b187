// CUDA half of tests/codelet_cpu_cuda.c: y[j] = x[j] * (id + 1) + j, then sum(y).
#include <cuda_runtime.h>
#include <starpu.h>
#include <tuccompi.h>

__global__ void scale_kernel(const int *x, long long *y, int n, int factor)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < n)
		y[j] = (long long)x[j] * factor + j;
}

__global__ void sum_kernel(const long long *y, int n, unsigned long long *sum)
{
	unsigned long long s = 0;
	for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
		s += (unsigned long long)y[j];
	atomicAdd(sum, s);
}

#define CHECK(call)                                                                                       \
	do                                                                                                \
	{                                                                                                 \
		cudaError_t e_ = (call);                                                                  \
		STARPU_ASSERT_MSG(e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(e_));           \
	} while (0)

extern "C" void test_scale_cuda(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	const int *x = (const int *)tuccompi_task_shared(t, 0);
	int n = (int)(tuccompi_task_shared_size(t, 0) / sizeof(int));
	long long *y = (long long *)tuccompi_task_workspace(t, 0);
	unsigned long long *sum = (unsigned long long *)tuccompi_task_workspace(t, 1);
	cudaStream_t s = starpu_cuda_get_local_stream();
	int min_grid, block;
	CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale_kernel));
	CHECK(cudaMemsetAsync(sum, 0, sizeof(*sum), s));
	scale_kernel<<<(n + block - 1) / block, block, 0, s>>>(x, y, n, (int)tuccompi_task_id(t) + 1);
	CHECK(cudaGetLastError());
	CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, sum_kernel));
	sum_kernel<<<min_grid, block, 0, s>>>(y, n, sum);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpyAsync(tuccompi_task_result(t), sum, sizeof(*sum), cudaMemcpyDeviceToHost, s));
	CHECK(cudaStreamSynchronize(s));
}
