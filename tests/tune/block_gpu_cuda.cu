// CUDA half of tests/tune/block_gpu.c: a kernel of one block (KERNELCHAR_BLOCK) gets that block in
// every mode, from the geometry call and at its launches, while a forced geometry still reaches the
// other kernels.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

TUCCOMPI_KERNELCHAR_BLOCK(one_block, 256, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR_BLOCK(one_tile, 32, 8, coalesced, none, low, medium);
TUCCOMPI_KERNELCHAR(any_block, 1, coalesced, none, low, low);

// each kernel writes the block it runs with
__global__ void one_block(unsigned *out)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		out[0] = blockDim.x, out[1] = blockDim.y;
}
__global__ void one_tile(unsigned *out)
{
	if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)
		out[2] = blockDim.x, out[3] = blockDim.y;
}
__global__ void any_block(unsigned *out)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		out[4] = blockDim.x;
}

#define FAIL(...) return snprintf(why, whylen, __VA_ARGS__), 1
#define CK(call) TUCCOMPI_CUDA_CHECK(call, "block_gpu", why, whylen)

static int run_mode(enum tuccompi_tune_mode mode, unsigned *dout, char *why, size_t whylen)
{
	const char *name = mode == TUCCOMPI_TUNE_RULES ? "rules" : mode == TUCCOMPI_TUNE_EMPIRICAL ? "empirical"
			   : mode == TUCCOMPI_TUNE_CUDA	    ? "cuda"
							    : "fixed";
	if (tuccompi_tune_set_mode(mode) < 0)
		FAIL("%s: tuccompi_tune_set_mode: %s", name, tuccompi_last_error());
	tuccompi_gpu_reset_decisions();
	struct tuccompi_geometry g;
	if (tuccompi_gpu_geometry(TUCCOMPI_KERNEL(one_block), (const void *)one_block, 1 << 20, 1, 0, &g) < 0)
		FAIL("%s: geometry of one_block: %s", name, tuccompi_last_error());
	if (g.block_x != 256 || g.block_y != 1)
		FAIL("%s: the geometry call gave one_block %ux%u, not its 256x1", name, g.block_x, g.block_y);
	if (tuccompi_gpu_geometry(TUCCOMPI_KERNEL(one_tile), (const void *)one_tile, 1000, 1000, 0, &g) < 0)
		FAIL("%s: geometry of one_tile: %s", name, tuccompi_last_error());
	if (g.block_x != 32 || g.block_y != 8)
		FAIL("%s: the geometry call gave one_tile %ux%u, not its 32x8", name, g.block_x, g.block_y);
	CK(cudaMemset(dout, 0, 5 * sizeof(unsigned)));
	TUCCOMPI_GPULAUNCH(one_block, 1 << 20, dout);
	TUCCOMPI_GPULAUNCH2D(one_tile, 1000, 1000, dout);
	if (mode == TUCCOMPI_TUNE_FIXED)
		TUCCOMPI_GPULAUNCH(any_block, 1 << 20, dout);
	if (TUCCOMPI_GPUSYN() < 0)
		FAIL("%s: GPUSYN: %s", name, tuccompi_last_error());
	unsigned h[5];
	CK(cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost));
	if (h[0] != 256 || h[1] != 1 || h[2] != 32 || h[3] != 8)
		FAIL("%s: the launches ran one_block at %ux%u and one_tile at %ux%u, not 256x1 and 32x8", name, h[0], h[1],
		     h[2], h[3]);
	if (mode == TUCCOMPI_TUNE_FIXED && h[4] != 64)
		FAIL("fixed: any_block ran at %u threads, not the forced 64", h[4]);
	printf("ok: %s: one_block 256x1, one_tile 32x8%s\n", name, mode == TUCCOMPI_TUNE_FIXED ? ", any_block forced to 64" : "");
	return 0;
}

static int run(unsigned *dout, char *why, size_t whylen)
{
	const enum tuccompi_tune_mode modes[] = { TUCCOMPI_TUNE_RULES, TUCCOMPI_TUNE_EMPIRICAL, TUCCOMPI_TUNE_CUDA,
						  TUCCOMPI_TUNE_FIXED };
	if (tuccompi_tune_force(NULL, 64, 1, -1) < 0)
		FAIL("tuccompi_tune_force: %s", tuccompi_last_error());
	for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (run_mode(modes[i], dout, why, whylen))
			return 1;
	return 0;
}

extern "C" int block_gpu_test(char *why, size_t whylen)
{
	int ndev = 0;
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1)
	{
		snprintf(why, whylen, "no CUDA device: skipped");
		return 77;
	}
	unsigned *dout;
	CK(cudaMalloc((void **)&dout, 5 * sizeof(unsigned)));
	int r = run(dout, why, whylen);
	cudaFree(dout);
	return r;
}
