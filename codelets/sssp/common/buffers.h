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

/** The CPU engine's packed copy of @p g (sssp_cpu.c), 64-byte aligned, for the engines whose CPU units
 *  run it: *packed (free() it) and its size in bytes. 0, or -ENOMEM with the reason in @p why. */
int sssp_cpu_graph_packed(const struct sssp_graph *g, void **packed, size_t *size, char *why, size_t whylen);

/** Whether the engines must bring each source's full row to the host: for the rows callback, or
 *  for the tree that sssp_emit_row() derives from the row. */
static inline int sssp_wants_rows(const struct sssp_args *a)
{
	return a->row != NULL || a->pred != NULL;
}

/** The tree of a finished source, from its row, to a->pred (tree.c): on the calling worker, with
 *  its own scratch. 0, or a negative errno (no memory, or the callback's). */
int sssp_emit_pred(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row);

/** sssp_emit_row() for the @p nsrc rows of a GPU batch (task i of @p b, source src[i], row rows[i]):
 *  with trees to make, on the cores that no CPU worker holds as well as the calling thread. */
void sssp_emit_batch_rows(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src,
			  const uint32_t *const *rows, unsigned nsrc);

/** What a finished source's host row gives (any engine): the row callback, and the tree. A failure
 *  is noted in a->row_error or a->pred_error. */
static inline void sssp_emit_row(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row)
{
	if (a->row && a->row(tuccompi_task_id(t), src, row, a->n, a->row_ctx) < 0)
		__atomic_store_n(&a->row_error, 1, __ATOMIC_RELAXED);
	if (a->pred && sssp_emit_pred(a, t, src, row) < 0)
		__atomic_store_n(&a->pred_error, 1, __ATOMIC_RELAXED);
}

/** The target columns of a task's result from its host row (engines that have one). */
static inline void sssp_emit_cols(const struct sssp_args *a, struct tuccompi_task *t, const uint32_t *row)
{
	uint32_t *c = sssp_result_cols(tuccompi_task_result(t));
	for (uint32_t j = 0; j < a->ntargets; j++)
		c[j] = row[a->targets[j]];
}

/** Register the target list as the task set's next shared buffer (for an engine that gathers the
 *  columns on the GPU: the device then has its copy); nothing without targets. */
int sssp_share_targets(struct tuccompi_taskset_desc *desc, const struct sssp_args *a);

/** A GPU workspace of at least @p bytes owned by the calling stream worker (one batch at a time per
 *  worker, so never shared by concurrent batches: PARLLMK's rule); NULL when the device has no
 *  room. Allocated here rather than as a StarPU scratch buffer: StarPU allocates a workspace on
 *  every unit that runs a task, CPU cores included, where it pins main memory for CUDA, and
 *  pinning a GPU workspace's bytes per CPU worker would cost the start-up that time. Only in CUDA
 *  builds. */
void *sssp_gpu_thread_workspace(size_t bytes);

/** 1 when @p p lies in host memory registered with CUDA (cudaHostRegister, e.g. the library's
 *  large results, or cudaMallocHost): a GPU can copy into it by DMA. 0 otherwise and without CUDA. */
int sssp_host_registered(const void *p);

/** Copy @p k sources' target columns (@p dev: k x ntargets words on the device) to dst[i] (each
 *  ntargets words of host memory, registered for the copy to be DMA) on @p stream, asynchronously:
 *  one 2-D copy per run of sources whose dst are @p pitch bytes apart (results in a task set).
 *  0 (cudaSuccess), or the cudaError_t of the copy CUDA refused. CUDA builds only. */
int sssp_gpu_cols_to_host(uint32_t *const *dst, size_t pitch, const uint32_t *dev, uint32_t ntargets, unsigned k,
			  void *stream);

/** Host memory for @p words distances owned by the calling worker, kept for the thread and grown on
 *  demand: pinned (for asynchronous copies from a GPU; CUDA builds) when @p pinned, else plain.
 *  NULL when there is no memory. */
uint32_t *sssp_thread_rows(size_t words, int pinned);

/** The same for the target columns of a batch (a second buffer of the worker's, beside its rows). */
uint32_t *sssp_thread_cols(size_t words, int pinned);

/** Plain host scratch of @p bytes owned by the calling worker (tree.c's walks), kept and grown. */
void *sssp_thread_scratch(size_t bytes);
/** Free the calling thread's scratch (a thread that ends, or it stays allocated). */
void sssp_thread_scratch_free(void);

#ifdef __cplusplus
}
#endif

#endif
