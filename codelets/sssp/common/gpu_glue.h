/* What the engines that run a batch of sources on a GPU (batched, dial, brandes) do around their
 * run, the same for all: one job, sssp_gpu_batch_job: the batch's sources, its host rows and target
 * columns, the stream worker's workspace, the engine's run, then each source's summary, columns and
 * row, or the batch failed with one line. CUDA builds only; above buffers.c (the worker's pinned
 * buffers) and tree.c (rows and trees). */
#ifndef TUCCOMPI_SSSP_GPU_GLUE_H
#define TUCCOMPI_SSSP_GPU_GLUE_H

#include <stddef.h>
#include <stdint.h>

#include "sssp.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a GPU batch's target columns go: straight into the tasks' results (dst[i] for task i) when
 *  the results are registered with CUDA, the GPU writing them there; else the worker's pinned buffer
 *  (host: lanes x ntargets words), copied into the results after the run. Both NULL without targets. */
struct sssp_gpu_cols
{
	uint32_t **dst;
	uint32_t *host;
};

/** A GPU batch engine as sssp_gpu_batch_job runs it. */
struct sssp_gpu_batch_engine
{
	const char *prefix; /**< of its messages: "sssp batched engine" */
	unsigned lanes;     /**< host rows and columns sized for this many sources (0: the batch's) */
	/** 1: a task's result is its summary alone, whatever a->ntargets and a->row say (betweenness,
	 *  whose results are the task set's reduction): no rows, no target columns */
	int summaries_only;
	/** Bytes of the batch's GPU workspace (@p with_rows: distance rows asked). */
	size_t (*workspace)(const struct sssp_args *a, int with_rows);
	/** The batch's sources @p src (@p nsrc) on the calling worker's stream, in workspace @p ws: each
	 *  source's summary into out[i], its target columns as @p c says and, with @p rows (the batch's
	 *  host rows, a->n words each), its row. 0, or a negative errno with one line in @p why. */
	int (*run)(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src, unsigned nsrc, void *ws,
		   const struct sssp_gpu_cols *c, uint32_t *rows, struct sssp_summary *out, char *why, size_t whylen);
};

/** One batch of engine @p e (a plug-in's cuda_batch): the results of its tasks, or the batch failed
 *  (tuccompi_batch_fail) with "PREFIX: why". */
void sssp_gpu_batch_job(struct sssp_args *a, struct tuccompi_batch *b, const struct sssp_gpu_batch_engine *e);

#ifdef __cplusplus
}
#endif

#endif
