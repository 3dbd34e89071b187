/* Inside the SSSP plug-in: the engine interface. An engine is a pair of implementations (CPU, GPU)
 * of the SSSP task behind one struct of operations, as a StarPU scheduling policy or an hwloc
 * component is; the dispatcher (plan.c) lists the engines in one table, picks one by name or by
 * their own judgement (auto), and calls only these operations. An engine calls nothing of the
 * dispatcher: it reads the plan (struct sssp_plan), and what engines share (the task set's shared
 * buffers, the stream worker's GPU workspace and host rows, the GPU batch job, the graph's depth
 * rule the plan keeps, the one way to fail) lives below them, in common/. Not for the application,
 * which sees struct sssp_plan as opaque (sssp.h).
 *
 * Where the next engine work goes: a new output of the tasks is a field of struct sssp_args that
 * each engine's task functions fill and the engine's taskset() sizes, as the target columns
 * (args.targets: after the summary in each result), the harmonic sum (args.harmonic) and the
 * predecessor trees (args.pred: found on the host from each full row, tree.c) are. A new engine is
 * a file engine_NAME.c ending in its struct sssp_engine_ops, plus a line in plan.c's table and enum
 * sssp_engine. Betweenness is such an engine (engine_brandes.c): its tasks' contributions are the
 * task set's reduction (desc.reduce), not an output per source, so it makes no target columns,
 * rows or trees (the application refuses those options with it). */
#ifndef TUCCOMPI_SSSP_ENGINE_H
#define TUCCOMPI_SSSP_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "sssp.h"

struct sssp_engine_ops;

/** What a plan holds: the graph, the options, the engine and its own state. */
struct sssp_plan
{
	const struct sssp_graph *g;
	struct sssp_options o; /**< o.cuda is 0 in builds without CUDA and once the GPU was dropped */
	enum sssp_engine engine;
	const char *asked; /**< the name o.engine has ("auto" included), for the engines' messages */
	const struct sssp_engine_ops *ops;
	char reason[320];             /**< why this engine ("as asked", or auto's reason) */
	struct tuccompi_plugin plugin; /**< filled by ops->taskset */
	void *state;                  /**< the engine's own (NULL until pays or prepare sets it) */
	double prep_s;
	/** 1: a plan only judged, before the runtime starts (sssp_plan_mk_ahead): pays reads no cache and
	 *  leaves p->state NULL, and mk answers for a plan not prepared */
	int ahead;
	/** sssp_depth_rule(g) (common/depth.h), measured once per plan (a breadth-first search: several
	 *  engines' pays, prepare and mk ask it): sssp_plan_depth_rule() */
	uint32_t depth_rule;
	int depth_known;
};

/* What the plan keeps for its engines, defined below them (common/depth.c): an engine calls these,
 * never the dispatcher. */
/** The graph's depth rule (sssp_depth_rule: 0 on shallow graphs), measured at the first call and
 *  kept in the plan. */
uint32_t sssp_plan_depth_rule(const struct sssp_plan *p);
/** The batched GPU engine's bucket width for @p p: sssp_options::delta, or the depth rule. */
uint32_t sssp_plan_bucket_width(const struct sssp_plan *p);

/** An engine's operations. Required: name, mk, prepare, taskset, gpu_bytes, free. */
struct sssp_engine_ops
{
	const char *name; /**< as --engine spells it */
	/** The MK (batches at once per GPU) that suits the prepared engine when the user chose none; on a
	 *  plan not prepared (p->state NULL, p->ahead), the MK prepare would lead to. */
	int (*mk)(const struct sssp_plan *p);
	/** auto: would this engine pay here (the graph's shape, p->o.nsources, a cache)? 1: yes, and it
	 *  may leave in p->state what it found (a cached hierarchy) for prepare; 0: no, p->state left
	 *  NULL. Writes one line saying why in @p reason, either way (or, for a graph not of its kind,
	 *  leaves the reason of the engine asked before it). NULL: never chosen by judgement
	 *  (auto's default engine is the plan.c table's). */
	int (*pays)(struct sssp_plan *p, char *reason, size_t len);
	/** Precompute what the engine needs for p->g (p->state). 0, or a negative errno with one line
	 *  in @p why. An engine that auto chose may refuse a graph that does not suit it with -EDOM,
	 *  after writing auto's new reason into p->reason: auto then runs its default engine. */
	int (*prepare)(struct sssp_plan *p, char *why, size_t whylen);
	/** Fill p->plugin and desc's shared buffers (sssp_share_buffers) for a task set. */
	int (*taskset)(struct sssp_plan *p, struct tuccompi_taskset_desc *desc);
	/** GPU bytes of a task set: the shared buffers (*shared, copied to each GPU once) and the
	 *  returned bytes of one batch's workspace (@p with_rows: the larger ones for distance rows). */
	uint64_t (*gpu_bytes)(const struct sssp_plan *p, int with_rows, uint64_t *shared);
	/** Free what the engine keeps for its GPU implementation alone (the plan goes on with its CPU
	 *  units). NULL: it keeps nothing of the kind. */
	void (*drop_gpu)(struct sssp_plan *p);
	/** Free p->state (safe on a plan that pays or prepare left half-made). */
	void (*free)(struct sssp_plan *p);
};

/* The engines (one file each). */
extern const struct sssp_engine_ops sssp_engine_crauser; /* engine_crauser.c: the paper's */
extern const struct sssp_engine_ops sssp_engine_batched; /* engine_batched.c */
extern const struct sssp_engine_ops sssp_engine_phast;   /* engine_phast.c */
extern const struct sssp_engine_ops sssp_engine_brandes; /* engine_brandes.c: betweenness */
extern const struct sssp_engine_ops sssp_engine_dial;    /* engine_dial.c: small integer weights */

#endif
