/*
 * libtuccompi-starpu: the TuCCompi multi-layer model on StarPU.
 *
 * The paper's coordination level maps onto this API as follows:
 *
 *   TuCCompi_COMM()              tuccompi_init()
 *   TuCCompi_SETMK(n)            tuccompi_set_mk()
 *   TuCCompi_PARALLEL(policy,..) tuccompi_parallel()   (non-blocking)
 *   TuCCompi_SYN()               tuccompi_wait()        (collective)
 *   TuCCompi_ENDCOMM()           tuccompi_finalize()
 *
 * The deployment level (plug-ins) is a struct tuccompi_plugin: a CPU and/or a CUDA
 * function solving one task, which read their task through the tuccompi_task_*()
 * accessors. The CUDA launch helpers (GPULAUNCH/GPUSYN) and the tuner live in
 * <tuccompi_cuda.h> and <tuccompi_tune.h>.
 *
 * Every call returns 0 (or a count) on success and a negative errno value on
 * failure; tuccompi_last_error() then holds one line saying what went wrong and
 * how to fix it.
 */
#ifndef TUCCOMPI_H
#define TUCCOMPI_H

#ifndef TUCCOMPI_API
/** Marks what the library exports (it is built with hidden visibility). */
#define TUCCOMPI_API __attribute__((visibility("default")))
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this header. */
#define TUCCOMPI_VERSION_MAJOR 0
#define TUCCOMPI_VERSION_MINOR 2
#define TUCCOMPI_VERSION_PATCH 0

/** Upper bounds of a few fixed-size tables. */
#define TUCCOMPI_MAX_SHARED 16    /**< shared read-only buffers per task set */
#define TUCCOMPI_MAX_WORKSPACES 8 /**< PARLLMK workspaces per plug-in */
#define TUCCOMPI_MAX_MK 32        /**< concurrent kernels per GPU */
#define TUCCOMPI_MAX_BATCH 4096   /**< tasks in one batch (tuccompi_plugin::batch_max) */

/* ================================================================ errors */

/** One line describing the last failure of a tuccompi_ call in this thread (what, where, how
 *  to fix), or "". tuccompi_parallel() and tuccompi_wait() clear it when they start, so it never
 *  tells of an earlier failure after they succeed. */
TUCCOMPI_API const char *tuccompi_last_error(void);

/** Short text for a (negative) error code returned by this library. */
TUCCOMPI_API const char *tuccompi_strerror(int err);

/* ================================================================ the library */

/** Version of the library linked at run time, "MAJOR.MINOR.PATCH". */
TUCCOMPI_API const char *tuccompi_version(void);
/** Nonzero when the library was built with CUDA plug-in support / the cross-node layer
 *  (StarPU-MPI over Open MPI) / FxT tracing. */
TUCCOMPI_API int tuccompi_have_cuda(void);
TUCCOMPI_API int tuccompi_have_mpi(void);
TUCCOMPI_API int tuccompi_have_fxt(void);

/** Seconds on a monotonic clock, from an arbitrary origin: the one clock of the library, its
 *  schedulers, plug-ins and programs (the run summary's times are on it). Callable before
 *  tuccompi_init() and from any thread. */
TUCCOMPI_API double tuccompi_wtime(void);

/* ================================================================ COMM / ENDCOMM */

/** Start-up options; fill with tuccompi_conf_init() then change what you need. */
struct tuccompi_conf
{
	/** Concurrent tasks per GPU (SETMK's initial value). 0: $TUCCOMPI_MK, else 1. */
	int mk;
	/** Stream workers StarPU creates per GPU; SETMK may choose any MK up to it.
	 *  0: $TUCCOMPI_MK_MAX, else max(mk, 4). */
	int mk_max;
	/** CPU workers of this rank; -1: StarPU's default (all cores not driving a GPU); 0: no CPU
	 *  unit, GPUs only (then tuccompi_init() returns -ENODEV on a node without a GPU). StarPU's
	 *  STARPU_NCPU, when set, wins over it. */
	int ncpus;
	/** CUDA devices of this rank; -1: all; 0: CPU cores only. STARPU_NCUDA, when set, wins. */
	int ncuda;
	/** Use MPI: 1 yes, 0 no, -1 (default): when launched by mpirun/mpiexec. */
	int use_mpi;
	/** When non-NULL, record an FxT trace of the run and convert it into
	 *  trace_dir/paje.trace at tuccompi_finalize(). NULL: $TUCCOMPI_TRACE. */
	const char *trace_dir;
	/** 1: print nothing but errors. */
	int quiet;
};

/** Fill @p conf with the defaults described above. */
TUCCOMPI_API void tuccompi_conf_init(struct tuccompi_conf *conf);

/** COMM: start StarPU (and StarPU-MPI over Open MPI when running under mpirun),
 *  one rank per node. @p argc / @p argv may be NULL. @p conf may be NULL for defaults.
 *  In a CUDA build it sets CUDA_MODULE_LOADING=EAGER unless the variable is set (every kernel
 *  loaded when CUDA starts, not at a first launch that would wait for the GPU's other streams);
 *  a program that starts CUDA before this call should set it itself.
 *  Returns 0, -EALREADY if already started, -ENODEV if StarPU found no worker. */
TUCCOMPI_API int tuccompi_init(int *argc, char ***argv, const struct tuccompi_conf *conf);

