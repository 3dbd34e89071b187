/*
 * CUDA side of the deployment level: kernel characterisations (KERNELCHAR) and the launch
 * helpers (GPULAUNCH / GPUSYN) that launch a kernel on the calling StarPU worker's stream
 * with the block geometry and cache preference the tuner picked.
 *
 *   TUCCOMPI_KERNELCHAR(relax, 1, scatter, low, high, low);
 *   __global__ void relax(...) { ... one thread per element, bounds-checked ... }
 *
 *   void sssp_gpu(struct tuccompi_task *t, void *arg)
 *   {
 *           TUCCOMPI_GPULAUNCH(relax, n, args...);   // grid covers n threads
 *           TUCCOMPI_GPUSYN();
 *   }
 *
 * Values of KERNELCHAR are checked at compile time: A is scatter, medium_coalesced,
 * coalesced or def; B is high, low, none or def; C and D are high, medium, low or def;
 * dims is 1 or 2. A kernel must be correct for any block size the tuner may choose
 * (it gets blockDim from the launch and must check its bounds).
 */
#ifndef TUCCOMPI_CUDA_H
#define TUCCOMPI_CUDA_H

#ifndef TUCCOMPI_API
/** Marks what the library exports (it is built with hidden visibility). */
#define TUCCOMPI_API __attribute__((visibility("default")))
#endif

#include <cuda_runtime.h>
#include <stdint.h>
#include <tuccompi_tune.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A characterised kernel (made by TUCCOMPI_KERNELCHAR). */
struct tuccompi_kernel
{
	struct tuccompi_kernel_char kc;
	void *state; /**< the library's per-device decisions; NULL until first launch */
};

/** What one launch uses. */
struct tuccompi_gpu_launch
{
	dim3 grid, block;
	size_t shmem;
	cudaStream_t stream;
	int timing; /**< library's: this launch is being measured (empirical mode) */
	int slot;
};

/** Choose the geometry for launching @p k (device function @p func) over nx * ny
 *  elements with @p shmem bytes of dynamic shared memory, on the calling worker's stream;
 *  applies the cache preference. Returns 0 or a negative errno (then tuccompi_last_error()). */
TUCCOMPI_API int tuccompi_gpu_begin(struct tuccompi_kernel *k, const void *func, uint64_t nx, uint64_t ny, size_t shmem,
		       struct tuccompi_gpu_launch *l);
/** After the <<<>>> launch: checks the launch error (aborts with a message naming the
 *  kernel: a failed launch is a programming error) and ends the measurement. */
TUCCOMPI_API void tuccompi_gpu_end(struct tuccompi_kernel *k, struct tuccompi_gpu_launch *l);
/** GPUSYN: wait for the calling worker's stream; collects empirical timings. */
TUCCOMPI_API int tuccompi_gpu_sync(void);
/** The stream kernels of the calling thread go to: the StarPU worker's stream inside a
 *  CUDA task, else the one set by tuccompi_gpu_set_stream() (default: stream 0). */
TUCCOMPI_API cudaStream_t tuccompi_gpu_stream(void);
/** Outside StarPU tasks (benchmarks, tools): the stream this thread launches on. */
TUCCOMPI_API void tuccompi_gpu_set_stream(cudaStream_t s);

/** The geometry the tuner would use now for @p k on the current device over nx*ny
 *  elements (no launch). */
TUCCOMPI_API int tuccompi_gpu_geometry(struct tuccompi_kernel *k, const void *func, uint64_t nx, uint64_t ny, size_t shmem,
			  struct tuccompi_geometry *out);

/** Properties of CUDA device @p dev in the tuner's terms, and its database key. */
TUCCOMPI_API int tuccompi_gpu_device_props(int dev, struct tuccompi_device_props *out, char *key, size_t keylen);

/** Characterisation and attributes of a kernel already launched on the current device, by
 *  name (for tools and benchmarks). -ENOENT if never launched. */
