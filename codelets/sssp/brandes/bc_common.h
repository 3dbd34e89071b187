/* What the betweenness engines share (brandes/engine_brandes.c, dial/engine_dial_brandes.c, and the
 * next one): the graph's in-arcs and the CPU engine's packed graph, the CPU units' task of one source
 * (the bucket queue's distances, then brandes_cpu.c's sweeps), a task set's shared buffers and its
 * reduction (every vertex's sum, then with sssp_options::edge_betweenness every arc's). Each engine's
 * state begins with struct sssp_bc_common, which the one-source task reads. */
#ifndef TUCCOMPI_SSSP_BC_COMMON_H
#define TUCCOMPI_SSSP_BC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <tuccompi.h>

#include "brandes/brandes.h"
#include "engine.h"

/* The shared buffers of a betweenness task set (tuccompi_task_shared() indices): the same for every
 * betweenness engine, those it does not use registered empty. */
enum
{
	SSSP_BC_SH_PACKED = 0, /* the CPU engine's packed graph (CPU units) */
	SSSP_BC_SH_ROWPTR,     /* out-arcs and in-arcs */
	SSSP_BC_SH_COL,
	SSSP_BC_SH_W,
	SSSP_BC_SH_IN_ROWPTR,
	SSSP_BC_SH_IN_COL,
	SSSP_BC_SH_IN_W,
	SSSP_BC_SH_ARC_IN, /* out-arc -> its place among the in-arcs (the brandes engine's GPU units) */
	SSSP_BC_NSHARED,
};

struct sssp_bc_common
{
	void *packed; /* with CPU units */
	size_t packed_size, cpu_sssp_work, cpu_brandes_work;
	uint64_t *in_rowptr;
	uint32_t *in_col, *in_w;
	uint32_t *arc_in; /* set by the engine that needs it */
};

/** In-arcs of p->g and, with CPU units, the packed graph; with @p zero_check, the refusal of a cycle of
 *  arcs of weight 0 (-EINVAL, one line in @p why). 0, or a negative errno. */
int sssp_bc_prepare(const struct sssp_plan *p, struct sssp_bc_common *c, int zero_check, char *why, size_t whylen);
void sssp_bc_free(struct sssp_bc_common *c);

/** The graph both ways as a task sees it (its shared buffers). */
struct sssp_brandes_graph sssp_bc_graph_of(struct tuccompi_task *t, uint32_t n, uint64_t m);

/** Bytes of the one-source CPU task's workspace 0 (sssp_bc_cpu_source). */
size_t sssp_bc_source_workspace(const struct sssp_bc_common *c, uint32_t n);

/** One source on a CPU core with @p ws (sssp_bc_source_workspace() bytes): its summary in *out, its
 *  dependencies into acc[0..n) (and its flows into acc[n..n + m) when @p edges). 0, or -ELOOP (a cycle
 *  of tight arcs of weight 0; nothing added) with one line in @p err. */
int sssp_bc_cpu_source(const struct sssp_bc_common *c, const struct sssp_brandes_graph *bg, const void *packed,
		       uint32_t src, void *ws, struct sssp_summary *out, struct tuccompi_exact *acc, int edges, char *err,
		       size_t errlen);

/** The plug-in's CPU function of one source per task (tuccompi_plugin::cpu) for either engine. */
void sssp_bc_cpu_task(struct tuccompi_task *t, void *arg);

/** The reduction's bytes: n sums, and m more with edge betweenness. */
size_t sssp_bc_reduce_size(const struct sssp_plan *p);

/** The part of a task set that every betweenness engine fills alike: the reduction into
 *  sssp_args::betweenness and the shared buffers (the packed graph when @p cpu_packed, the arc map
 *  when c->arc_in); the engine fills p->plugin before. */
int sssp_bc_taskset(struct sssp_plan *p, const struct sssp_bc_common *c, struct tuccompi_taskset_desc *desc,
		    int cpu_packed);

/** Bytes those shared buffers take on a GPU (the packed graph's excluded). */
uint64_t sssp_bc_gpu_shared(const struct sssp_plan *p, const struct sssp_bc_common *c);

#endif
