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
 * A CUDA runtime call that must succeed: TUCCOMPI_CUDA_CHECK(call, prefix, why, whylen) (one line
 * into why, -EIO returned).
 *
 * Values of KERNELCHAR are checked at compile time: A is scatter, medium_coalesced,
 * coalesced or def; B is high, low, none or def; C and D are high, medium, low or def;
 * dims is 1 or 2. A kernel must be correct for any block size the tuner may choose
 * (it gets blockDim from the launch and must check its bounds), or be characterised with the one
 * block it was written for (KERNELCHAR_BLOCK).
 */
#ifndef TUCCOMPI_CUDA_H
#define TUCCOMPI_CUDA_H

#ifndef TUCCOMPI_API
/** Marks what the library exports (it is built with hidden visibility). */
#define TUCCOMPI_API __attribute__((visibility("default")))
#endif

#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <tuccompi_tune.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A characterised kernel (made by TUCCOMPI_KERNELCHAR or TUCCOMPI_KERNELCHAR_BLOCK). */
struct tuccompi_kernel
{
	struct tuccompi_kernel_char kc;
	void *state; /**< the library's per-device decisions; NULL until first launch */
	/** A kernel written for one block shape (KERNELCHAR_BLOCK): block_x x block_y threads at every
	 *  launch, in every mode; 0: the tuner chooses the block. */
	unsigned block_x, block_y;
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
	TUCCOMPI_KERNELCHAR_(kernel, dims, A, B, C, D, 0, 0)

/** KERNELCHAR_BLOCK(kernel, bx, by, A, B, C, D): KERNELCHAR for a kernel written for one block shape,
 *  bx x by threads (by 1: a 1-D kernel), because its shared arrays, its warp layout or its
 *  __launch_bounds__ are sized for it. Every launch gets that block, in every mode (the rules, a
 *  measurement, CUDA's recommendation or a forced geometry choose none other); the tuner chooses its
 *  L1/shared split from A, B, C, D as for any kernel. bx x by is a multiple of 32 up to 1024 (checked
 *  at compile time):
 *
 *    TUCCOMPI_KERNELCHAR_BLOCK(loop, 256, 1, scatter, low, high, low); // __shared__ uint32_t cnt[256 / 32]
 *    TUCCOMPI_KERNELCHAR_BLOCK(tile, 32, 8, coalesced, none, low, medium); // a 32 x 32 tile, 8 rows of threads */
#define TUCCOMPI_KERNELCHAR_BLOCK(kernel, bx, by, A, B, C, D)                                                      \
	static_assert((bx) >= 1 && (by) >= 1 && (bx) * (by) % 32 == 0 && (bx) * (by) <= 1024,                    \
		      "KERNELCHAR_BLOCK(" #kernel "): bx x by must be a multiple of 32 threads, up to 1024");           \
	TUCCOMPI_KERNELCHAR_(kernel, (by) > 1 ? 2 : 1, A, B, C, D, bx, by)

/* What KERNELCHAR and KERNELCHAR_BLOCK make: the checks of A, B, C, D and the kernel's object. */
#define TUCCOMPI_KERNELCHAR_(kernel, dims, A, B, C, D, bx, by)                                                     \
	static_assert(TUCCOMPI_KC_A(A) != -1,                                                               \
		      "KERNELCHAR(" #kernel "): A takes scatter, medium_coalesced, coalesced or def");               \
	static_assert(TUCCOMPI_KC_B(B) != -1, "KERNELCHAR(" #kernel "): B takes high, low, none or def");   \
	static_assert(TUCCOMPI_KC_C(C) != -1, "KERNELCHAR(" #kernel "): C takes high, medium, low or def"); \
	static_assert(TUCCOMPI_KC_D(D) != -1, "KERNELCHAR(" #kernel "): D takes high, medium, low or def"); \
	static struct tuccompi_kernel tuccompi_kernel_##kernel = {                                                   \
		{ #kernel, (dims), (enum tuccompi_access)TUCCOMPI_KC_A(A),                                    \
		  (enum tuccompi_level)TUCCOMPI_KC_B(B), (enum tuccompi_level)TUCCOMPI_KC_C(C),       \
		  (enum tuccompi_level)TUCCOMPI_KC_D(D) },                                                     \
		NULL, (bx), (by)                                                                                     \
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

/** The line of a CUDA runtime call that returned @p e: for an error, "PREFIX: CALL: CUDA's error
 *  string" into @p why (@p whylen bytes; nothing written when 0) and -EIO; 0 for cudaSuccess.
 *  TUCCOMPI_CUDA_CHECK's, and for code that stops otherwise on an error (a tool that exits). */
static inline int tuccompi_cuda_error(cudaError_t e, const char *prefix, const char *call, char *why, size_t whylen)
{
	if (e == cudaSuccess)
		return 0;
	if (why && whylen)
		snprintf(why, whylen, "%s: %s: %s", prefix, call, cudaGetErrorString(e));
	return -EIO;
}

/** TUCCOMPI_CUDA_CHECK(call, prefix, why, whylen): make the CUDA runtime call @p call; when it fails,
 *  write one line, "PREFIX: CALL: CUDA's error string", into @p why (@p whylen bytes) and return -EIO
 *  from the function it stands in, one that returns 0 or a negative errno as the library's calls do.
 *  A plug-in's CUDA function that does its CUDA calls in such a function fails its task with the line:
 *
 *    static int upload(const double *x, double *dx, size_t n, char *why, size_t whylen)
 *    {
 *            TUCCOMPI_CUDA_CHECK(cudaMemcpyAsync(dx, x, n * sizeof(*x), cudaMemcpyHostToDevice,
 *                                                tuccompi_gpu_stream()), "upload", why, whylen);
 *            return 0;
 *    }
 *    ...
 *            char why[256];
 *            int ret = upload(x, dx, n, why, sizeof(why));
 *            if (ret < 0)
 *                    tuccompi_task_fail(t, ret, "%s", why);
 *
 *  Work queued on a stream before the failure may still run: a function whose caller may free that
 *  work's memory after the error waits for the stream first. */
#define TUCCOMPI_CUDA_CHECK(call, prefix, why, whylen)                                                    \
	do                                                                                                \
	{                                                                                                 \
		int tuccompi_cuda_ret_ = tuccompi_cuda_error((call), (prefix), #call, (why), (whylen));   \
		if (tuccompi_cuda_ret_ < 0)                                                               \
			return tuccompi_cuda_ret_;                                                        \
	} while (0)

#endif