/** ENDCOMM: wait for everything, stop StarPU (and MPI if tuccompi_init started it),
 *  write the trace if one was requested. Collective over ranks. If the 1st layer had stopped
 *  (a rank lost, ranks whose calls parted: every rank said why), it returns -ECONNABORTED at once,
 *  leaving StarPU and MPI as they are (MPI_Finalize would wait for the lost ranks): end the process
 *  with a non-zero status then. */
TUCCOMPI_API int tuccompi_finalize(void);

/** This process's rank (0 without MPI); after tuccompi_finalize() still the rank it had. */
TUCCOMPI_API int tuccompi_rank(void);
/** Number of ranks (1 without MPI). */
TUCCOMPI_API int tuccompi_nranks(void);
/** Before tuccompi_init() too: the processes the launcher started (Open MPI's, PMI's or PMIx's
 *  environment), 1 when no launcher started this one. What tuccompi_nranks() will say once the
 *  runtime runs with MPI; a program that reads standard input (which reaches rank 0 only) may read
 *  it before starting the runtime when this is 1. */
TUCCOMPI_API int tuccompi_launched_ranks(void);
/** Nonzero when the cross-node layer is active (MPI with at least one rank). */
TUCCOMPI_API int tuccompi_mpi_active(void);

/** Host work beside the runtime. Between tuccompi_init() and tuccompi_finalize() the node's workers
 *  (its CPU workers and its GPUs' host threads) poll for tasks, so that a task starts at once; they
 *  also take whole cores from this process's other threads. Between tuccompi_host_work_begin() and
 *  its tuccompi_host_work_end() they sleep instead, for host work that wants every core (building an
 *  index on all cores, parsing on several threads: with the workers polling, such work gets only the
 *  cores they leave). Tasks submitted meanwhile wait until the end, so a program must
 *  not wait for its tasks (tuccompi_wait()) in between. Calls nest (the workers wake at the last
 *  end); from one thread; local to this process; outside tuccompi_init() .. tuccompi_finalize() they
 *  do nothing, and tuccompi_finalize() ends any left. */
TUCCOMPI_API void tuccompi_host_work_begin(void);
TUCCOMPI_API void tuccompi_host_work_end(void);

/* ================================================================ collectives for applications */

/* Between tuccompi_init() and tuccompi_finalize(), over every rank (local no-ops on one
 * rank), called in the same order on every rank from one thread at a time, as the library's own
 * collective calls (tuccompi_parallel(), tuccompi_wait()). They travel as StarPU-MPI messages with
 * the library's own tags (at or above 2^62: an application's StarPU-MPI tags stay below), so they
 * show in traces. A bad argument on one rank fails the call on every rank, naming that rank; a lost
 * rank or ranks whose calls differ stop the library's 1st layer (every later call fails at once). */

/** Wait until every rank has called it. */
TUCCOMPI_API int tuccompi_barrier(void);
/** Copy @p bytes at @p buf on rank @p root to @p buf on every rank. */
TUCCOMPI_API int tuccompi_bcast(void *buf, size_t bytes, int root);

/** Reduction operators of tuccompi_allreduce_i64(). */
enum tuccompi_op
{
	TUCCOMPI_OP_MIN,
	TUCCOMPI_OP_MAX,
	TUCCOMPI_OP_SUM,
	TUCCOMPI_OP_AND, /**< logical: nonzero on every rank gives 1 */
};
/** Reduce @p count values element-wise over the ranks; every rank gets the result in place. */
TUCCOMPI_API int tuccompi_allreduce_i64(int64_t *values, unsigned count, enum tuccompi_op op);
/** End the whole job with exit code @p code: every rank under mpirun (MPI_Abort), this
 *  process otherwise (also when the 1st layer has stopped: MPI_Abort cannot cross a lost link; mpirun
 *  ends the others). For fatal errors on one rank that the others cannot know of. */
TUCCOMPI_API void tuccompi_abort(int code) __attribute__((noreturn));

/* ================================================================ units */

/** A computational unit: a CPU core, or a GPU with its MK stream workers. */
enum tuccompi_unit_kind
{
	TUCCOMPI_UNIT_CPU = 0,
	TUCCOMPI_UNIT_CUDA = 1,
};

/** Number of units of @p kind on this node. */
TUCCOMPI_API int tuccompi_unit_count(enum tuccompi_unit_kind kind);

/** Memory of the smallest unit of @p kind on this node (for a GPU its device memory, as StarPU
 *  manages it: STARPU_LIMIT_CUDA_MEM lowers it), in bytes: @p total, and what StarPU has not
 *  allocated yet in @p available (either may be NULL). -ENODEV when there is no such unit,
 *  -ENOSYS when StarPU does not know. */
TUCCOMPI_API int tuccompi_unit_memory(enum tuccompi_unit_kind kind, uint64_t *total, uint64_t *available);

/** Register host memory that GPU plug-ins will write, e.g. a task set's results before
 *  tuccompi_parallel(), so that they copy into it by DMA (StarPU's starpu_memory_pin():
 *  cudaHostRegister). The library registers large results itself for a set's life
 *  (tuccompi_taskset_desc::results); registering them here, once, takes that cost (it grows with
 *  the bytes registered) out of the set's time and lets several sets share it. Returns 1 when the memory is
 *  registered, 0 when there is nothing to do (no GPU on this node, StarPU's pinning off),
 *  -EINVAL for a NULL or empty range, -EIO when CUDA refuses. Undo with tuccompi_memory_unpin()
 *  before freeing the memory. */