TUCCOMPI_API int tuccompi_gpu_kernel_info(const char *name, struct tuccompi_kernel_char *kc, struct tuccompi_kernel_attr *attr);

/** Forget every decision taken so far (after tuccompi_tune_set_mode() or force()). */
TUCCOMPI_API void tuccompi_gpu_reset_decisions(void);

#ifdef __cplusplus
}
#endif

/* Parameter values of KERNELCHAR, spelled as in Table 1 of the paper. */
#define TUCCOMPI_A_scatter TUCCOMPI_ACCESS_SCATTER
#define TUCCOMPI_A_medium_coalesced TUCCOMPI_ACCESS_MEDIUM_COALESCED
#define TUCCOMPI_A_coalesced TUCCOMPI_ACCESS_COALESCED
#define TUCCOMPI_A_def TUCCOMPI_ACCESS_DEF
#define TUCCOMPI_B_high TUCCOMPI_LEVEL_HIGH
#define TUCCOMPI_B_low TUCCOMPI_LEVEL_LOW
#define TUCCOMPI_B_none TUCCOMPI_LEVEL_NONE
#define TUCCOMPI_B_def TUCCOMPI_LEVEL_DEF
#define TUCCOMPI_C_high TUCCOMPI_LEVEL_HIGH
#define TUCCOMPI_C_medium TUCCOMPI_LEVEL_MEDIUM
#define TUCCOMPI_C_low TUCCOMPI_LEVEL_LOW
#define TUCCOMPI_C_def TUCCOMPI_LEVEL_DEF
#define TUCCOMPI_D_high TUCCOMPI_LEVEL_HIGH
#define TUCCOMPI_D_medium TUCCOMPI_LEVEL_MEDIUM
#define TUCCOMPI_D_low TUCCOMPI_LEVEL_LOW
#define TUCCOMPI_D_def TUCCOMPI_LEVEL_DEF

/** KERNELCHAR(kernel, dims, A, B, C, D): characterise @p kernel (Table 1 of the paper).
 *  A value outside the table does not compile ("TUCCOMPI_C_none was not declared"). */
#define TUCCOMPI_KERNELCHAR(kernel, dims, A, B, C, D)                                                             \
	static_assert((dims) == 1 || (dims) == 2, "KERNELCHAR(" #kernel "): dims must be 1 or 2");                   \
	static struct tuccompi_kernel tuccompi_kernel_##kernel = {                                                   \
		{ #kernel, (dims), TUCCOMPI_A_##A, TUCCOMPI_B_##B, TUCCOMPI_C_##C, TUCCOMPI_D_##D }, NULL              \
	}

/** The characterisation object of a kernel, for tuccompi_gpu_geometry() & co. */
#define TUCCOMPI_KERNEL(kernel) (&tuccompi_kernel_##kernel)

/** GPULAUNCH: launch a characterised kernel over nx elements (1-D) on this worker's stream. */
#define TUCCOMPI_GPULAUNCH(kernel, nx, ...) TUCCOMPI_GPULAUNCH2D(kernel, (nx), 1, __VA_ARGS__)

/** GPULAUNCH over nx * ny elements (2-D blocks and grid). */
#define TUCCOMPI_GPULAUNCH2D(kernel, nx, ny, ...)                                                                  \
	do                                                                                                         \
	{                                                                                                          \
		struct tuccompi_gpu_launch tuccompi_l_;                                                            \
		if (tuccompi_gpu_begin(&tuccompi_kernel_##kernel, (const void *)kernel, (nx), (ny), 0, &tuccompi_l_) == 0) \
		{                                                                                                  \
			kernel<<<tuccompi_l_.grid, tuccompi_l_.block, tuccompi_l_.shmem, tuccompi_l_.stream>>>(__VA_ARGS__); \
			tuccompi_gpu_end(&tuccompi_kernel_##kernel, &tuccompi_l_);                               \
		}                                                                                                  \
	} while (0)

/** GPUSYN: wait for the kernels this task launched. */
#define TUCCOMPI_GPUSYN() tuccompi_gpu_sync()

#endif
