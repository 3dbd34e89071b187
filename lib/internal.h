/* Internal declarations of libtuccompi-starpu's core. Not installed.
 *
 * Modules (one verb of the model each):
 *   runtime.c   COMM / ENDCOMM / SETMK: StarPU (+ StarPU-MPI) up and down, node-aware ranks
 *   units.c     the one grouping of workers into units
 *   link.c      the 1st layer's transport: StarPU-MPI messages, heartbeats, abort notices
 *   comm.c      the 1st layer's collectives on those messages (each also an agreement on errors)
 *   ms_ranks.c  the MS protocol, both halves: the master's server and a rank's feeder
 *   policy.c    the library's policies (one table), by name and by what they do; the StarPU
 *               scheduling contexts that run them
 *   plugin.c    the deployment level: task/batch accessors, the codelet, jobs, shared data
 *   parallel.c  PARALLEL: a task set cut into jobs and submitted
 *   syn.c       SYN: waiting, gathering results and statistics
 *   journal.c   durable per-task results for resuming a killed run
 *   stats.c, summary.c   statistics and the run summary
 *   trace.c     FxT traces -> paje.trace
 *   tune*.c     the tuning layer
 * The core includes nothing of schedulers/: it reaches the policies only through policy.c's table
 * of their public structs (tuccompi_policy_eq1, ... in <tuccompi.h>) and the structs' fields and
 * flags, never by name, and they reach it through <tuccompi_sched.h>. */
#ifndef TUCCOMPI_INTERNAL_H
#define TUCCOMPI_INTERNAL_H

#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <starpu.h>
#include <tuccompi.h>
#include <tuccompi_sched.h>

#ifdef TUCCOMPI_HAVE_MPI
#include <mpi.h>
#endif

#define TUCCOMPI_INTERNAL __attribute__((visibility("hidden")))
#define TUCCOMPI_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---------------------------------------------------------------- errors and messages (error.c) */

/* The library's one carrier of a failure: its error (a negative errno; 0: none) and its one line
 * (what, where, how to fix). Each thread has one (tuccompi_last_error()); a failed job, a task set
 * and a GPU launch carry one from the thread that met the failure to the one that reports it. */
#define TUCCOMPI_FAIL_MSG 1024
struct _tuccompi_fail
{
	int err;
	char msg[TUCCOMPI_FAIL_MSG];
};
/* Record a failure in @f unless it holds one already (the first reason is the one to tell); an
 * @err that is not negative is recorded as -EIO. Returns @f's error. Not locked: the caller keeps
 * writers apart. */
TUCCOMPI_INTERNAL int _tuccompi_fail_set(struct _tuccompi_fail *f, int err, const char *fmt, ...) TUCCOMPI_PRINTF(3, 4);
TUCCOMPI_INTERNAL int _tuccompi_fail_vset(struct _tuccompi_fail *f, int err, const char *fmt, va_list ap);
/* @f's failure, made this thread's last error: returns its error (0 when @f holds none). */
TUCCOMPI_INTERNAL int _tuccompi_fail_raise(const struct _tuccompi_fail *f);

/* Record a one-line message as this thread's last error (tuccompi_last_error()) and return err
 * (negative errno). */
TUCCOMPI_INTERNAL int _tuccompi_error(int err, const char *fmt, ...) TUCCOMPI_PRINTF(2, 3);
TUCCOMPI_INTERNAL void _tuccompi_clear_error(void);
/* Informational line, prefixed with the rank (unless quiet). */
TUCCOMPI_INTERNAL void _tuccompi_log(const char *fmt, ...) TUCCOMPI_PRINTF(1, 2);
/* Warning: printed even when quiet (something was lost or changed behind the user's back). */
TUCCOMPI_INTERNAL void _tuccompi_warn(const char *fmt, ...) TUCCOMPI_PRINTF(1, 2);

/* ---------------------------------------------------------------- utilities (util.c) */

/* Seconds on a monotonic clock (the library's only clock). */
TUCCOMPI_INTERNAL double _tuccompi_now(void);
/* The deadline @s seconds (>= 0) from now, as pthread_cond_timedwait takes it (on its clock). */
struct timespec;
TUCCOMPI_INTERNAL void _tuccompi_abstime(double s, struct timespec *ts);

/* Write a file atomically: open a temporary file beside @path (returned open for writing in
 * *f), then _tuccompi_atomic_commit() renames it over @path, or _abort() removes it. */
