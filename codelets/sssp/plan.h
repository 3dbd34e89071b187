/* Inside the SSSP plug-in: what a plan holds, shared by plugin.c and the engines' glue
 * (engine_*.c). Not for the application, which sees struct sssp_plan as opaque. */
#ifndef TUCCOMPI_SSSP_PLAN_H
#define TUCCOMPI_SSSP_PLAN_H

#include <stddef.h>

#include "sssp.h"

struct sssp_ch;

/* Shared buffers of a task set, by engine (tuccompi_task_shared() indices). */
enum
{
	/* crauser */
	SH_CRAUSER_ROWPTR = 0,
	SH_CRAUSER_COL,
	SH_CRAUSER_W,
	SH_CRAUSER_MINOUT,
	/* batched */
	SH_BATCH_PACKED = 0, /* the CPU engine's packed graph */
	SH_BATCH_ROWPTR,     /* out-arcs and in-arcs for the GPU (absent without CUDA units) */
	SH_BATCH_COL,
	SH_BATCH_W,
	SH_BATCH_IN_ROWPTR,
	SH_BATCH_IN_COL,
	SH_BATCH_IN_W,
};

struct sssp_plan
{
	const struct sssp_graph *g;
	struct sssp_options o;
	enum sssp_engine engine;
	char reason[320];
	struct tuccompi_plugin plugin;
	/* batched */
	void *packed;
	size_t packed_size;
	uint64_t *in_rowptr;
	uint32_t *in_col, *in_w;
	uint32_t delta;
	size_t cpu_work; /* bytes of CPU scratch after the n distances */
	/* phast */
	struct sssp_ch *ch;
	void *phast; /* engine_phast.c's state */
	double prep_s;
};

/* Register @n host buffers as the task set's next shared buffers (empty ones get a placeholder);
 * on failure none of the set's shared buffers stay registered. */
int sssp_share_buffers(struct tuccompi_taskset_desc *desc, const void *const *ptr, const size_t *size, unsigned n);

/* Row callback of a finished source (any engine). */
static inline void sssp_emit_row(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row)
{
	if (a->row && a->row(tuccompi_task_id(t), src, row, a->n, a->row_ctx) < 0)
		__atomic_store_n(&a->row_error, 1, __ATOMIC_RELAXED);
}

/* A GPU workspace of at least @bytes owned by the calling stream worker (engine_batched.c; NULL
 * when the device has no room). */
void *sssp_gpu_thread_workspace(size_t bytes);

/* engine_batched.c */
int sssp_batched_prepare(struct sssp_plan *p, char *why, size_t whylen);
int sssp_batched_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc);
void sssp_batched_free(struct sssp_plan *p);
/* GPU workspace of one batch (0 without CUDA). */
uint64_t sssp_batched_gpu_workspace(const struct sssp_plan *p, int with_rows);

/* engine_phast.c */
/* auto: would PHAST pay here (its hierarchy cached, or enough sources to earn its building)? */
int sssp_phast_pays(struct sssp_plan *p, char *reason, size_t len);
int sssp_phast_prepare(struct sssp_plan *p, char *why, size_t whylen);
int sssp_phast_taskset(struct sssp_plan *p, struct tuccompi_taskset_desc *desc);
void sssp_phast_free(struct sssp_plan *p);
/* The hierarchy's buffers, and the GPU workspace of one batch (0 without CUDA). */
uint64_t sssp_phast_shared_bytes(const struct sssp_plan *p);
uint64_t sssp_phast_gpu_workspace(const struct sssp_plan *p);

#endif