TUCCOMPI_API int tuccompi_memory_pin(void *addr, size_t bytes);

/** Undo tuccompi_memory_pin() (nothing when the memory is not registered). 0, or -EIO. */
TUCCOMPI_API int tuccompi_memory_unpin(void *addr, size_t bytes);

/** The smallest results the library registers for a set's life (tuccompi_taskset_desc::results):
 *  TUCCOMPI_PIN_RESULTS, default 64 MiB, 0 for never, in @p min; for a caller that registers its
 *  own results beforehand by the same rule. 0, or -EINVAL for a bad TUCCOMPI_PIN_RESULTS. */
TUCCOMPI_API int tuccompi_pin_results_min(size_t *min);

/** Describe the units of this node on @p f (one line each). */
TUCCOMPI_API void tuccompi_print_units(FILE *f);

/** SETMK: run @p mk tasks concurrently on each GPU (1..mk_max of tuccompi_conf).
 *  Applies to task sets started afterwards. Returns -EINVAL when out of range. */
TUCCOMPI_API int tuccompi_set_mk(int mk);

/** Current MK. */
TUCCOMPI_API int tuccompi_get_mk(void);

/* ================================================================ plug-ins (deployment level) */

/** What a plug-in function receives: one task of a task set. Opaque. */
struct tuccompi_task;

/** A plug-in implementation: solves the task @p task. @p arg is tuccompi_taskset_desc::arg.
 *  A CUDA implementation runs on a host thread of its own, launches on
 *  tuccompi_gpu_stream() (<tuccompi_cuda.h>; GPULAUNCH does) and must have finished its device
 *  work when it returns (GPUSYN, tuccompi_gpu_sync()). */
typedef void (*tuccompi_plugin_func)(struct tuccompi_task *task, void *arg);

/** Several tasks of one task set run by one call (see tuccompi_plugin::cpu_batch). Opaque. */
struct tuccompi_batch;

/** A batch implementation: solves every task of @p batch (tuccompi_batch_size() of them,
 *  at most tuccompi_plugin::batch_max[kind], possibly fewer at the end of a set). Same rules
 *  as tuccompi_plugin_func for CUDA. Results and inputs stay per task
 *  (tuccompi_batch_task() then tuccompi_task_result() ...). */
typedef void (*tuccompi_batch_func)(struct tuccompi_batch *batch, void *arg);

/** A plug-in: the code of one task, for CPU cores and/or GPUs. */
struct tuccompi_plugin
{
	/** Name, for traces, performance models and the tuning database: one name, one plug-in
	 *  (tuccompi_parallel() refuses a second plug-in of a name already used with other code). */
	const char *name;
	/** CPU implementation, or NULL when there is none. */
	tuccompi_plugin_func cpu;
	/** CUDA implementation, or NULL when there is none (or built without CUDA). */
	tuccompi_plugin_func cuda;
	/** Bytes of result each task writes through tuccompi_task_result() (may be 0). */
	size_t result_size;
	/** PARLLMK: private workspaces of workspace_size[k] bytes (each at least 1), in the memory of
	 *  the unit that runs the job (device memory on a GPU): one per StarPU worker (each of a GPU's
	 *  MK stream workers has its own), so no two tasks running at once share one; the tasks of a
	 *  batch, run by one call, share it. The same sizes serve every kind of unit: a plug-in whose
	 *  CPU and CUDA code need different sizes gives the larger (a batch implementation: enough for
	 *  its batch_max). They are not initialised, by the library or by StarPU (STARPU_SCRATCH): a
	 *  worker's first job finds whatever the allocator gave (fresh device memory, or a buffer StarPU
	 *  freed and keeps for reuse), a later one usually what the worker's last job of the set left;
	 *  a plug-in that needs zeros clears them itself (memset, or cudaMemsetAsync on
	 *  tuccompi_gpu_stream()). */
	size_t workspace_size[TUCCOMPI_MAX_WORKSPACES];
	/** Number of entries used in workspace_size (the first nworkspaces). */
	unsigned nworkspaces;
	/** Task batches: implementations that run up to batch_max[kind] tasks in one call
	 *  (e.g. one traversal of a graph for 64 sources). Where given they are used instead of
	 *  cpu / cuda; a task set's batch size per kind of unit is tuccompi_taskset_desc::batch
	 *  (0: the tuning database's choice, else batch_max). Workspaces are per batch. */
	tuccompi_batch_func cpu_batch;
	tuccompi_batch_func cuda_batch;
	/** Largest batch each batch implementation accepts, indexed by enum tuccompi_unit_kind
	 *  (1..TUCCOMPI_MAX_BATCH; 0 when there is no batch implementation of that kind). */
	unsigned batch_max[2];
};

/** Task id in [0, ntasks) of the task set. */
TUCCOMPI_API uint64_t tuccompi_task_id(const struct tuccompi_task *task);
/** The task's input: desc->inputs + id * desc->input_size, or NULL. Host memory. */
TUCCOMPI_API const void *tuccompi_task_input(const struct tuccompi_task *task);
/** Where the task writes its result (plugin->result_size bytes). Host memory, also
 *  for a CUDA implementation (copy the result there before returning). */
TUCCOMPI_API void *tuccompi_task_result(struct tuccompi_task *task);
/** Shared read-only buffer @p k, in the memory of the executing unit
 *  (a device pointer on a GPU). NULL if out of range. */
