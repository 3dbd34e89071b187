/* What the engines that run a batch of sources on a GPU (batched, dial) do around their run, the
 * same for all: where the batch's target columns go, and handing out each source's summary,
 * columns and row once the run is over. CUDA builds only; above buffers.c (the worker's pinned
 * buffers) and tree.c (rows and trees). */
#ifndef TUCCOMPI_SSSP_GPU_GLUE_H
#define TUCCOMPI_SSSP_GPU_GLUE_H

#include <stdint.h>

#include "sssp.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a GPU batch's target columns go (CUDA builds): straight into the tasks' results (dst[i] for
 *  task i) when the results are registered with CUDA, the GPU writing them there; else the worker's
 *  pinned buffer (host: lanes x ntargets words), copied by sssp_gpu_batch_results. */
struct sssp_gpu_cols
{
	uint32_t **dst;
	uint32_t *host;
};

/** Choose @p c for batch @p b of an engine of @p lanes sources at most: 0, or -ENOMEM after failing
 *  the batch. Nothing to do without targets (both NULL). */
int sssp_gpu_batch_cols(const struct sssp_args *a, struct tuccompi_batch *b, unsigned lanes, struct sssp_gpu_cols *c);

/** A GPU batch's end: each task's summary out[i], its target columns (from c->host, where the GPU did
 *  not write them in place) and, with @p rows (the batch's host rows, a->n words each), its row. */
void sssp_gpu_batch_results(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src,
			    const struct sssp_summary *out, const struct sssp_gpu_cols *c, const uint32_t *rows);

#ifdef __cplusplus
}
#endif

#endif
