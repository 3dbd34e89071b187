/* What the SSSP engines share, below all of them: registering a task set's shared buffers, the
 * row callback of a finished source, and the calling worker's own buffers (a GPU workspace, host
 * rows), kept per thread and grown on demand. No engine owns these: each engine asks for them,
 * none reaches into another's. */
#ifndef TUCCOMPI_SSSP_BUFFERS_H
#define TUCCOMPI_SSSP_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "sssp.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Register @p n host buffers as the task set's next shared buffers (empty ones get a
 *  placeholder); on failure none of the set's shared buffers stay registered. */
int sssp_share_buffers(struct tuccompi_taskset_desc *desc, const void *const *ptr, const size_t *size, unsigned n);
/** Unregister every shared buffer of @p desc. */
void sssp_unshare_buffers(struct tuccompi_taskset_desc *desc);

/** Row callback of a finished source (any engine): a failure is noted in a->row_error. */
static inline void sssp_emit_row(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row)
{
	if (a->row && a->row(tuccompi_task_id(t), src, row, a->n, a->row_ctx) < 0)
		__atomic_store_n(&a->row_error, 1, __ATOMIC_RELAXED);
}

/** A GPU workspace of at least @p bytes owned by the calling stream worker (one batch at a time per
 *  worker, so never shared by concurrent batches: PARLLMK's rule); NULL when the device has no
 *  room. Allocated here rather than as a StarPU scratch buffer: StarPU allocates a workspace on
 *  every unit that runs a task, CPU cores included, where it pins main memory for CUDA, and
 *  pinning hundreds of MB per CPU worker costs seconds at start-up (docs/apsp.md). Only in CUDA
 *  builds. */
void *sssp_gpu_thread_workspace(size_t bytes);

/** Host memory for @p words distances owned by the calling worker, kept for the thread and grown on
 *  demand: pinned (for asynchronous copies from a GPU; CUDA builds) when @p pinned, else plain.
 *  NULL when there is no memory. */
uint32_t *sssp_thread_rows(size_t words, int pinned);

#ifdef __cplusplus
}
#endif

#endif
