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
 *  applies the cache preference. Returns 0, or a negative errno when the launch cannot be placed
 *  (-EINVAL for nx or ny 0, -EOVERFLOW for a grid too large, the tuner's error otherwise; then
 *  tuccompi_last_error() says "cannot launch kernel K: why"): GPULAUNCH then makes no launch,
 *  the next GPUSYN returns that error, and a job that made such a launch fails when its plug-in
 *  returns, whether or not the plug-in looked (its tasks run again, as after tuccompi_task_fail()). */
TUCCOMPI_API int tuccompi_gpu_begin(struct tuccompi_kernel *k, const void *func, uint64_t nx, uint64_t ny, size_t shmem,
		       struct tuccompi_gpu_launch *l);
/** After the <<<>>> launch: checks the launch error and ends the measurement. A launch CUDA
 *  refused (too many resources, an invalid configuration) is a failed launch as above: this
 *  thread's last error names the kernel and its geometry, GPUSYN returns it, the job fails. */
TUCCOMPI_API void tuccompi_gpu_end(struct tuccompi_kernel *k, struct tuccompi_gpu_launch *l);
/** GPUSYN: wait for the calling worker's stream; collects empirical timings. 0, or -EIO for a
 *  CUDA error on the stream, or the error of a launch since the last GPUSYN that was not made. */
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

/* How KERNELCHAR tells a value of the table from any other word: TUCCOMPI_KC_<P>_<word> is
 * "~, value" for a word of the table, so the second of its items is the value; any other word
 * pastes into one item, and the second is then -1, which a static_assert names. */
#define TUCCOMPI_KC_A_scatter ~, TUCCOMPI_ACCESS_SCATTER
#define TUCCOMPI_KC_A_medium_coalesced ~, TUCCOMPI_ACCESS_MEDIUM_COALESCED
#define TUCCOMPI_KC_A_coalesced ~, TUCCOMPI_ACCESS_COALESCED
#define TUCCOMPI_KC_A_def ~, TUCCOMPI_ACCESS_DEF
#define TUCCOMPI_KC_B_high ~, TUCCOMPI_LEVEL_HIGH
#define TUCCOMPI_KC_B_low ~, TUCCOMPI_LEVEL_LOW
#define TUCCOMPI_KC_B_none ~, TUCCOMPI_LEVEL_NONE
#define TUCCOMPI_KC_B_def ~, TUCCOMPI_LEVEL_DEF
#define TUCCOMPI_KC_C_high ~, TUCCOMPI_LEVEL_HIGH
#define TUCCOMPI_KC_C_medium ~, TUCCOMPI_LEVEL_MEDIUM
#define TUCCOMPI_KC_C_low ~, TUCCOMPI_LEVEL_LOW
#define TUCCOMPI_KC_C_def ~, TUCCOMPI_LEVEL_DEF
#define TUCCOMPI_KC_D_high TUCCOMPI_KC_C_high
#define TUCCOMPI_KC_D_medium TUCCOMPI_KC_C_medium
#define TUCCOMPI_KC_D_low TUCCOMPI_KC_C_low
#define TUCCOMPI_KC_D_def TUCCOMPI_KC_C_def
#define TUCCOMPI_KC_SECOND_(a, b, ...) b
#define TUCCOMPI_KC_SECOND(...) TUCCOMPI_KC_SECOND_(__VA_ARGS__)
/* The value of @word for parameter A, B, C or D; -1 when the table has no such word. */
#define TUCCOMPI_KC_A(word) TUCCOMPI_KC_SECOND(TUCCOMPI_KC_A_##word, -1, ~)
#define TUCCOMPI_KC_B(word) TUCCOMPI_KC_SECOND(TUCCOMPI_KC_B_##word, -1, ~)
#define TUCCOMPI_KC_C(word) TUCCOMPI_KC_SECOND(TUCCOMPI_KC_C_##word, -1, ~)
#define TUCCOMPI_KC_D(word) TUCCOMPI_KC_SECOND(TUCCOMPI_KC_D_##word, -1, ~)

/** KERNELCHAR(kernel, dims, A, B, C, D): characterise @p kernel (Table 1 of the paper):
 *   A  its global-memory accesses: scatter (data-dependent, uncoalesced), medium_coalesced (partly
 *      coalesced: strided, a few segments per warp), coalesced (consecutive threads, consecutive
 *      words), def (unknown: the tuner measures the kernel);
 *   B  arithmetic per thread against its global accesses: high, low, none (nothing beyond
 *      addressing), def;
 *   C  L1 lines it evicts against the L1's size (irregular accesses over much data): high, medium,
 *      low, def;
 *   D  data reused against its arithmetic: high, medium, low, def.
 *  The tuner's rules (docs/tuning.md) sort kernels into a few classes; one kernel of each:
 *
 *    TUCCOMPI_KERNELCHAR(relax, 1, scatter, low, high, low);   // scattered: edges of a graph
 *    TUCCOMPI_KERNELCHAR(axpy, 1, coalesced, low, low, low);   // light streaming: one thread per element
 *    TUCCOMPI_KERNELCHAR(stencil, 2, medium_coalesced, low, medium, high); // reuse: a tile and its halo
 *    TUCCOMPI_KERNELCHAR(pricer, 1, coalesced, high, low, low); // arithmetic: Monte-Carlo paths
 *    TUCCOMPI_KERNELCHAR(probe, 1, def, def, def, def);        // unknown: measured at its first launches
 *
 *  A kernel without global loads (it computes from its index and arguments, or only writes) is
 *  characterised by its writes and its arithmetic: A as its writes are (coalesced for one thread
 *  per element), B high when it computes (pricer) or none for a plain fill, C low and D low (it
 *  reads nothing to evict or reuse): TUCCOMPI_KERNELCHAR(fill, 1, coalesced, none, low, low).
 *
 *  A word outside these lists, or dims other than 1 or 2, does not compile. For
 *  TUCCOMPI_KERNELCHAR(k, 1, scatter, medium, high, low), g++ and nvcc say:
 *    error: static assertion failed: KERNELCHAR(k): B takes high, low, none or def
 *    error: static assertion failed with "KERNELCHAR(k): B takes high, low, none or def" */
#define TUCCOMPI_KERNELCHAR(kernel, dims, A, B, C, D)                                                             \
	static_assert((dims) == 1 || (dims) == 2, "KERNELCHAR(" #kernel "): dims must be 1 or 2");                   \
	static_assert(TUCCOMPI_KC_A(A) != -1,                                                               \
		      "KERNELCHAR(" #kernel "): A takes scatter, medium_coalesced, coalesced or def");               \
	static_assert(TUCCOMPI_KC_B(B) != -1, "KERNELCHAR(" #kernel "): B takes high, low, none or def");   \
	static_assert(TUCCOMPI_KC_C(C) != -1, "KERNELCHAR(" #kernel "): C takes high, medium, low or def"); \
	static_assert(TUCCOMPI_KC_D(D) != -1, "KERNELCHAR(" #kernel "): D takes high, medium, low or def"); \
	static struct tuccompi_kernel tuccompi_kernel_##kernel = {                                                   \
		{ #kernel, (dims), (enum tuccompi_access)TUCCOMPI_KC_A(A),                                    \
		  (enum tuccompi_level)TUCCOMPI_KC_B(B), (enum tuccompi_level)TUCCOMPI_KC_C(C),       \
		  (enum tuccompi_level)TUCCOMPI_KC_D(D) },                                                     \
		NULL                                                                                                 \
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