struct _tuccompi_atomic_file
{
	char path[PATH_MAX];
	char tmp[PATH_MAX + 32];
	FILE *f;
};
TUCCOMPI_INTERNAL int _tuccompi_atomic_open(struct _tuccompi_atomic_file *af, const char *path);
TUCCOMPI_INTERNAL int _tuccompi_atomic_commit(struct _tuccompi_atomic_file *af);
TUCCOMPI_INTERNAL void _tuccompi_atomic_abort(struct _tuccompi_atomic_file *af);

/* ---------------------------------------------------------------- the environment (env.c) */

/* An on/off environment variable: @dflt when unset or empty; on for 1, yes, on, true, off for 0, no,
 * off, false (any case); @dflt for anything else (tuccompi_init refused it). */
TUCCOMPI_INTERNAL int _tuccompi_env_flag(const char *name, int dflt);
/* 1 on, 0 off, -1 neither (the words of _tuccompi_env_flag). */
TUCCOMPI_INTERNAL int _tuccompi_env_flag_parse(const char *s);
/* A number from @lo to @hi in *out, @dflt when unset or empty: 0, or -EINVAL naming the variable. */
TUCCOMPI_INTERNAL int _tuccompi_env_number(const char *name, double dflt, double lo, double hi, double *out);
/* A strict integer from @min to @max in *out: 1; 0 when unset or empty (*out untouched); -EINVAL
 * naming the variable (TUCCOMPI_MK, TUCCOMPI_MK_MAX, STARPU_NWORKER_PER_CUDA at tuccompi_init). */
TUCCOMPI_INTERNAL int _tuccompi_env_int(const char *name, int min, int max, int *out);
/* TUCCOMPI_RETRIES_UNIT and TUCCOMPI_RETRIES_SET, the bounds of a rank's runs again of failed jobs
 * in a task set (lib/faults.c; the defaults where unset or refused): 0, or -EINVAL naming the one
 * that is not a count. */
TUCCOMPI_INTERNAL int _tuccompi_env_retries(unsigned *per_unit, unsigned *per_set);
/* Every TUCCOMPI_* variable of the library takes its value, or -EINVAL naming the first that does
 * not (tuccompi_init, before it starts anything). */
TUCCOMPI_INTERNAL int _tuccompi_env_check(void);

/* ---------------------------------------------------------------- global state (runtime.c) */

struct _tuccompi_ctx_cache
{
	const struct starpu_sched_policy *sched; /* or NULL when by name */
	char sched_name[64];
	int mk;
	unsigned ctx;
	int labelled; /* a task set's number was pushed as its StarPU iteration */
};

struct _tuccompi_state
{
	int initialized;
	int rank, nranks;
	int local_rank, local_size; /* ranks of this node (node-aware start-up) */
	int mpi_active;             /* cross-node layer on */
	int we_init_mpi;            /* we called MPI_Init_thread, so we finalize it */
	int quiet;
	int mk, mk_max;
	int nunits;
	int host_work; /* tuccompi_host_work_begin() calls not yet ended: StarPU's workers paused */
	struct tuccompi_unit units[STARPU_NMAXWORKERS];
	int worker_unit[STARPU_NMAXWORKERS]; /* worker id -> unit index, -1 none */
	int unit_failed[STARPU_NMAXWORKERS]; /* per unit: taken out after a failure (tuccompi_task_fail) */
	struct tuccompi_node_info *nodes;     /* per rank, refreshed at every PARALLEL */
	char placement[256];                  /* what node-aware start-up gave this rank, for the summary */
	char trace_dir[PATH_MAX];             /* "" when not tracing */
	char fxt_raw_dir[PATH_MAX];
	pthread_mutex_t lock;
	struct _tuccompi_ctx_cache ctxs[16];
	int nctxs;
};

extern TUCCOMPI_INTERNAL struct _tuccompi_state _tuccompi;

#define TUCCOMPI_REQUIRE_INIT()                                                                              \
	do                                                                                                   \
	{                                                                                                    \
		if (!_tuccompi.initialized)                                                                  \
			return _tuccompi_error(-EINVAL, "%s: the library is not started; call tuccompi_init() first", \
					       __func__);                                                    \
	} while (0)

/* CUDA devices this process sees (0 without CUDA), before StarPU starts. */
TUCCOMPI_INTERNAL int _tuccompi_cuda_device_count(void);
/* 1 when host memory at @p p is registered with CUDA (cudaHostRegister, cudaMallocHost); 0 without CUDA. */
TUCCOMPI_INTERNAL int _tuccompi_cuda_host_registered(const void *p);
/* Forget the calling thread's last CUDA error (a registration that failed: best effort). */
TUCCOMPI_INTERNAL void _tuccompi_cuda_clear_error(void);
/* After a failure on the calling CUDA worker: NULL when its GPU still works (a non-sticky error is
 * cleared, a memset on the worker's stream completes), else why not (a static string). NULL
 * without CUDA. */