TUCCOMPI_API const void *tuccompi_task_shared(const struct tuccompi_task *task, unsigned k);
/** Size in bytes of shared buffer @p k. */
TUCCOMPI_API size_t tuccompi_task_shared_size(const struct tuccompi_task *task, unsigned k);
/** PARLLMK workspace @p k, in the memory of the executing unit (device pointer on GPU). */
TUCCOMPI_API void *tuccompi_task_workspace(struct tuccompi_task *task, unsigned k);
/** StarPU worker id that runs the task. */
TUCCOMPI_API int tuccompi_task_worker(const struct tuccompi_task *task);
/** Kind of unit that runs the task. */
TUCCOMPI_API enum tuccompi_unit_kind tuccompi_task_unit_kind(const struct tuccompi_task *task);

/** Report that the task could not be computed on this unit (e.g. a CUDA error): the plug-in
 *  returns after this call. When the cause passes (the unit still works: for a GPU the library
 *  checks that its context takes a memset on the worker's stream) the job runs again at once on
 *  the same unit, up to TUCCOMPI_RETRIES_UNIT times per unit and TUCCOMPI_RETRIES_SET times per rank
 *  in a task set; otherwise the unit is taken out with a warning saying why (a sticky failure: for
 *  the rest of the run; repeated failures or spent retries: for the rest of the set, the next set
 *  tries it again) and its tasks run on other units. Failing on every unit fails the set with this
 *  message. printf-like. */
