// bench/plugin_starpu's CUDA side: the example's kernels (examples/hutchinson/kernel.cu, included
// here) launched as a plain StarPU program would, in CUDA's suggested block
// (cudaOccupancyMaxPotentialBlockSize; a 2-D kernel gets rows of 32 threads), and --kernels: each
// kernel timed in the tuner's geometry (GPULAUNCH) against CUDA's suggested block.
#include <algorithm>
#include <starpu.h>
#include <vector>

#include "bench.h"
#include "kernel.cu"

// CUDA's suggested block for each kernel (the same on every GPU of a node: computed once).
static int block_probe, block_quad;
static void cuda_blocks(void)
{
	if (!block_probe)
	{
		int q = 0, g = 0;
		BENCH_CUDA(cudaOccupancyMaxPotentialBlockSize(&g, &q, quad_form));
		block_quad = q;
		BENCH_CUDA(cudaOccupancyMaxPotentialBlockSize(&g, &q, probe_fill));
		block_probe = q;
	}
}

// Each kernel in CUDA's block, on @p s.
static void cuda_probe(double *x, uint64_t id, uint32_t n, cudaStream_t s)
{
	cuda_blocks();
	probe_fill<<<(n + block_probe - 1) / block_probe, block_probe, 0, s>>>(x, id, n);
}

static void cuda_quad(const double *A, const double *x, uint32_t n, double *sums, cudaStream_t s)
{
	cuda_blocks();
	dim3 b(32, block_quad / 32), g((n + 31) / 32, ((n + QUAD_CHUNK - 1) / QUAD_CHUNK + b.y - 1) / b.y);
	quad_form<<<g, b, 0, s>>>(A, x, n, sums);
}

extern "C" void plain_task_cuda(const double *A, double *x, double *sums, uint32_t n, uint64_t id,
				struct probe_result *res)
{
	cudaStream_t s = starpu_cuda_get_local_stream();
	cudaMemsetAsync(sums, 0, 2 * sizeof(double), s);
	cuda_probe(x, id, n, s);
	cuda_quad(A, x, n, sums, s);
	cudaMemcpyAsync(res, sums, sizeof(*res), cudaMemcpyDeviceToHost, s);
	BENCH_CUDA(cudaStreamSynchronize(s));
}

// Time per launch (us) of @p launch, over a round of 20 launches on @p s.
template <class F> static double round_us(F launch, cudaStream_t s)
{
	cudaEvent_t a, b;
	float ms;
	BENCH_CUDA(cudaEventCreate(&a));
	BENCH_CUDA(cudaEventCreate(&b));
	BENCH_CUDA(cudaEventRecord(a, s));
	for (int k = 0; k < 20; k++)
		launch();
	BENCH_CUDA(cudaEventRecord(b, s));
	BENCH_CUDA(cudaEventSynchronize(b));
	BENCH_CUDA(cudaEventElapsedTime(&ms, a, b));
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return ms * 1000.0 / 20;
}

extern "C" int plain_kernels(uint32_t n, unsigned reps)
{
	bench_name = "plugin_starpu";
	BENCH_CUDA(cudaSetDevice(0));
	std::vector<double> h((size_t)n * n);
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t c = 0; c < n; c++)
			h[(size_t)r * n + c] = matrix_entry(r, c);
	double *A, *x, *sums;
	BENCH_CUDA(cudaMalloc(&A, h.size() * sizeof(double)));
	BENCH_CUDA(cudaMalloc(&x, n * sizeof(double)));
	BENCH_CUDA(cudaMalloc(&sums, 2 * sizeof(double)));
	BENCH_CUDA(cudaMemcpy(A, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice));
	cudaStream_t s;
	BENCH_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	tuccompi_gpu_set_stream(s);
	cuda_blocks();
	uint32_t ny = (n + QUAD_CHUNK - 1) / QUAD_CHUNK;
	struct tuccompi_geometry gp, gq;
	if (tuccompi_gpu_geometry(TUCCOMPI_KERNEL(probe_fill), (const void *)probe_fill, n, 1, 0, &gp) < 0 ||
	    tuccompi_gpu_geometry(TUCCOMPI_KERNEL(quad_form), (const void *)quad_form, n, ny, 0, &gq) < 0)
		bench_die("tuccompi_gpu_geometry: %s", tuccompi_last_error());
	// the two geometries alternate round by round, so that a drift (clocks, other work) hits both
	std::vector<double> tt[2], tc[2];
	for (unsigned r = 0; r < reps; r++)
	{
		tt[0].push_back(round_us([&] { TUCCOMPI_GPULAUNCH(probe_fill, n, x, (uint64_t)r, n); }, s));
		tc[0].push_back(round_us([&] { cuda_probe(x, r, n, s); }, s));
		tt[1].push_back(round_us([&] { TUCCOMPI_GPULAUNCH2D(quad_form, n, ny, A, x, n, sums); }, s));
		tc[1].push_back(round_us([&] { cuda_quad(A, x, n, sums, s); }, s));
	}
	BENCH_CUDA(cudaStreamSynchronize(s));
	BENCH_CUDA(cudaGetLastError());
	const char *names[2] = { "probe_fill", "quad_form" };
	const struct tuccompi_geometry *g[2] = { &gp, &gq };
	unsigned cb[2][2] = { { (unsigned)block_probe, 1 }, { 32, (unsigned)block_quad / 32 } };
	for (int k = 0; k < 2; k++)
	{
		std::sort(tt[k].begin(), tt[k].end());
		std::sort(tc[k].begin(), tc[k].end());
		double a = tt[k][tt[k].size() / 2], c = tc[k][tc[k].size() / 2];
		printf("kernel %s, n = %u: tuner %ux%u %.2f us, CUDA's block %ux%u %.2f us per launch: CUDA / tuner %.3f (%s)\n",
		       names[k], n, g[k]->block_x, g[k]->block_y, a, cb[k][0], cb[k][1], c, c / a, g[k]->why);
	}
	cudaFree(A);
	cudaFree(x);
	cudaFree(sums);
	cudaStreamDestroy(s);
	return 0;
}
