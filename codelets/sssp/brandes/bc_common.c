/* What the betweenness engines share (bc_common.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batched/batch_gpu.h"
#include "brandes/bc_common.h"
#include "common/buffers.h"
#include "cpu/sssp_cpu.h"

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

int sssp_bc_prepare(const struct sssp_plan *p, struct sssp_bc_common *c, int zero_check, char *why, size_t whylen)
{
	const struct sssp_graph *g = p->g;
	c->in_rowptr = malloc(((size_t)g->n + 1) * sizeof(uint64_t));
	c->in_col = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
	c->in_w = malloc((g->m ? g->m : 1) * sizeof(uint32_t));
	uint32_t *tmp = zero_check ? malloc(2 * ((size_t)g->n + 1) * sizeof(uint32_t)) : NULL;
	if (!c->in_rowptr || !c->in_col || !c->in_w || (zero_check && !tmp))
	{
		free(tmp);
		snprintf(why, whylen, "out of memory for the graph's in-arcs (%llu arcs)", (unsigned long long)g->m);
		return -ENOMEM;
	}
	uint32_t cu, cv;
	int cyc = zero_check && sssp_brandes_zero_cycle(g, tmp, &cu, &cv);
	free(tmp);
	if (cyc)
	{
		snprintf(why, whylen,
			 "betweenness: arcs of weight 0 form a cycle (through the arc %u -> %u, ids from 0): the vertices on it have "
			 "infinitely many shortest paths; give those arcs a positive weight (an undirected edge of weight 0 "
			 "is such a cycle)",
			 cu, cv);
		return -EINVAL;
	}
	sssp_transpose(g, c->in_rowptr, c->in_col, c->in_w);
	if (p->o.cpu)
	{
		int ret = sssp_cpu_graph_packed(g, &c->packed, &c->packed_size, why, whylen);
		if (ret < 0)
			return ret;
		c->cpu_sssp_work = sssp_cpu_workspace_size(c->packed);
		c->cpu_brandes_work = sssp_brandes_cpu_work_size(g->n);
	}
	return 0;
}

void sssp_bc_free(struct sssp_bc_common *c)
{
	free(c->packed);
	free(c->in_rowptr);
	free(c->in_col);
	free(c->in_w);
	free(c->arc_in);
	memset(c, 0, sizeof(*c));
}

struct sssp_brandes_graph sssp_bc_graph_of(struct tuccompi_task *t, uint32_t n, uint64_t m)
{
	struct sssp_brandes_graph bg = {
		.n = n,
		.m = m,
		.rowptr = tuccompi_task_shared(t, SSSP_BC_SH_ROWPTR),
		.col = tuccompi_task_shared(t, SSSP_BC_SH_COL),
		.w = tuccompi_task_shared(t, SSSP_BC_SH_W),
		.in_rowptr = tuccompi_task_shared(t, SSSP_BC_SH_IN_ROWPTR),
		.in_col = tuccompi_task_shared(t, SSSP_BC_SH_IN_COL),
		.in_w = tuccompi_task_shared(t, SSSP_BC_SH_IN_W),
		.arc_in = tuccompi_task_shared(t, SSSP_BC_SH_ARC_IN),
	};
	return bg;
}

/* The workspace: the n distances, the bucket queue's scratch, Brandes' scratch. */
size_t sssp_bc_source_workspace(const struct sssp_bc_common *c, uint32_t n)
{
	return ALIGN64((size_t)n * sizeof(uint32_t)) + ALIGN64(c->cpu_sssp_work) + c->cpu_brandes_work;
}

int sssp_bc_cpu_source(const struct sssp_bc_common *c, const struct sssp_brandes_graph *bg, const void *packed,
		       uint32_t src, void *ws, struct sssp_summary *out, struct tuccompi_exact *acc, int edges, char *err,
		       size_t errlen)
{
	uint32_t *dist = ws;
	void *qwork = (char *)ws + ALIGN64((size_t)bg->n * sizeof(uint32_t));
	void *bwork = (char *)qwork + ALIGN64(c->cpu_sssp_work);
	sssp_cpu_run(packed, src, dist, qwork, out);
	out->source = src;
	/* the flows go in as the sweep finds them, after the one check that can fail */
	const double *delta = sssp_brandes_cpu(bg, src, dist, bwork, edges ? acc + bg->n : NULL, err, errlen);
	if (!delta)
		return -ELOOP;
	sssp_brandes_accumulate(acc, delta, bg->n, src);
	return 0;
}

void sssp_bc_cpu_task(struct tuccompi_task *t, void *arg)
{
	struct sssp_args *a = arg;
	const struct sssp_plan *p = a->plan;
	const struct sssp_bc_common *c = p->state;
	uint32_t src = *(const uint32_t *)tuccompi_task_input(t);
	struct tuccompi_exact *acc = tuccompi_task_reduce_buffer(t);
	if (!acc)
	{
		tuccompi_task_fail(t, -ENOMEM, "betweenness: %s", tuccompi_last_error());
		return;
	}
	struct sssp_brandes_graph bg = sssp_bc_graph_of(t, a->n, p->g->m);
	char err[256];
	if (sssp_bc_cpu_source(c, &bg, tuccompi_task_shared(t, SSSP_BC_SH_PACKED), src, tuccompi_task_workspace(t, 0),
			       tuccompi_task_result(t), acc, p->o.edge_betweenness, err, sizeof(err)) < 0)
		tuccompi_task_fail(t, -ELOOP, "%s", err);
}

size_t sssp_bc_reduce_size(const struct sssp_plan *p)
{
	return ((size_t)p->g->n + (p->o.edge_betweenness ? (size_t)p->g->m : 0)) * sizeof(struct tuccompi_exact);
}

int sssp_bc_taskset(struct sssp_plan *p, const struct sssp_bc_common *c, struct tuccompi_taskset_desc *desc,
		    int cpu_packed)
{
	const struct sssp_graph *g = p->g;
	struct sssp_args *a = desc->arg;
	desc->reduce = (struct tuccompi_reduce){
		.size = sssp_bc_reduce_size(p),
		.combine = tuccompi_reduce_sum_exact,
		.result = a->betweenness,
	};
	desc->nshared = 0;
	size_t n1 = ((size_t)g->n + 1) * sizeof(uint64_t), m4 = (size_t)g->m * sizeof(uint32_t);
	const void *ptr[SSSP_BC_NSHARED] = { c->packed, g->rowptr, g->col, g->w, c->in_rowptr, c->in_col, c->in_w, c->arc_in };
	size_t size[SSSP_BC_NSHARED] = { cpu_packed && c->packed ? c->packed_size : 0, n1, m4, m4, n1, m4, m4,
					 c->arc_in ? m4 : 0 };
	return sssp_share_buffers(desc, ptr, size, SSSP_BC_NSHARED);
}

uint64_t sssp_bc_gpu_shared(const struct sssp_plan *p, const struct sssp_bc_common *c)
{
	uint64_t n = p->g->n, m = p->g->m;
	return 2 * (8 * (n + 1) + 8 * m) + (c->arc_in ? 4 * m : 0);
}
