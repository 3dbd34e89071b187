// The batched GPU SSSP engine inside: what its device code (batch_gpu_kernels.cu) and its host
// driver (batch_gpu.cu) share. CUDA C++ only; the engine's interface is batch_gpu.h.
#ifndef TUCCOMPI_SSSP_BATCH_GPU_KERNELS_H
#define TUCCOMPI_SSSP_BATCH_GPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "batched/batch_gpu.h"
#include "batched/batch_gpu_logic.h"

#define LANES SSSP_BATCH_LANES // the widest traversal: 64 sources, the workspace's layout
#define MAX_WARPS 32           // blocks of at most 1024 threads
static_assert(LANES == 64, "the engine's widest traversal is K = 2 (two slots per lane)");

// Per-lane results of the summary kernel, and the control block the host reads back.
struct batch_dev
{
	struct sssp_batch_ctl ctl;
	unsigned long long kind_ns[SSSP_BATCH_DONE]; // time of the steps of each kind, barrier included
	unsigned long long t_last;                   // %globaltimer when the last step began
	unsigned long long sum[LANES];
	uint32_t ecc[LANES];
	uint32_t reached[LANES];
	unsigned long long harm_lo[LANES], harm_hi[LANES]; // sssp_harm of each lane
};

// Masks (F, FM, Qm) are K x 32-bit words per entry: typed by the device code of each K.
struct kparams
{
	uint32_t n, nsrc, chunk, sparse_popc;
	struct sssp_batch_cfg cfg;
	unsigned long long timeout_ns;
	const uint64_t *rowptr;
	const uint32_t *col, *w;
	const uint64_t *in_rowptr;
	const uint32_t *in_col, *in_w;
	uint32_t *dist;
	void *F[2], *FM, *Qm;
	uint32_t *L[2], *FL[2];
	uint32_t *Qv, *Qc;
	uint32_t *HPv, *HPc;
	struct batch_dev *dev;
	uint32_t *cnt;
	uint32_t src[LANES];
};

// Dynamic shared memory (sbuf): 2 x 32 words per warp (the append buffers), BATCH_LOOP_SHMEM(block).
#define BATCH_LOOP_SHMEM(threads) ((size_t)(threads) / 32 * 2 * 32 * sizeof(uint32_t))

// The kernels of one lane count (K = 1 or 2 sources per lane), as host-side handles for
// cudaLaunchKernel and the tuner: init (one for both), the device loop, summary, rows, the target
// columns (one for both).
struct batch_kernel_ptrs
{
	const void *init, *loop, *summary, *rows, *cols;
};
void batch_kernels_of(int K, struct batch_kernel_ptrs *k);

#endif
