/* Internal declarations of libtuccompi-starpu. Not installed. */
#ifndef TUCCOMPI_INTERNAL_H
#define TUCCOMPI_INTERNAL_H

#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <starpu.h>
#include <tuccompi.h>

#ifdef TUCCOMPI_HAVE_MPI
#include <mpi.h>
#endif

#define TUCCOMPI_INTERNAL __attribute__((visibility("hidden")))
#define TUCCOMPI_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---------------------------------------------------------------- errors */

/* Record a one-line message for tuccompi_last_error() and return err (negative errno). */
TUCCOMPI_INTERNAL int _tuccompi_error(int err, const char *fmt, ...) TUCCOMPI_PRINTF(2, 3);
TUCCOMPI_INTERNAL void _tuccompi_clear_error(void);
/* Print a message prefixed with the rank (unless quiet). */
TUCCOMPI_INTERNAL void _tuccompi_log(const char *fmt, ...) TUCCOMPI_PRINTF(1, 2);

/* ---------------------------------------------------------------- units */

struct _tuccompi_unit
{
	enum tuccompi_unit_kind kind;
	int index;                        /* CPU: bind id; CUDA: device id */
	int nworkers;                     /* CPU: 1; CUDA: stream workers StarPU made */
	int workers[TUCCOMPI_MAX_MK];     /* StarPU worker ids */
};

/* ---------------------------------------------------------------- global state */

struct _tuccompi_ctx_cache
{
	const struct starpu_sched_policy *sched; /* or NULL when by name */
	char sched_name[64];
	int mk;
	unsigned ctx;
};

struct _tuccompi_state
{
	int initialized;
	int rank, nranks;
	int mpi_active;     /* cross-node layer on */
	int we_init_mpi;    /* we called MPI_Init_thread, so we finalize it */
	int quiet;
	int mk, mk_max;
	int nunits;
	struct _tuccompi_unit units[STARPU_NMAXWORKERS];
	int worker_unit[STARPU_NMAXWORKERS]; /* worker id -> unit index, -1 none */
	struct tuccompi_node_info *nodes;     /* per rank, filled at init */
	char trace_dir[PATH_MAX];             /* "" when not tracing */
	char fxt_raw_dir[PATH_MAX];
	pthread_mutex_t lock;
	struct _tuccompi_ctx_cache ctxs[16];
	int nctxs;
#ifdef TUCCOMPI_HAVE_MPI
	MPI_Comm comm; /* private duplicate of the world communicator */
#endif
};

extern TUCCOMPI_INTERNAL struct _tuccompi_state _tuccompi;

#define TUCCOMPI_REQUIRE_INIT()                                                                              \
	do                                                                                                   \
	{                                                                                                    \
		if (!_tuccompi.initialized)                                                                  \
			return _tuccompi_error(-EINVAL, "%s: the library is not started; call tuccompi_init() first", \
					       __func__);                                                    \
	} while (0)

/* Seconds on a monotonic clock. */
TUCCOMPI_INTERNAL double _tuccompi_now(void);

/* The StarPU scheduling context with the given local policy over the units of this
 * node (MK stream workers per GPU); created on first use, freed at finalize. */
TUCCOMPI_INTERNAL int _tuccompi_sched_ctx(const struct tuccompi_policy *policy, unsigned *ctx);
TUCCOMPI_INTERNAL void _tuccompi_sched_ctx_free_all(void);

/* FIXED tuning mode: the geometry forced for a kernel name (or for all), 1 if any. */
TUCCOMPI_INTERNAL int _tuccompi_tune_forced(const char *name, unsigned *bx, unsigned *by, int *carveout);

/* Performance models of the plug-ins; freed once StarPU is down. */
TUCCOMPI_INTERNAL void _tuccompi_models_free(void);

/* ---------------------------------------------------------------- cross-node layer (comm.c) */

/* Exchange node descriptions: fills _tuccompi.nodes. */
TUCCOMPI_INTERNAL int _tuccompi_comm_exchange_nodes(void);
/* Allgather of one uint64 per rank. */
TUCCOMPI_INTERNAL int _tuccompi_comm_allgather_u64(uint64_t mine, uint64_t *all);
/* Gatherv of bytes on root: counts[r] bytes from rank r (root passes counts). */
TUCCOMPI_INTERNAL int _tuccompi_comm_gatherv(const void *send, uint64_t nbytes, void *recv, const uint64_t *counts,
					     int root);
TUCCOMPI_INTERNAL int _tuccompi_comm_barrier(void);

/* MS protocol: a grant is [first, first+count); count 0 means stop. */
struct _tuccompi_ms;
TUCCOMPI_INTERNAL struct _tuccompi_ms *_tuccompi_ms_start(uint64_t ntasks, int master, unsigned serial);
/* Ask for up to @want task ids (blocking round trip, or local on the master); @rest gets
 * how many the master has left after this grant. */
TUCCOMPI_INTERNAL int _tuccompi_ms_request(struct _tuccompi_ms *ms, uint64_t want, uint64_t *first, uint64_t *count,
					   uint64_t *rest);
/* What the MS feeder tells the context's policy: tasks still to come (schedulers/units.c). */
TUCCOMPI_INTERNAL void _tuccompi_sched_set_more(unsigned sched_ctx_id, unsigned long more);
/* Wait for the master to have answered every rank's last request, free. */
TUCCOMPI_INTERNAL int _tuccompi_ms_finish(struct _tuccompi_ms *ms, double *comm_s, uint64_t *nrequests);

/* Bytes moved between memory nodes since the last call and their time by StarPU's bus
 * model (reading resets StarPU's counters); either pointer may be NULL. */
TUCCOMPI_INTERNAL void _tuccompi_bus_counters(uint64_t *bytes, double *seconds);

/* ---------------------------------------------------------------- tracing (trace.c) */

TUCCOMPI_INTERNAL int _tuccompi_trace_setup(const char *dir);
TUCCOMPI_INTERNAL int _tuccompi_trace_convert(int rank);

#endif