TUCCOMPI_INTERNAL const char *_tuccompi_cuda_unit_broken(void);
#ifdef TUCCOMPI_HAVE_CUDA
/* tune_cuda.c: this thread's first GPULAUNCH that failed since the last call (its error, and its
 * failure in *f when @f is not NULL), forgotten; 0 when every launch was made. A job takes it before
 * its plug-in runs (to start clean) and after (a launch that failed fails the job). */
TUCCOMPI_INTERNAL int _tuccompi_gpu_launch_take(struct _tuccompi_fail *f);
#endif

/* ---------------------------------------------------------------- units (units.c) */

/* Group every StarPU worker of this process into _tuccompi.units. */
TUCCOMPI_INTERNAL void _tuccompi_units_build(void);
/* Units of @kind that have not failed. */
TUCCOMPI_INTERNAL int _tuccompi_units_healthy(enum tuccompi_unit_kind kind);

/* ---------------------------------------------------------------- policies and contexts (policy.c) */

/* The first of the library's policies whose struct says @dynamic and exactly @flags (NULL: none):
 * the core asks for a policy by what it does, never by its name. */
TUCCOMPI_INTERNAL const struct tuccompi_policy *_tuccompi_policy_with(int dynamic, unsigned flags);

/* The StarPU scheduling context with the given local policy over the units of this node
 * (MK stream workers per GPU); created on first use, freed at finalize. */
TUCCOMPI_INTERNAL int _tuccompi_sched_ctx(const struct tuccompi_policy *policy, unsigned *ctx);
TUCCOMPI_INTERNAL void _tuccompi_sched_ctx_free_all(void);
/* syn.c: wait until the task sets' workspaces are released (helper threads; before StarPU stops). */
TUCCOMPI_INTERNAL void _tuccompi_release_wait(void);
/* Whether a context already carries a task set's number as its StarPU iteration (marks it). */
TUCCOMPI_INTERNAL int _tuccompi_ctx_labelled(unsigned ctx);
/* Tell a context's policy (built from <tuccompi_sched.h>) how many tasks remain to start. */
TUCCOMPI_INTERNAL void _tuccompi_sched_set_remaining(unsigned ctx, unsigned long remaining);

/* FIXED tuning mode: the geometry forced for a kernel name (or for all), 1 if any. */
TUCCOMPI_INTERNAL int _tuccompi_tune_forced(const char *name, unsigned *bx, unsigned *by, int *carveout);

/* The tuning database's key of this node's units of @kind (units.c): "cpu", the first GPU's name
 * and compute capability, or "" when it has none. */
TUCCOMPI_INTERNAL int _tuccompi_units_key(enum tuccompi_unit_kind kind, char *key, size_t len);
/* The batch size the tuning database holds for a plug-in on units of @kind whose key is @key (0: none). */
TUCCOMPI_INTERNAL unsigned _tuccompi_tune_batch_recorded(const char *plugin, enum tuccompi_unit_kind kind, const char *key);

/* Performance models of the plug-ins; freed once StarPU is down. */
TUCCOMPI_INTERNAL void _tuccompi_models_free(void);

/* The cross-node layer: lib/link.h (StarPU-MPI messages, liveness, collectives). */

/* Bytes moved between memory nodes since the last call and their time by StarPU's bus
 * model (reading resets StarPU's counters); either pointer may be NULL. */
TUCCOMPI_INTERNAL void _tuccompi_bus_counters(uint64_t *bytes, double *seconds);

/* ---------------------------------------------------------------- tracing (trace.c) */

TUCCOMPI_INTERNAL int _tuccompi_trace_setup(const char *dir);
TUCCOMPI_INTERNAL int _tuccompi_trace_convert(int rank);
/* A task set started (rank 0 keeps a list beside the trace for the plots). */
TUCCOMPI_INTERNAL void _tuccompi_trace_note_set(const struct tuccompi_taskset_desc *d, const struct tuccompi_policy *policy,
						unsigned serial, unsigned ctx, int mk);
/* This rank's FxT file is complete (StarPU is down). */
TUCCOMPI_INTERNAL void _tuccompi_trace_flushed(int rank);

#endif
