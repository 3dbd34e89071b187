/* What the GPU engines that launch their kernels themselves (cudaLaunchKernel, cooperative launches,
 * a stream of their caller's) share: the block the tuner gives a kernel (its KERNELCHAR, or the one
 * block of its KERNELCHAR_BLOCK), a grid of such blocks, and a failed run's wait for its stream.
 * CUDA sources only. */
#ifndef TUCCOMPI_SSSP_GPU_LAUNCH_H
#define TUCCOMPI_SSSP_GPU_LAUNCH_H

#include <errno.h>
#include <stdint.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "common/fail.h"

/** The tuner's block for kernel @p k (device function @p func) over @p nx elements with @p shmem bytes
 *  of dynamic shared memory, its cache preference applied: *bx threads, a multiple of 32 up to 1024.
 *  0, or -EIO with one line "PREFIX: ..." in @p why. */
static inline int sssp_gpu_block(struct tuccompi_kernel *k, const void *func, uint64_t nx, size_t shmem, unsigned *bx,
				 const char *prefix, char *why, size_t whylen)
{
	struct tuccompi_geometry g;
	if (tuccompi_gpu_geometry(k, func, nx ? nx : 1, 1, shmem, &g) < 0)
		return sssp_fail(why, whylen, -EIO, "%s: tuccompi_gpu_geometry(%s): %s", prefix, k->kc.name,
				 tuccompi_last_error());
	if (g.block_x < 32 || g.block_x % 32 || g.block_x > 1024)
		return sssp_fail(why, whylen, -EIO,
				 "%s: the tuner gave %u threads per block for %s; need a multiple of 32 up to 1024", prefix,
				 g.block_x, k->kc.name);
	*bx = g.block_x;
	return 0;
}

/** Blocks of @p bx threads for @p threads threads: at least 1, at most @p cap. */
static inline unsigned sssp_grid_for(uint64_t threads, unsigned bx, unsigned cap)
{
	uint64_t g = (threads + bx - 1) / bx;
	return g < 1 ? 1 : g > cap ? cap : (unsigned)g;
}

/** The calling thread's device (*dev_out) and its SMs (*sms_out); with @p cooperative, -ENODEV when
 *  the device cannot launch cooperative kernels. 0, or a negative errno with one line "PREFIX: ..."
 *  in @p why. */
static inline int sssp_gpu_device(int cooperative, int *dev_out, int *sms_out, const char *prefix, char *why,
				  size_t whylen)
{
	int dev, sms = 0, coop = 0;
	TUCCOMPI_CUDA_CHECK(cudaGetDevice(&dev), prefix, why, whylen);
	TUCCOMPI_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), prefix, why, whylen);
	if (cooperative)
	{
		TUCCOMPI_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev), prefix, why, whylen);
		if (!coop)
			return sssp_fail(why, whylen, -ENODEV, "%s: device %d cannot launch cooperative kernels", prefix, dev);
	}
	*dev_out = dev;
	*sms_out = sms;
	return 0;
}

/** @p ret, a run's result, once the work it queued on @p stream before failing is done (its caller
 *  may then free that work's memory): a run's public entry returns sssp_gpu_settle(run(...), stream). */
static inline int sssp_gpu_settle(int ret, void *stream)
{
	if (ret < 0)
		cudaStreamSynchronize((cudaStream_t)stream);
	return ret;
}

#endif