TUCCOMPI_API void tuccompi_task_fail(struct tuccompi_task *task, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Tasks in a batch. */
TUCCOMPI_API unsigned tuccompi_batch_size(const struct tuccompi_batch *batch);
/** Task @p i (0 .. size-1) of a batch, for the tuccompi_task_*() accessors; NULL if out of range. */
TUCCOMPI_API struct tuccompi_task *tuccompi_batch_task(struct tuccompi_batch *batch, unsigned i);
/** tuccompi_task_fail() for the whole batch. */
TUCCOMPI_API void tuccompi_batch_fail(struct tuccompi_batch *batch, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ================================================================ shared data */

/** A read-only buffer shared by every task of a node, e.g. the graph. It is registered
 *  once per node and copied once to each GPU that needs it. */
typedef struct tuccompi_shared *tuccompi_shared_t;

/** Register @p size bytes at @p ptr (host memory, left untouched until
 *  tuccompi_shared_unregister()). Where this process drives a GPU, a buffer of 1 MiB or more
 *  (TUCCOMPI_PIN_SHARED=BYTES; 0: never) is also registered with CUDA until then, so that it is
 *  copied to the GPUs at the bus's speed (memory the caller registered, e.g. with
 *  tuccompi_memory_pin(), is left alone; a range CUDA refuses stays pageable). -EINVAL for a bad
 *  TUCCOMPI_PIN_SHARED. */
TUCCOMPI_API int tuccompi_shared_register(tuccompi_shared_t *out, const void *ptr, size_t size);
/** Unregister (waits for the tasks that read it). */
TUCCOMPI_API int tuccompi_shared_unregister(tuccompi_shared_t shared);

/* ================================================================ policies */

/** What every rank knows about the cluster when a task set starts. */
struct tuccompi_node_info
{
	int ncpu_units;  /**< CPU units (cores with a worker) */
	int ncuda_units; /**< GPUs */
	int mk;          /**< MK of the GPUs of this node */
};

/** The cluster as seen by a distribution rule: one entry per rank. */
struct tuccompi_cluster
{
	int nranks;
	const struct tuccompi_node_info *nodes;
	/** Which unit kinds can run the plug-in (a plug-in without CUDA code gives GPUs nothing). */
	int use_cpu, use_cuda;
};

/** A static distribution rule (1st layer): set count[r], the number of tasks of rank r,
 *  for every rank, summing to @p ntasks. Ranks get consecutive task ids in rank order.
 *  Return 0 or a negative errno. */
typedef int (*tuccompi_partition_func)(const struct tuccompi_cluster *cluster, uint64_t ntasks,
				       uint64_t *count, void *arg);

struct starpu_sched_policy;

/** A scheduling policy: how tasks go to ranks (1st layer) and to units (2nd layer).
 *  The library defines eq1, eq2 and ms; a user can fill one of their own. */
struct tuccompi_policy
{
	/** Short name ("eq1", ...). */
	const char *name;
	/** One line for --help and logs. */
	const char *description;
	/** Cross-node rule when static; NULL with dynamic = 1. */
	tuccompi_partition_func partition;
	/** 1: ranks ask a master rank for packs of tasks as their units become idle (MS). */
	int dynamic;
	/** Rank of the master for dynamic policies (the master also computes). */
	int master;
	/** StarPU policy used inside each node: a policy struct of your own, or NULL to
	 *  use sched_name. */
	struct starpu_sched_policy *sched;
	/** Used when sched is NULL: the name of a StarPU built-in policy ("eager", "lws", "dmda",
	 *  ...) or of one of this library's ("tuccompi-eq1", "tuccompi-eq2", "tuccompi-ms",
	 *  "tuccompi-ms-tail"). */
	const char *sched_name;
	/** Passed to partition. */
	void *arg;
	/** What the policy needs from the library, TUCCOMPI_POLICY_* flags. */
	unsigned flags;
};

/** tuccompi_policy::flags: the StarPU policy gives each unit a fixed share (EQ1, EQ2), so the
 *  library cuts this rank's tasks into equal batches when it submits them, for the policy to
 *  place; without it, a batch takes its tasks from the rank's pool when a unit starts it, sized
 *  for that unit's kind (MS and StarPU's own policies). */
#define TUCCOMPI_POLICY_UNIT_SHARES 0x1u
/** tuccompi_policy::flags: the StarPU policy reads tuccompi_sched_remaining() (<tuccompi_sched.h>),
 *  which the library then keeps up to date (MS-TAIL). */
#define TUCCOMPI_POLICY_HEARS_REMAINING 0x2u
/** tuccompi_policy::flags, dynamic policies: the same end-of-set rule between ranks (MS-TAIL).
 *  The master stops handing tasks to a rank when the ranks at least twice as fast per task (each
 *  rank reports, with every request, the time per task of its fastest kind of unit, the job time of
 *  its faster kind and its task rate) would start everything left before that rank finishes one job;
 *  that rank's tasks in hand still run. */
#define TUCCOMPI_POLICY_RANK_TAIL 0x4u

/** EQ1: the same number of tasks to every node, then equally to the node's units. */
extern TUCCOMPI_API const struct tuccompi_policy tuccompi_policy_eq1;
/** EQ2: the same number of tasks to every unit of the cluster. */
extern TUCCOMPI_API const struct tuccompi_policy tuccompi_policy_eq2;
/** MS: units ask for work when idle: a pack of MK tasks for a GPU, one for a CPU core;
 *  ranks ask the master rank. Faster units do more. */
extern TUCCOMPI_API const struct tuccompi_policy tuccompi_policy_ms;

/** MS-TAIL: MS, except that at the end of a set a unit leaves a task to the faster units when
 *  they would finish everything left before it finishes that task (so a slow CPU core does not
 *  hold back a GPU with a last long task), and the master does the same between ranks
 *  (TUCCOMPI_POLICY_RANK_TAIL). A unit may be idle while tasks remain. */
extern TUCCOMPI_API const struct tuccompi_policy tuccompi_policy_ms_tail;

/** Policy by name: "eq1", "eq2", "ms", "ms-tail" (also "ms_tail"), or a StarPU built-in local
 *  policy name ("eager", "lws", "dmda", ...; tasks are spread over ranks like EQ1). StarPU's
 *  model-based policies (dmda, ...) need calibrated performance models: with fresh models they
 *  spend the first tasks calibrating, which can make a whole set many times slower than ms;
 *  run a calibration set first (STARPU_CALIBRATE=1) or use ms.
 *  Returns NULL (and sets tuccompi_last_error()) for an unknown name. */
TUCCOMPI_API const struct tuccompi_policy *tuccompi_policy_by_name(const char *name);

/** The StarPU policy structs of this library, for plain StarPU programs:
 *  conf.sched_policy = tuccompi_sched_policy("tuccompi-ms");  NULL if unknown. */
TUCCOMPI_API struct starpu_sched_policy *tuccompi_sched_policy(const char *name);

/** The cross-node rules of EQ1 and EQ2 (usable in a user policy). */
TUCCOMPI_API int tuccompi_partition_eq1(const struct tuccompi_cluster *cluster, uint64_t ntasks, uint64_t *count, void *arg);
TUCCOMPI_API int tuccompi_partition_eq2(const struct tuccompi_cluster *cluster, uint64_t ntasks, uint64_t *count, void *arg);

/* ================================================================ reductions
 *
 * A task set may reduce into one buffer (tuccompi_taskset_desc::reduce): every task adds its
 * contribution into the buffer of the unit that runs it (tuccompi_task_reduce_buffer()), and
 * tuccompi_wait() combines them: on each rank the partial buffer of every StarPU worker that ran a
 * task of the set, in worker order, then the ranks' in rank order, grouped as a binary tree (rank
 * 0's with rank 1's, ranks 2 and 3's with that, ...: log2(n) steps, one partial in hand per rank), on
 * the root (and on every rank with `everywhere`). Messages between ranks go through the library's own
 * layer, as SYN's.
 *
 * The order of the combination is fixed, but which tasks a unit ran is not (MS hands out work as
 * units ask): a floating-point sum (tuccompi_reduce_sum_f64) may then differ in its last bits from
 * one run, policy or number of ranks to another. For the same value everywhere, add exactly: the
 * elements of type struct tuccompi_exact below are fixed-point numbers added in integers, so their
 * sums do not depend on the order (tuccompi_reduce_sum_exact). */

/** Combine @p from into @p into (both @p size bytes of host memory): into = into (+) from. It should
 *  be associative and commutative (element-wise sums are). @p arg is tuccompi_reduce::arg. */
typedef void (*tuccompi_reduce_func)(void *into, const void *from, size_t size, void *arg);
/** Fill @p buf (@p size bytes of host memory) with the identity of the combination. */
typedef void (*tuccompi_reduce_init_func)(void *buf, size_t size, void *arg);

/** A task set's reduction (all zero: none). Every rank passes the same size. */
struct tuccompi_reduce
{
	/** Bytes of the buffer; 0: the set has no reduction. */
	size_t size;
	/** The combination (required with a size): tuccompi_reduce_sum_f64, _i64, _exact, or one of yours. */
	tuccompi_reduce_func combine;
	/** The identity each partial buffer starts from; NULL: zero bytes. */
	tuccompi_reduce_init_func init;
	void *arg; /**< passed to combine and init */
	/** Where tuccompi_wait() writes the result (@p size bytes of host memory) on the root rank
	 *  (tuccompi_taskset_desc::root), and on every rank when @p everywhere; NULL: discarded. */
	void *result;
	/** 1: every rank gets the result (one more message of @p size bytes from the root to each rank). */
	int everywhere;
};

/** The buffer the task adds its contribution into: the partial buffer of the StarPU worker that runs
 *  it, tuccompi_reduce::size bytes, started from init when the worker first asks, in the memory of the
 *  unit (host memory on a CPU core; device memory of the GPU for a CUDA implementation, which adds
 *  into it with kernels on tuccompi_gpu_stream()). Tasks of one worker run one at a time, so no two
 *  tasks use one buffer at once; the tasks of one batch share it. NULL (and tuccompi_last_error()
 *  says why) when the set has no reduction or there was no memory for it: fail the task then.
 *
 *  Ask for it only once the task's contribution is certain: a job that asked and then fails
 *  (tuccompi_task_fail(), a CUDA error after the job) cannot be taken back out of the partial sums,
 *  so its set fails with that reason on every rank instead of running the job again, which it does
 *  for jobs that never asked. */
TUCCOMPI_API void *tuccompi_task_reduce_buffer(struct tuccompi_task *task);

/** tuccompi_reduce::combine for arrays of double: element-wise sum (see above about its order). */
TUCCOMPI_API void tuccompi_reduce_sum_f64(void *into, const void *from, size_t size, void *arg);
/** tuccompi_reduce::combine for arrays of int64_t: element-wise sum modulo 2^64 (exact). */
TUCCOMPI_API void tuccompi_reduce_sum_i64(void *into, const void *from, size_t size, void *arg);
/** tuccompi_reduce::combine for arrays of struct tuccompi_exact: element-wise exact sum. */
TUCCOMPI_API void tuccompi_reduce_sum_exact(void *into, const void *from, size_t size, void *arg);

/** An exact sum of doubles: a signed fixed-point number of 192 bits (two's complement, least
 *  significant word first; value = w / 2^128), so 63 integer bits and 128 fraction bits. Adding a
 *  double is exact when it is 0 or its magnitude lies in [2^-76, 2^63) (its 53 bits then fall
 *  inside), smaller ones lose their bits below 2^-128 (truncated toward zero); a sum that leaves
 *  (-2^63, 2^63) wraps around. Sums are integer additions: the same whatever their order, on a CPU
 *  or in a CUDA kernel (the functions below are also __device__ there). All zero bytes is 0. */
struct tuccompi_exact
{
	uint64_t w[3];
};

#if defined(__CUDACC__)
#define TUCCOMPI_HD static __host__ __device__ __forceinline__
#else
#define TUCCOMPI_HD static inline
#endif

/* Count of leading zero bits of a nonzero 64-bit word, on the host and on the device. */
TUCCOMPI_HD int tuccompi_clz64_(uint64_t x)
{
#if defined(__CUDA_ARCH__)
	return __clzll((long long)x);
#else
	return __builtin_clzll(x);
#endif
}

/** @p a = -@p a (two's complement of the 192 bits). */
TUCCOMPI_HD void tuccompi_exact_negate(struct tuccompi_exact *a)
{
	uint64_t c = 1;
	for (int i = 0; i < 3; i++)
	{
		uint64_t x = ~a->w[i] + c;
		c = c && x == 0;
		a->w[i] = x;
	}
}

/** @p a += @p b. */
TUCCOMPI_HD void tuccompi_exact_combine(struct tuccompi_exact *a, const struct tuccompi_exact *b)
{
	uint64_t s0 = a->w[0] + b->w[0];
	uint64_t c0 = s0 < b->w[0];
	uint64_t s1 = a->w[1] + b->w[1];
	uint64_t c1 = s1 < b->w[1];
	s1 += c0;
	c1 += s1 < c0;
	a->w[0] = s0;
	a->w[1] = s1;
	a->w[2] += b->w[2] + c1;
}

/** The fixed-point form of the finite double @p x (see struct tuccompi_exact for its range). */
TUCCOMPI_HD struct tuccompi_exact tuccompi_exact_from(double x)
{
	struct tuccompi_exact r = { { 0, 0, 0 } };
	uint64_t bits;
	memcpy(&bits, &x, sizeof(bits));
	int e = (int)((bits >> 52) & 0x7ff);
	uint64_t m = bits & ((1ULL << 52) - 1);
	if (e == 0x7ff)
		return r; /* not finite: not a number it can hold */
	if (e == 0)
		e = 1; /* subnormal: m * 2^-1074 */
	else
		m |= 1ULL << 52;
	if (!m)
		return r;
	/* x = m * 2^(e - 1075) = m * 2^(e - 947) units of 2^-128 */
	int sh = e - 947;
	if (sh <= -53 || sh >= 192)
		return r; /* below 2^-128, or far outside the range */
	if (sh < 0)
		r.w[0] = m >> -sh;
	else if (sh < 64)
	{
		r.w[0] = m << sh;
		r.w[1] = sh ? m >> (64 - sh) : 0;
	}
	else if (sh < 128)
	{
		r.w[1] = m << (sh - 64);
		r.w[2] = sh > 64 ? m >> (128 - sh) : 0;
	}
	else
		r.w[2] = m << (sh - 128);
	if (bits >> 63)
		tuccompi_exact_negate(&r);
	return r;
}

/** @p a += @p x, exactly (within the range of struct tuccompi_exact). */
TUCCOMPI_HD void tuccompi_exact_add(struct tuccompi_exact *a, double x)
{
	struct tuccompi_exact b = tuccompi_exact_from(x);
	tuccompi_exact_combine(a, &b);
}

/** The double nearest to @p a (ties to even). */
TUCCOMPI_HD double tuccompi_exact_value(const struct tuccompi_exact *a)
{
	struct tuccompi_exact v = *a;
	int neg = (int)(v.w[2] >> 63);
	if (neg)
		tuccompi_exact_negate(&v);
	uint64_t top, sticky;
	int lz, scale; /* value = top * 2^scale, top's lowest bit also standing for any bits below */
	if (v.w[2])
	{
		lz = tuccompi_clz64_(v.w[2]);
		top = (v.w[2] << lz) | (lz ? v.w[1] >> (64 - lz) : 0);
		sticky = (lz ? v.w[1] << lz : v.w[1]) | v.w[0];
		scale = -lz;
	}
	else if (v.w[1])
	{
		lz = tuccompi_clz64_(v.w[1]);
		top = (v.w[1] << lz) | (lz ? v.w[0] >> (64 - lz) : 0);
		sticky = lz ? v.w[0] << lz : v.w[0];
		scale = -64 - lz;
	}
	else if (v.w[0])
	{
		lz = tuccompi_clz64_(v.w[0]);
		top = v.w[0] << lz;
		sticky = 0;
		scale = -128 - lz;
	}
	else
		return 0.0;
	/* top has its bit 63 set: 11 bits below the double's 53, so a sticky bit in bit 0 rounds right;
	 * scaling by 2^scale (-192 <= scale <= 0, a normal number) is then exact */
	uint64_t pbits = (uint64_t)(1023 + scale) << 52;
	double p2;
	memcpy(&p2, &pbits, sizeof(p2));
	double d = (double)(top | (sticky != 0)) * p2;
	return neg ? -d : d;
}

/* ================================================================ PARALLEL / SYN */

/** A running task set. */
typedef struct tuccompi_taskset *tuccompi_taskset_t;

/** Called on the rank that ran a task, right after it finished (from a StarPU
 *  thread: keep it short and thread-safe). */
typedef void (*tuccompi_done_func)(uint64_t id, const void *result, void *arg);

/** A set of independent tasks. Every rank passes the same description. */
struct tuccompi_taskset_desc
{
	const struct tuccompi_plugin *plugin; /**< the code of a task */
	uint64_t ntasks;                      /**< task ids are 0 .. ntasks-1 */
	void *arg;                            /**< passed to the plug-in functions */
	/** Optional per-task inputs: task i reads inputs + i*input_size (host memory,
	 *  the same on every rank). Both set or both 0/NULL. */
	const void *inputs;
	size_t input_size;
	/** Shared read-only buffers, available to every task as tuccompi_task_shared(t, k). */
	tuccompi_shared_t shared[TUCCOMPI_MAX_SHARED];
	unsigned nshared;
	/** Where the results end up on rank @c root: ntasks * plugin->result_size bytes,
	 *  result of task i at results + i*result_size. Only the root's matters: other ranks may
	 *  pass NULL (the results are gathered whenever result_size is not 0). NULL on the root:
	 *  results are not kept. Set only with a plug-in whose result_size is not 0. When GPUs
	 *  can run the set and these results take 64 MiB or more, the library registers them with
	 *  CUDA (starpu_memory_pin) from tuccompi_parallel() until this rank's last task has run,
	 *  so that GPU plug-ins can copy into them by DMA (cudaPointerGetAttributes tells);
	 *  TUCCOMPI_PIN_RESULTS=BYTES sets the size (0: never). */
	void *results;
	int root;
	/** Optional per-task completion callback (see tuccompi_done_func). */
	tuccompi_done_func on_done;
	void *on_done_arg;
	/** Tasks per batch for each kind of unit (index: enum tuccompi_unit_kind), when the
	 *  plug-in has batch implementations: 0 = the tuning database's choice for this plug-in
	 *  and device (tuccompi_tune_batch()), else the plug-in's batch_max. */
	unsigned batch[2];
	/** Resume journal (optional): every rank appends the results of its finished tasks to
	 *  JOURNAL.rank-R (checksummed records, flushed to disk about every second), so that a run
	 *  killed at any moment can be resumed. NULL: no journal. A file system shared by the
	 *  ranks is needed when resuming with several ranks. */
	const char *journal;
	/** What the journal belongs to: a hash of everything that decides the results (input,
	 *  task inputs, options). A journal with another key, task count or result size is refused. */
	uint64_t journal_key;
	/** 1: read the journal (every JOURNAL.rank-* file, whatever the earlier number of ranks)
	 *  and run only the tasks it does not hold; their results come from it. 0: start afresh. */
	int resume;
	/** A reduction of the set into one buffer (see "reductions" above); zero: none. A set with a
	 *  reduction cannot have a journal: resumed tasks would be missing from the sum. */
	struct tuccompi_reduce reduce;
};

/** PARALLEL: start running a task set under @p policy. Non-blocking: returns once
 *  this rank has submitted its first tasks. */
TUCCOMPI_API int tuccompi_parallel(const struct tuccompi_policy *policy, const struct tuccompi_taskset_desc *desc,
		      tuccompi_taskset_t *out);

/** SYN: wait until every task of the set has run on every rank and the results are
 *  on the root rank. Collective. Does not free the task set. */
TUCCOMPI_API int tuccompi_wait(tuccompi_taskset_t ts);

/** Free a finished task set. */
TUCCOMPI_API void tuccompi_taskset_destroy(tuccompi_taskset_t ts);

/* ================================================================ statistics */

/** What a unit did in a task set. */
struct tuccompi_unit_stats
{
	int rank;
	enum tuccompi_unit_kind kind;
	int index;          /**< CPU: worker's core index in this node; CUDA: device id */
	uint64_t ntasks;    /**< tasks it ran */
	double busy_s;      /**< sum over its workers of task execution time */
};

/** Counts of a finished task set, gathered on every rank. */
struct tuccompi_taskset_stats
{
	uint64_t ntasks;
	double wall_s;        /**< PARALLEL to end of SYN, on this rank */
	double local_s;       /**< PARALLEL to the end of this rank's last task */
	double comm_s;        /**< time this rank spent in cross-node messages (not waiting) */
	uint64_t nrequests;   /**< MS: requests this rank sent to the master */
	uint64_t retried;     /**< tasks this rank ran again after a unit failed them (tuccompi_task_fail), on
				   the same unit or another */
	uint64_t resumed;     /**< tasks whose results came from the resume journal */
	int nunits;           /**< entries in units[] over all ranks */
	const struct tuccompi_unit_stats *units;
	const uint64_t *tasks_per_rank; /**< nranks entries */
	/** Per rank (nranks entries): wall time; time in cross-rank messages (MS requests, the
	 *  gathering of results and statistics); time waiting at SYN for slower ranks (load
	 *  imbalance, not communication: from this rank's last task to the slowest rank's, by the set's
	 *  clock); bytes StarPU moved between host and GPUs and the time
	 *  those transfers take by StarPU's bus model. */
	const double *wall_s_per_rank;
	const double *comm_s_per_rank;
	const double *wait_s_per_rank;
	const uint64_t *transfer_bytes_per_rank;
	const double *transfer_s_per_rank;
	/** Per rank: MS requests it sent to the master, and the time they took (round trips,
	 *  included in comm_s_per_rank; the rank's units go on with the tasks in hand meanwhile). */
	const uint64_t *requests_per_rank;
	const double *request_s_per_rank;
};

/** Statistics of a task set after tuccompi_wait(); valid until it is destroyed. */
TUCCOMPI_API int tuccompi_taskset_get_stats(tuccompi_taskset_t ts, struct tuccompi_taskset_stats *stats);

/** Print the run summary of a finished task set (any rank; the same everywhere): tasks per
 *  node and per unit (the paper's Fig. 13), busy and idle time per unit, and the shares of
 *  the run spent in host/GPU transfers and in cross-rank communication. */
TUCCOMPI_API int tuccompi_taskset_print_summary(tuccompi_taskset_t ts, FILE *f);

/** The same per unit as CSV (written atomically):
 *  rank,kind,index,tasks,busy_s,idle_s,wall_s,comm_s,wait_s,transfer_bytes,transfer_s
 *  (the last five are the unit's rank's). */
TUCCOMPI_API int tuccompi_taskset_write_csv(tuccompi_taskset_t ts, const char *path);

/** Tasks of the set whose results came from the resume journal (not run again). */
TUCCOMPI_API uint64_t tuccompi_taskset_resumed(tuccompi_taskset_t ts);

/** Remove the journal files JOURNAL.rank-* (e.g. once the outputs are written). */
TUCCOMPI_API int tuccompi_journal_remove(const char *journal);

/** Rank that ran task @p id (on the root, after tuccompi_wait(), when results are gathered),
 *  -2 when its result came from the resume journal, or -1. */
TUCCOMPI_API int tuccompi_taskset_task_rank(tuccompi_taskset_t ts, uint64_t id);

/* ================================================================ automatic MK */

/** Choose MK for a plug-in by measurement (the paper's future work): on each rank with a
 *  GPU, run the plug-in's CUDA implementation on @p rounds x MK tasks of @p desc for each
 *  candidate MK (up to mk_max), keep the highest throughput, record it in the tuning
 *  database (tuccompi_tune.h) and set it. A recorded value is reused without measuring.
 *  Collective. Results of the probe tasks are discarded. @p best gets this rank's MK. */
TUCCOMPI_API int tuccompi_tune_mk(const struct tuccompi_taskset_desc *desc, const int *candidates, int ncandidates,
		     unsigned rounds, int *best);

/** Choose the batch size of a plug-in's batch implementation for units of @p kind by
 *  measurement: on each rank with such a unit, run @p rounds batches of @p desc at each
 *  candidate size (at most batch_max[kind]), keep the highest task throughput, record it in
 *  the tuning database ("batch" records, per device) and return it in @p best; a recorded
 *  value is reused without measuring. Collective. Set desc->batch[kind] to use it. */
TUCCOMPI_API int tuccompi_tune_batch(const struct tuccompi_taskset_desc *desc, enum tuccompi_unit_kind kind,
				     const unsigned *candidates, int ncandidates, unsigned rounds, unsigned *best);

#ifdef __cplusplus
}
#endif

#endif /* TUCCOMPI_H */
