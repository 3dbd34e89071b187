// kernel.cu: the CUDA implementation of the example's plug-in (main.c has the CPU one). Two
// characterised kernels (KERNELCHAR), launched with GPULAUNCH on the stream of the StarPU worker
// that runs the task, in the block geometry the tuner picks for them on this GPU.
//   nvcc -arch=sm_90 -c kernel.cu $(pkg-config --cflags tuccompi-starpu-cuda)
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "hutchinson.h"

// Every kernel must be right for any block size the tuner may choose (a multiple of the warp's 32
// threads, up to 1024): each thread checks its bounds, and nothing assumes a size.

// Probe vector x: thread c writes x[c]. Consecutive threads write consecutive words (A coalesced),
// a hash of a dozen operations per word written (B high), nothing read back (C low: no L1 lines
// evicted; D low: no reuse).
TUCCOMPI_KERNELCHAR(probe_fill, 1, coalesced, high, low, low);
__global__ void probe_fill(double *x, uint64_t id, uint32_t n)
{
	uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
	if (c < n)
		x[c] = probe_entry(id, c);
}

// Rows of A are cut into chunks of QUAD_CHUNK columns: thread (r, k) of the 2-D grid adds up
// y_rk = sum over chunk k of A[c][r] x_c (A is symmetric: column r read down, so consecutive
// threads of a block's row read consecutive words: A coalesced), one multiply-add per word of A
// (B low); the x_c of a chunk are the same for a whole row of threads and stay in L1 (C low), each
// read by every thread (D high). Since x^T A x = sum_r x_r sum_k y_rk and sum(y) = sum_r sum_k y_rk,
// each thread adds x_r y_rk and y_rk into the block's sums (warp shuffles, then one warp over the
// warps' sums: the tuner's blocks are whole warps), and the block adds them into out[0], out[1].
#define QUAD_CHUNK 32
TUCCOMPI_KERNELCHAR(quad_form, 2, coalesced, low, low, high);
__global__ void quad_form(const double *A, const double *x, uint32_t n, double *out)
{
	uint32_t r = blockIdx.x * blockDim.x + threadIdx.x, k = blockIdx.y * blockDim.y + threadIdx.y;
	double y = 0, q = 0;
	if (r < n && k * QUAD_CHUNK < n)
	{
		uint32_t end = min(n, (k + 1) * QUAD_CHUNK);
		for (uint32_t c = k * QUAD_CHUNK; c < end; c++)
			y += A[(size_t)c * n + r] * x[c];
		q = x[r] * y;
	}
	for (int o = 16; o > 0; o >>= 1) // threads outside the matrix take part with zeros
	{
		q += __shfl_down_sync(0xffffffffu, q, o);
		y += __shfl_down_sync(0xffffffffu, y, o);
	}
	__shared__ double wq[32], wy[32];
	unsigned t = threadIdx.y * blockDim.x + threadIdx.x, lane = t % 32, warp = t / 32;
	unsigned nwarps = (blockDim.x * blockDim.y + 31) / 32;
	if (lane == 0)
	{
		wq[warp] = q;
		wy[warp] = y;
	}
	__syncthreads();
	if (warp != 0)
		return;
	q = lane < nwarps ? wq[lane] : 0;
	y = lane < nwarps ? wy[lane] : 0;
	for (int o = 16; o > 0; o >>= 1)
	{
		q += __shfl_down_sync(0xffffffffu, q, o);
		y += __shfl_down_sync(0xffffffffu, y, o);
	}
	if (lane == 0)
	{
		atomicAdd(&out[0], q);
		atomicAdd(&out[1], y);
	}
}

// The plug-in's CUDA function: one task, on the GPU of the StarPU worker that calls it.
// tuccompi_task_shared() and tuccompi_task_workspace() are device pointers here; the result is host
// memory. Workspaces are not zeroed (a worker's workspace keeps what its last task left).
extern "C" void hutchinson_cuda(struct tuccompi_task *t, void *arg)
{
	const struct hut_args *a = (const struct hut_args *)arg;
	const double *A = (const double *)tuccompi_task_shared(t, 0);
	double *x = (double *)tuccompi_task_workspace(t, 0);    // n doubles
	double *sums = (double *)tuccompi_task_workspace(t, 1); // 2 doubles
	struct probe_result *res = (struct probe_result *)tuccompi_task_result(t);
	cudaStream_t s = tuccompi_gpu_stream();

	cudaMemsetAsync(sums, 0, 2 * sizeof(double), s);
	TUCCOMPI_GPULAUNCH(probe_fill, a->n, x, tuccompi_task_id(t), a->n);
	TUCCOMPI_GPULAUNCH2D(quad_form, a->n, (a->n + QUAD_CHUNK - 1) / QUAD_CHUNK, A, x, a->n, sums);
	cudaMemcpyAsync(res, sums, sizeof(*res), cudaMemcpyDeviceToHost, s); // quad, sum: two doubles
	// GPUSYN: wait for this task's work on the stream; it returns the CUDA error of any call before
	// (a failed launch or copy). Failing the task gives it to another unit.
	int ret = TUCCOMPI_GPUSYN();
	if (ret < 0)
		tuccompi_task_fail(t, ret, "hutchinson: probe %llu on the GPU: %s", (unsigned long long)tuccompi_task_id(t),
				   tuccompi_last_error());
}
