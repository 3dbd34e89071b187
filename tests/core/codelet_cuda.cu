// CUDA half of tests/codelet_cpu_cuda.c: y[j] = x[j] * (id + 1) + j, then sum(y).
#include <stdio.h>
#include <stdlib.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#define TEST_CHECK(cond, ...)                                                                              \
	do                                                                                                 \
	{                                                                                                  \
		if (!(cond))                                                                               \
		{                                                                                          \
			fprintf(stderr, __VA_ARGS__);                                                      \
			abort();                                                                           \
		}                                                                                          \
	} while (0)

TUCCOMPI_KERNELCHAR(scale_kernel, 1, coalesced, low, low, low);
__global__ void scale_kernel(const int *x, long long *y, int n, int factor)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < n)
		y[j] = (long long)x[j] * factor + j;
}

TUCCOMPI_KERNELCHAR(sum_kernel, 1, coalesced, low, low, low);
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
		TEST_CHECK(e_ == cudaSuccess, "%s: %s", #call, cudaGetErrorString(e_));           \
	} while (0)

extern "C" void test_scale_cuda(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	const int *x = (const int *)tuccompi_task_shared(t, 0);
	int n = (int)(tuccompi_task_shared_size(t, 0) / sizeof(int));
	long long *y = (long long *)tuccompi_task_workspace(t, 0);
	unsigned long long *sum = (unsigned long long *)tuccompi_task_workspace(t, 1);
	cudaStream_t s = tuccompi_gpu_stream();
	CHECK(cudaMemsetAsync(sum, 0, sizeof(*sum), s));
	TUCCOMPI_GPULAUNCH(scale_kernel, n, x, y, n, (int)tuccompi_task_id(t) + 1);
	TUCCOMPI_GPULAUNCH(sum_kernel, n, y, n, sum);
	CHECK(cudaMemcpyAsync(tuccompi_task_result(t), sum, sizeof(*sum), cudaMemcpyDeviceToHost, s));
	int r = TUCCOMPI_GPUSYN();
	TEST_CHECK(r == 0, "%s", tuccompi_last_error());
}

/* A launch the tuner cannot place (no elements): the launch is not made, GPUSYN says so, and the
 * plug-in returns without failing the task itself: the library fails the job (the process goes on),
 * and the task runs again elsewhere. */
extern "C" void test_unplaceable_cuda(struct tuccompi_task *t, void *arg)
{
	(void)arg;
	const int *x = (const int *)tuccompi_task_shared(t, 0);
	long long *y = (long long *)tuccompi_task_workspace(t, 0);
	TUCCOMPI_GPULAUNCH(scale_kernel, 0, x, y, 0, 1);
	int r = TUCCOMPI_GPUSYN();
	TEST_CHECK(r < 0, "GPUSYN after a launch that was not made returned %d", r);
	TEST_CHECK(strstr(tuccompi_last_error(), "cannot launch kernel scale_kernel") != NULL, "GPUSYN said: %s",
		   tuccompi_last_error());
}
