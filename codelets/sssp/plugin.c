/* The SSSP plug-in's description: implementations, workspaces (PARLLMK), shared graph. */
#include <string.h>

#include "sssp.h"

int sssp_have_cuda(void)
{
#ifdef SSSP_WITH_CUDA
	return 1;
#else
	return 0;
#endif
}

/* Workspace 0: distances (4n bytes) on both kinds of unit. Workspaces 1 and 2: the CPU's
 * heap positions and heap (4n each); the GPU uses the first n bytes of 1 as vertex states
 * and the first bytes of 2 for its phase counters. */
void sssp_plugin_init(struct tuccompi_plugin *p, uint32_t n, int cpu, int cuda)
{
	memset(p, 0, sizeof(*p));
	p->name = "sssp";
	p->cpu = cpu ? sssp_cpu : NULL;
#ifdef SSSP_WITH_CUDA
	p->cuda = cuda ? sssp_cuda : NULL;
#else
	(void)cuda;
#endif
	p->result_size = sizeof(struct sssp_summary);
	size_t words = (size_t)n * sizeof(uint32_t);
	p->workspace_size[0] = words;
	p->workspace_size[1] = words > 64 ? words : 64;
	p->workspace_size[2] = words > 256 ? words : 256;
	p->nworkspaces = 3;
}

int sssp_shared_register(const struct sssp_graph *g, struct tuccompi_taskset_desc *desc)
{
	const void *ptr[4] = { g->rowptr, g->col, g->w, g->min_out };
	size_t size[4] = { ((size_t)g->n + 1) * sizeof(uint64_t), (size_t)g->m * sizeof(uint32_t),
			   (size_t)g->m * sizeof(uint32_t), (size_t)g->n * sizeof(uint32_t) };
	static const uint32_t dummy = 0; /* a graph without arcs still needs buffers */
	for (int k = 0; k < 4; k++)
	{
		int ret = tuccompi_shared_register(&desc->shared[k], size[k] ? ptr[k] : &dummy,
						   size[k] ? size[k] : sizeof(dummy));
		if (ret < 0)
		{
			while (k--)
				tuccompi_shared_unregister(desc->shared[k]);
			return ret;
		}
	}
	desc->nshared = 4;
	return 0;
}

void sssp_shared_unregister(struct tuccompi_taskset_desc *desc)
{
	for (unsigned k = 0; k < desc->nshared; k++)
		tuccompi_shared_unregister(desc->shared[k]);
	desc->nshared = 0;
}
