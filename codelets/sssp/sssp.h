/* The SSSP plug-in of the APSP case study: one task = the shortest paths from one source, run by
 * one of several engines (enum sssp_engine) that all give exact integer distances. The paper's
 * engine: CPU Dijkstra with an indexed 4-ary heap, GPU Crauser's phases as three characterised
 * kernels (relax, minimum, update; Table 2 of the TuCCompi paper) launched through the tuner.
 * Inside: the engine interface (engine.h), the dispatcher (plan.c), one file per engine
 * (engine_*.c), what they share (buffers.c); docs/architecture.md draws the layers. */
#ifndef TUCCOMPI_SSSP_H
#define TUCCOMPI_SSSP_H

#include <stdint.h>
#include <tuccompi.h>

#include "sssp_types.h"

#ifdef __cplusplus
extern "C" {
#endif


struct sssp_plan;

/** Where full distance rows go (optional): called on the rank that ran the source, from a
 *  worker thread, with n distances (SSSP_INF for unreachable). Must be thread-safe. */
typedef int (*sssp_row_func)(uint64_t task_id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx);

/** Predecessor of a vertex that has none in a source's tree (the source, unreachable vertices):
 *  scipy.sparse.csgraph's value. */
#define SSSP_NO_PRED (-9999)

/** Where shortest-path trees go (optional): called like sssp_row_func with each source's n
 *  predecessors (sssp_pred_tree). Must be thread-safe. */
typedef int (*sssp_pred_func)(uint64_t task_id, uint32_t source, const int32_t *pred, uint32_t n, void *ctx);

/** What the plug-in functions receive (tuccompi_taskset_desc::arg). Zero-initialise; the outputs
 *  past the summary are optional. */
struct sssp_args
{
	uint32_t n;
	sssp_row_func row;  /**< NULL: no rows */
	void *row_ctx;
	int row_error;      /**< set (atomically) when a row could not be written */
	/** Betweenness plans (sssp_options::betweenness): where the sums land on the root rank, n entries
	 *  (tuccompi_exact_value() gives each vertex's; NULL: discarded), then with
	 *  sssp_options::edge_betweenness m more, each arc's in the order of the graph's arcs. */
	struct tuccompi_exact *betweenness;
	const struct sssp_plan *plan; /**< set by sssp_plan_taskset() */
	/** 1: the caller reads sssp_summary::harmonic. PHAST's sweeps compute it only then (a division
	 *  per vertex and source, about as much as the rest of a sweep on a CPU); the other engines always
	 *  do (a division per distance or per vertex, beside far more work). */
	int harmonic;
	/** Target columns: each task's result is its summary followed by the distances from its source
	 *  to targets[0 .. ntargets-1] (uint32, SSSP_INF when unreachable), sssp_result_size() bytes.
	 *  The batched and phast engines gather them on the GPU; kept by reference. */
	const uint32_t *targets;
	uint32_t ntargets;
	sssp_pred_func pred; /**< NULL: no trees; else every source's tree (sssp_pred_tree of its row) */
	void *pred_ctx;
	int pred_error;      /**< set (atomically) when a tree could not be written */
};

/** Bytes of a task's result (tuccompi_plugin::result_size) for @p a: the summary, then the target
 *  columns, rounded up to the summary's alignment (results lie end to end in one array, so an odd
 *  number of columns would leave every other summary misaligned). */
static inline size_t sssp_result_size(const struct sssp_args *a)
{
#ifdef __cplusplus
	size_t align = alignof(struct sssp_summary);
#else
	size_t align = _Alignof(struct sssp_summary);
#endif
	size_t bytes = sizeof(struct sssp_summary) + (size_t)a->ntargets * sizeof(uint32_t);
	return (bytes + align - 1) / align * align;
}

/** The target columns of a task's result (sssp_args::targets). */
static inline uint32_t *sssp_result_cols(void *result)
{
	return (uint32_t *)((struct sssp_summary *)result + 1);
}

/** The shortest-path tree of @p src in @p g from its exact distance row @p dist: pred[v] is the vertex
 *  before v on a shortest path, SSSP_NO_PRED for src and unreachable vertices: the last tight arc
 *  (d(u) + w(u, v) = d(v)) of positive weight into v in the order of the arcs, and where v's tight
 *  in-arcs all weigh 0, one from a walk of those that cannot close a cycle (tree.c). A tree whatever
 *  the ties, zero-weight arcs and cycles included. O(n + m), arcs read in memory order; @p queue:
 *  n entries of scratch. Ids must fit an int32. */
void sssp_pred_tree(const struct sssp_graph *g, uint32_t src, const uint32_t *dist, int32_t *pred, uint32_t *queue);

/* ================================================================ engines and plans
 *
 * An engine is a pair of implementations (CPU, GPU) of the SSSP task; a plan is an engine
 * prepared for one graph: whatever the engine precomputes (reverse arcs, a contraction
 * hierarchy, ...), the plug-in and the shared buffers of the task set. A plan is used as:
 * sssp_plan_create, sssp_plan_fit_gpu (MK and the GPU's memory, once), sssp_plan_taskset, run the
 * task set, sssp_plan_taskset_done, sssp_plan_free. */
enum sssp_engine
{
	SSSP_ENGINE_AUTO = 0, /**< chosen from the graph's measured shape and the number of sources */
	SSSP_ENGINE_CRAUSER,  /**< the paper's: CPU Dijkstra (heap), GPU Crauser phases, one source per task */
	SSSP_ENGINE_BATCHED,  /**< CPU bucket-queue Dijkstra; GPU frontier traversal of many sources at once */
	SSSP_ENGINE_PHAST,    /**< contraction hierarchy once, then PHAST sweeps (road networks) */
	SSSP_ENGINE_BRANDES,  /**< betweenness: the batched engine's traversals, then Brandes' sweeps; chosen by
			       *   sssp_options::betweenness, never by name */
	SSSP_ENGINE_DIAL,     /**< CPU bucket-queue Dijkstra; GPU 512 sources per traversal by levels of equal
			       *   distance (weights 1..64, shallow graphs: dial.h) */
	SSSP_ENGINE_DIAL_BRANDES, /**< betweenness: the dial engine's traversals, then Brandes' sweeps by its levels
				   *   (weights 1..64: dial_brandes.h); chosen by sssp_options::betweenness, never
				   *   by name */
};

/** A 64-bit hash of a graph's CSR arrays (ties caches and journals to one graph). */
uint64_t sssp_graph_hash(const struct sssp_graph *g);

/* Temporary files the plug-in writes (the contraction hierarchy's cache, beside its path, until it
 * is renamed into place): a program that removes its temporary files on signals
 * (apps/apsp/graph/outfile.h) gives its registry here, and each such file is tracked while it
 * exists (@p track returns a slot or < 0; @p untrack takes the slot back). NULL, NULL (the
 * default): no tracking. Set it once, before any plan. */
void sssp_set_tmp_hooks(int (*track)(const char *tmp), void (*untrack)(int slot));

/** "auto", "crauser", "batched", "phast", "dial" -> engine; -EINVAL (with a message in @p why) otherwise. */
int sssp_engine_parse(const char *name, enum sssp_engine *out, char *why, size_t whylen);
const char *sssp_engine_name(enum sssp_engine e);

/** Options of sssp_plan_create(). Zero-initialise, then set what you need. */
struct sssp_options
{
	enum sssp_engine engine;
	int cpu, cuda;        /**< implementations wanted (cuda only in CUDA builds) */
	uint64_t nsources;    /**< how many sources the plan will serve (auto weighs preprocessing with it) */
	const char *ch_cache; /**< PHAST: file caching the contraction hierarchy (NULL: none) */
	uint32_t delta;       /**< batched GPU engine: bucket width (0: from the graph) */
	unsigned threads;     /**< preprocessing threads (0: all cores) */
	int verbose;          /**< say on stderr what was chosen and what preprocessing cost */
	/** 1: betweenness centrality (Brandes): the task set also sums every vertex's dependencies into
	 *  sssp_args::betweenness (exactly, the same on any units, policy, ranks and engine); the tasks'
	 *  summaries stay as they are. @c engine then names the traversals it runs on: auto chooses (plan.c's
	 *  table of betweenness engines), dial runs the dial-brandes engine where the graph suits it, the
	 *  others the brandes engine. Graphs with a cycle of arcs of weight 0 are refused. */
	int betweenness;
	/** With betweenness: 1 to sum each arc's share of the shortest paths too (edge betweenness: sssp_args). */
	int edge_betweenness;
	uint32_t ntargets;    /**< target columns the task sets will ask for (sssp_args::targets): GPU memory */
	/** Bytes this rank's CPU workers' workspaces may take together (the caller's memory limit: a cgroup's,
	 *  --max-memory); 0: half the free memory. The dial engine's wide CPU form narrows to fit it. */
	uint64_t cpu_memory;
};

/** Prepare @p g (kept by reference: it must outlive the plan) for the engine of @p o.
 *  Returns 0 or a negative errno with one line in @p why. */
int sssp_plan_create(const struct sssp_graph *g, const struct sssp_options *o, struct sssp_plan **out, char *why,
		     size_t whylen);
/** The engine the plan runs, and one line saying why it was chosen (auto) or "as asked". */
enum sssp_engine sssp_plan_engine(const struct sssp_plan *p);
const char *sssp_plan_reason(const struct sssp_plan *p);
/** Seconds sssp_plan_create() spent preparing (building a contraction hierarchy, transposing). */
double sssp_plan_prepare_seconds(const struct sssp_plan *p);
/** 1 if the plan's task sets have a CUDA implementation (o.cuda, in a CUDA build, and the GPU
 *  not dropped by sssp_plan_fit_gpu()). */
int sssp_plan_uses_cuda(const struct sssp_plan *p);

/** What a task set of the plan runs with on each GPU (sssp_plan_fit_gpu()). */
struct sssp_gpu_fit
{
	int mk;        /**< batches at once per GPU (MK); 0: the GPU cannot hold one, the plan runs on CPU units */
	int lowered;   /**< 1: mk is below the MK asked (or the engine's own), to fit the GPU's memory */
	uint64_t need; /**< bytes of GPU memory at mk (at MK 1 when mk is 0): the shared buffers, copied to each
			*   GPU once, plus mk workspaces; 0 for a plan without CUDA */
	char why[512]; /**< when sssp_plan_fit_gpu() fails for another reason than the GPU's memory (auto's
			*   default engine could not be prepared): what went wrong; else empty */
};

/** The plan's one MK decision, with the GPU's memory. The MK wanted is @p asked, or when it is 0 the
 *  engine's own, at most @p cap (when cap > 0): 12 for phast (a pass's top levels are latency, which
 *  overlapping passes hide), 4 for crauser (the paper's one-source kernels leave a GPU mostly idle)
 *  and batched on deep graphs (small frontiers), 2 for batched and dial on shallow graphs (two
 *  traversals hide each other's sparse levels). It is lowered until the shared buffers and mk workspaces (@p
 *  with_rows: the engines' larger workspaces for distance rows) fit in @p room bytes (0: not limited).
 *  When not even one batch fits and auto chose the engine, the plan goes to auto's default engine
 *  (batched: fewer bytes per vertex than dial) and decides again (sssp_plan_engine() and
 *  sssp_plan_reason() say so). When not even one batch of that fits, the plan drops its CUDA implementation (and frees what it kept for it) and f->mk is 0,
 *  or, for a plan without CPU units, -ENOSPC is returned (f->need says how much was needed). A
 *  plan without CUDA: f->mk as wanted, f->need 0. Call before sssp_plan_taskset(). */
int sssp_plan_fit_gpu(struct sssp_plan *p, int asked, int cap, uint64_t room, int with_rows, struct sssp_gpu_fit *f);

/** The engine's own MK (as sssp_plan_fit_gpu() would take it) for a plan of @p g and @p o, judged before
 *  any plan is made, so before tuccompi_init(), which starts the stream workers (tuccompi_conf.mk_max):
 *  it prepares nothing and reads no cache, and judges auto's choice as sssp_plan_create() would, taking
 *  a contraction-hierarchy cache that is there as valid. 0 when @p o has no CUDA implementation (or
 *  the build has no CUDA) or names no engine. The plan made later may want less (a stale cache, auto
 *  falling back to its default engine), never more. */
int sssp_plan_mk_ahead(const struct sssp_graph *g, const struct sssp_options *o);

/** Fill @p desc (plugin, arg, shared buffers, batch sizes) for the sources at @p sources
 *  (k entries, kept by reference) with @p args as the plug-in's argument. Registers the shared
 *  buffers (tuccompi_shared_register: after tuccompi_init()). */
int sssp_plan_taskset(struct sssp_plan *p, const uint32_t *sources, uint64_t k, struct sssp_args *args,
		      struct tuccompi_taskset_desc *desc);
/** Unregister what sssp_plan_taskset() registered. */
void sssp_plan_taskset_done(struct sssp_plan *p, struct tuccompi_taskset_desc *desc);
void sssp_plan_free(struct sssp_plan *p);

/* ================================================================ the paper's engine, piece by piece */

/** Fill @p p for a graph of n vertices. cpu / cuda select the implementations wanted
 *  (the CUDA one only exists in CUDA builds: sssp_have_cuda()). */
void sssp_plugin_init(struct tuccompi_plugin *p, uint32_t n, int cpu, int cuda);
int sssp_have_cuda(void);

/** Register the graph as the task set's shared buffers (rowptr, col, w, min_out), in
 *  that order, into desc->shared[0..3]; unregister with sssp_shared_unregister(). */
int sssp_shared_register(const struct sssp_graph *g, struct tuccompi_taskset_desc *desc);
void sssp_shared_unregister(struct tuccompi_taskset_desc *desc);

/** The CPU algorithm alone (used by the plug-in, tests and benchmarks): fills dist (n) and
 *  the summary. heap and pos are scratch arrays of n entries each. */
void sssp_dijkstra(const struct sssp_graph *g, uint32_t src, uint32_t *dist, uint32_t *heap, uint32_t *pos,
		   struct sssp_summary *out);

/* The GPU algorithm alone, on the calling thread's stream (tuccompi_gpu_stream()): for the
 * plug-in and for benchmarks that drive streams themselves. Device pointers. */
struct sssp_gpu_graph
{
	uint32_t n;
	const uint64_t *rowptr;
	const uint32_t *col, *w, *min_out;
};
struct sssp_gpu_work
{
	uint32_t *dist;  /**< n */
	uint8_t *state;  /**< n */
	void *misc;      /**< sssp_gpu_misc_size() bytes */
};
size_t sssp_gpu_misc_size(void);
/** One SSSP; row (pinned host memory, n entries) receives the distances when not NULL. 0, or -EIO
 *  with one line in @p err (a failed CUDA call). */
int sssp_gpu_run(const struct sssp_gpu_graph *g, uint32_t src, const struct sssp_gpu_work *w, uint32_t *row,
		 struct sssp_summary *out, char *err, size_t errlen);

/* implementations (plug-in functions) */
void sssp_cpu(struct tuccompi_task *t, void *arg);
void sssp_cuda(struct tuccompi_task *t, void *arg);

#ifdef __cplusplus
}
#endif

#endif
