/* Host side of the batched GPU SSSP engine (batch_gpu.h): the transpose of a graph (the in-arcs its
 * PULL steps read) and the knobs' defaults. Its bucket width is the graph's depth rule
 * (common/depth.c). */
#include <string.h>

#include "batched/batch_gpu.h"
#include "batched/batch_gpu_logic.h"

void sssp_transpose(const struct sssp_graph *g, uint64_t *in_rowptr, uint32_t *in_col, uint32_t *in_w)
{
	uint32_t n = g->n;
	memset(in_rowptr, 0, ((size_t)n + 1) * sizeof(*in_rowptr));
	for (uint64_t e = 0; e < g->m; e++)
		in_rowptr[g->col[e] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		in_rowptr[v + 1] += in_rowptr[v];
	/* in_rowptr[t] is the next free slot of t while filling; afterwards it is t's end */
	for (uint32_t u = 0; u < n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint64_t k = in_rowptr[g->col[e]]++;
			in_col[k] = u;
			in_w[k] = g->w[e];
		}
	for (uint32_t v = n; v > 0; v--)
		in_rowptr[v] = in_rowptr[v - 1];
	in_rowptr[0] = 0;
}

void sssp_batch_knobs_default(struct sssp_batch_knobs *k)
{
	k->lanes = 0;
	k->pull_div = SSSP_BATCH_PULL_DIV;
	k->pull_density = SSSP_BATCH_PULL_DENSITY;
	k->sparse_popc = SSSP_BATCH_SPARSE_POPC;
	k->chunk_min = SSSP_BATCH_CHUNK_MIN;
	k->timeout_s = 60;
}
