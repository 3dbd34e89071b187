/* A task set inside the library: what PARALLEL (parallel.c) builds, the codelet (plugin.c)
 * runs, the MS feeder (ms_ranks.c) fills, the journal (journal.c) records and SYN (syn.c) gathers.
 *
 * Tasks travel in jobs (jobs.c): one StarPU task runs one job, i.e. a batch of tasks of the set.
 *  - Unit shares (policies with TUCCOMPI_POLICY_UNIT_SHARES, EQ1/EQ2): a job's tasks are chosen
 *    when it is submitted, all jobs of one size, and the StarPU policy places it.
 *  - Otherwise a job is a token: when a unit starts it, it takes up to the batch size of that
 *    kind of unit from the rank's pool (MS packs arrive in the pool; at the end of a set the
 *    last jobs are partial). The library keeps enough tokens queued for every able worker.
 * The policy's partition (or the MS master) deals in positions 0..ntodo-1; a position is a
 * task id, or, when resuming, an index into the ids the journal does not hold. */
#ifndef TUCCOMPI_TASKSET_H
#define TUCCOMPI_TASKSET_H

#include "internal.h"

#include <stdatomic.h>

struct _tuccompi_ms;
struct _tuccompi_journal;
struct _tuccompi_red;

struct _tuccompi_job
{
	struct tuccompi_taskset *ts;
	unsigned n, cap;
	int bound;           /* tasks chosen at submission */
	/* the plug-in (or an injected fault) failed the job on its unit: why (malloc'd); NULL: not */
	struct _tuccompi_fail *fail;
	int moved;           /* not run: started on a unit taken out of the set */
	int inject;          /* TUCCOMPI_FAULT_*: the fault injected into its last run (faults.c) */
	int out;             /* TUCCOMPI_OUT_*: why its unit is taken out, when its failure did not pass */
	const char *sticky;  /* the sticky cause (a static string), or NULL */
	int reduced;         /* a task asked for its reduction buffer (reduce.c) */
	int worker;
	enum tuccompi_unit_kind kind;
	uint64_t *ids;               /* cap entries */
	struct tuccompi_task *tasks; /* cap entries, filled when it runs */
};

struct tuccompi_task
{
	struct tuccompi_taskset *ts;
	struct _tuccompi_job *job;
	uint64_t id;
	void **buffers;
	int worker;
	enum tuccompi_unit_kind kind;
};

struct tuccompi_batch
{
	struct _tuccompi_job *job;
};

struct tuccompi_shared
{
	starpu_data_handle_t handle;
	void *ptr;
	size_t pinned; /* bytes the library registered with CUDA (lib/pin.c), 0 if none */
};

/* Task ids waiting for a unit, as ranges (MS grants and partition shares are ranges). */
struct _tuccompi_pool
{
	uint64_t (*r)[2]; /* [first, count] */
	size_t head, tail, cap;
	uint64_t count;
};

struct tuccompi_taskset
{
	struct tuccompi_taskset_desc desc;
	struct tuccompi_plugin plugin;
	const struct tuccompi_policy *policy;
	unsigned ctx, serial;
	int mk; /* MK when the set started */
	struct starpu_codelet cl;
#ifdef TUCCOMPI_SIMGRID
	tuccompi_plugin_func sim_cpu; /* the plug-in's CPU code, for simulated GPUs (lib/sim_entry.c) */
	tuccompi_batch_func sim_cpu_batch;
#endif
	starpu_data_handle_t workspaces[TUCCOMPI_MAX_WORKSPACES];
	unsigned nworkspaces, nbuffers;
	unsigned batch[2];     /* tasks per job by unit kind (pool mode) */
	unsigned batch_static; /* tasks per job (unit shares) */
	unsigned batch_max_able; /* the largest batch of a kind that can run the set */
	unsigned nworkers;     /* workers of the context able to run the plug-in: tokens kept queued */
	unsigned nunits_able;  /* this node's healthy units able to run the plug-in (unit shares' job size) */

	/* results of the tasks run here, indexed by task id (desc.results on the root) */
	unsigned char *local_results;
	int own_local_results;
	size_t results_pinned; /* bytes of local_results registered with CUDA now (0: none) */
	size_t results_registered; /* the same, kept after the set for its summary */
	int results_by_caller;     /* they were registered before the set (tuccompi_memory_pin) */

	/* positions -> ids (resume); todo == NULL: identity */
	uint64_t ntodo;
	uint64_t *todo;
	struct _tuccompi_journal *journal;
	struct _tuccompi_red *red; /* desc.reduce's partial buffers (reduce.c), NULL without */

	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct _tuccompi_pool pool;
	uint64_t jobs_inflight;        /* submitted, not finished */
	unsigned tokens_waiting;       /* pool jobs submitted, not started */
	uint64_t done;                 /* tasks finished here */
	uint64_t *ran_ids, ran_cap;    /* ids run here, in completion order */
	int feeding;                   /* MS feeder still running */
	int feeder_started;
	pthread_t feeder;
	struct _tuccompi_ms *ms;
	unsigned long master_rest;     /* what the MS master had left at its last answer */
	uint64_t feed_low;             /* the MS feeder sleeps while this many tasks are in hand (0: none) */

	/* the first error of the set, from any thread (under lock; fail.err may be read without);
	 * tuccompi_wait() raises it on the caller's */
	struct _tuccompi_fail fail;
	struct _tuccompi_fail last_failure; /* why a unit was last taken out (under lock), for "no unit is left" */

	/* statistics */
	double t_start, t_end, t_local_done, comm_s, wait_s;
	double t_last_job;   /* the end of this rank's last job, empty tokens included (TUCCOMPI_END_LOG) */
	unsigned jobs_empty; /* tokens that found the pool empty (TUCCOMPI_END_LOG) */
	double t_woke;       /* when SYN's wait for this rank's jobs returned (TUCCOMPI_END_LOG) */
	/* TUCCOMPI_END_LOG: per unit kind, the first job to end here (claimed by first_job[kind]): its
	 * start and its length */
	int first_job[2];
	double t_first_job[2], first_job_s[2];
	uint64_t nrequests;
	_Atomic uint64_t worker_ntasks[STARPU_NMAXWORKERS];
	_Atomic uint64_t worker_busy_ns[STARPU_NMAXWORKERS];
	struct tuccompi_unit_stats *all_units;
	int nall_units;
	uint64_t *tasks_per_rank;
	double *wall_per_rank, *comm_per_rank, *xfer_s_per_rank, *wait_per_rank;
	uint64_t *xfer_bytes_per_rank;
	uint64_t *requests_per_rank; /* MS requests to the master */
	double *request_s_per_rank;  /* and their round trips */
	double request_s;            /* this rank's */
	int *mk_per_rank;
	char (*placement_per_rank)[256]; /* root: what node-aware start-up gave each rank */
	uint64_t xfer_bytes;
	double xfer_s;
	int *task_rank; /* root: rank of each task */
	uint64_t retried;  /* tasks run again after a unit failed them */
	/* faults.c: failures per unit in this set, retries in place used, and their bounds */
	_Atomic unsigned unit_fails[STARPU_NMAXWORKERS];
	_Atomic unsigned retries_used;
	unsigned retries_unit, retries_set;
	uint64_t nresumed; /* tasks whose results came from the journal */
	int waited;
};

/* Tasks received here and not started yet (lock held): what the MS feeder keeps topped up. */
static inline uint64_t _tuccompi_ts_in_hand(const struct tuccompi_taskset *ts)
{
	if (ts->policy->flags & TUCCOMPI_POLICY_UNIT_SHARES)
		return ts->jobs_inflight * ts->batch_static;
	return ts->pool.count;
}

/* After a task started or a job ended (lock held): wake the set's waiters only when one of them
 * can go on -- the MS feeder (fewer than feed_low tasks in hand), the SYN wait (no job in flight)
 * or anyone after an error (a broadcast at every task start and end woke the feeder twice per
 * task; docs/architecture.md). */
static inline void _tuccompi_ts_wake_locked(struct tuccompi_taskset *ts)
{
	if (ts->fail.err || ts->jobs_inflight == 0 || _tuccompi_ts_in_hand(ts) < ts->feed_low)
		pthread_cond_broadcast(&ts->cond);
}

/* ---- plugin.c */
/* The codelet of a task set (entries, buffer modes, model, can_execute). */
TUCCOMPI_INTERNAL int _tuccompi_codelet_init(struct tuccompi_taskset *ts);

/* ---- jobs.c: jobs, the pool and its tokens, the sets in flight, fault injection */
/* Id of position @pos. */
static inline uint64_t _tuccompi_ts_id(const struct tuccompi_taskset *ts, uint64_t pos)
{
	return ts->todo ? ts->todo[pos] : pos;
}
/* Submit one job: bound (the given ids) or a token (ids == NULL). */
TUCCOMPI_INTERNAL int _tuccompi_job_submit(struct tuccompi_taskset *ts, const uint64_t *ids, unsigned n);
/* Run a job on this worker (the codelet's entries): a token takes its tasks from the pool first. */
TUCCOMPI_INTERNAL void _tuccompi_job_run(void *buffers[], struct _tuccompi_job *job, enum tuccompi_unit_kind kind);
/* Is there a healthy unit of this node that can run the plug-in? */
TUCCOMPI_INTERNAL int _tuccompi_someone_left(const struct tuccompi_taskset *ts);
/* This rank takes positions [first, first+count): equal jobs for unit-share policies, the pool
 * otherwise. */
TUCCOMPI_INTERNAL int _tuccompi_ts_take(struct tuccompi_taskset *ts, uint64_t first, uint64_t count);
/* Add positions [first, first+count) to the pool (lock held) and queue tokens for them. */
TUCCOMPI_INTERNAL void _tuccompi_pool_add_locked(struct tuccompi_taskset *ts, uint64_t first, uint64_t count);
/* Put ids back at the front of the pool (a failed job's), lock held. */
TUCCOMPI_INTERNAL void _tuccompi_pool_return_locked(struct tuccompi_taskset *ts, const uint64_t *ids, unsigned n);
/* Take up to @max ids (lock held); returns how many. */
TUCCOMPI_INTERNAL unsigned _tuccompi_pool_take_locked(struct tuccompi_taskset *ts, uint64_t *ids, unsigned max);
/* Queue tokens so that every able worker finds one while the pool has tasks (lock held). */
TUCCOMPI_INTERNAL void _tuccompi_tokens_top_up_locked(struct tuccompi_taskset *ts);
/* Tell a HEARS_REMAINING policy what is left (lock held). */
TUCCOMPI_INTERNAL void _tuccompi_ts_tell_remaining_locked(struct tuccompi_taskset *ts);
/* Record the first error of the set (any thread). */
TUCCOMPI_INTERNAL void _tuccompi_ts_fail(struct tuccompi_taskset *ts, int err, const char *fmt, ...)
	TUCCOMPI_PRINTF(3, 4);
/* The sets in flight on this rank (PARALLEL adds, destroy removes; a stopped 1st layer fails them). */
TUCCOMPI_INTERNAL void _tuccompi_sets_add(struct tuccompi_taskset *ts);
TUCCOMPI_INTERNAL void _tuccompi_sets_remove(struct tuccompi_taskset *ts);
/* How many sets of this rank are in flight and not yet waited for. */
TUCCOMPI_INTERNAL int _tuccompi_sets_unwaited(void);

/* ---- faults.c: which failures pass (the job runs again on its unit) and which take a unit out */
/* Values of _tuccompi.unit_failed: in, out for the rest of the set, out for the rest of the run. */
enum
{
	TUCCOMPI_UNIT_IN = 0,
	TUCCOMPI_UNIT_OUT_SET,
	TUCCOMPI_UNIT_OUT_RUN,
};
/* Why a unit is taken out (_tuccompi_job::out). */
enum
{
	TUCCOMPI_OUT_NONE = 0,  /* no retry was possible (the set failed, a reduction): out for the set */
	TUCCOMPI_OUT_STICKY,    /* the unit is broken: out for the run */
	TUCCOMPI_OUT_REPEATED,  /* more failures than TUCCOMPI_RETRIES_UNIT in the set */
	TUCCOMPI_OUT_SPENT,     /* the rank's TUCCOMPI_RETRIES_SET are spent */
};
/* TUCCOMPI_FAULT_INJECT: what is injected into (0 CPU jobs, 1 CUDA jobs, 2 MS requests, 3 requests
 * reaching the MS master), and how a unit fares after an injected job fault. */
enum
{
	TUCCOMPI_INJECT_MS = 2,
	TUCCOMPI_INJECT_MSHANG = 3,
	TUCCOMPI_INJECT_KINDS = 4,
	TUCCOMPI_INJECT_MAX = 16, /* faults in one value */
};
enum
{
	TUCCOMPI_FAULT_TRANSIENT = 1, /* the unit works again at once */
	TUCCOMPI_FAULT_REPEAT,        /* the job fails at every run on its unit */
	TUCCOMPI_FAULT_STICKY,        /* the unit is broken */
};
struct _tuccompi_inject
{
	int n;
	int what[TUCCOMPI_INJECT_MAX], mode[TUCCOMPI_INJECT_MAX];
	long at[TUCCOMPI_INJECT_MAX];
};
/* TUCCOMPI_FAULT_INJECT's value @e (NULL: none) into @in: 0, or -EINVAL naming what it takes
 * (tuccompi_init refuses a bad value). */
TUCCOMPI_INTERNAL int _tuccompi_inject_parse(const char *e, struct _tuccompi_inject *in);
/* Read TUCCOMPI_FAULT_INJECT again and restart the counts (PARALLEL): the N-th event of a set. */
TUCCOMPI_INTERNAL void _tuccompi_inject_reset(void);
/* Does the next event of @what fail? 0, or the fault's TUCCOMPI_FAULT_* (1 for MS events). */
TUCCOMPI_INTERNAL int _tuccompi_injected(int what);
/* After @job failed on unit @u: 1 when it may run again there at once (counted), else 0 with
 * job->out saying why not. */
TUCCOMPI_INTERNAL int _tuccompi_job_retry(struct _tuccompi_job *job, int u);
/* Take unit @u out for job->out's cause, with a warning saying which (once per unit and cause). */
TUCCOMPI_INTERNAL void _tuccompi_unit_take_out(const struct _tuccompi_job *job, int u);
/* PARALLEL: units out for the rest of an earlier set are tried again. */
TUCCOMPI_INTERNAL void _tuccompi_units_reinstate(void);
/* "GPU" or "CPU core", for messages about unit @u. */
TUCCOMPI_INTERNAL const char *_tuccompi_unit_name(int u);

/* ---- ms_ranks.c: the MS protocol. A grant is [first, first+count) of positions; count 0 is stop. */
/* @rank_tail: the policy's TUCCOMPI_POLICY_RANK_TAIL (the master may stop slow ranks at the end). */
TUCCOMPI_INTERNAL struct _tuccompi_ms *_tuccompi_ms_start(uint64_t ntasks, int master, unsigned serial, int rank_tail);
/* Ask for @want positions, or up to @want_max if the master judges it fair given @rate (this
 * rank's tasks per second, 0 unknown), @job_s (seconds per job on this rank's faster kind of
 * unit, 0 unknown) and @task_s (seconds per task of a worker of its fastest kind per task, 0
 * unknown); a blocking round trip to the rank's master (the root or its group's sub-master), or
 * local on a rank that answers itself. @rest gets this rank's share by speed of what is left after
 * this grant. */
TUCCOMPI_INTERNAL int _tuccompi_ms_request(struct _tuccompi_ms *ms, uint64_t want, uint64_t want_max, double rate,
					   double job_s, double task_s, uint64_t *first, uint64_t *count, uint64_t *rest);
/* Wait for the master to have answered every rank's last request, free. */
TUCCOMPI_INTERNAL int _tuccompi_ms_finish(struct _tuccompi_ms *ms, double *comm_s, uint64_t *nrequests);
/* Feed the task set from the master on a thread of its own (ranks other than a lone one). */
TUCCOMPI_INTERNAL int _tuccompi_ms_feed(struct tuccompi_taskset *ts);
/* This rank's mean round trip to its master (0: none yet, or it answers itself); whether it
 * answers its own requests (the root, a sub-master); a sub-master's first request for its group,
 * at the set's start (@pack: its own pack). */
TUCCOMPI_INTERNAL double _tuccompi_ms_rtt(const struct _tuccompi_ms *ms);
TUCCOMPI_INTERNAL int _tuccompi_ms_answers_itself(const struct _tuccompi_ms *ms);
TUCCOMPI_INTERNAL void _tuccompi_ms_prefetch(struct _tuccompi_ms *ms, uint64_t pack);

/* ---- journal.c */
/* Resuming, on the root: read every JOURNAL.rank-* file, whatever the earlier number of ranks, into
 * the root's results; *done (malloc'd, ntasks bytes) marks the tasks they hold. */
TUCCOMPI_INTERNAL int _tuccompi_journal_read(struct tuccompi_taskset *ts, uint8_t **done);
/* Resuming, on every rank: run only the tasks @done does not mark (ts->todo, ntodo). */
TUCCOMPI_INTERNAL int _tuccompi_journal_skip(struct tuccompi_taskset *ts, const uint8_t *done);
/* Open this rank's journal file (appended to when resuming). */
TUCCOMPI_INTERNAL int _tuccompi_journal_open(struct tuccompi_taskset *ts);
/* Record finished tasks (any thread). */
TUCCOMPI_INTERNAL void _tuccompi_journal_record(struct tuccompi_taskset *ts, const uint64_t *ids, unsigned n);
/* Flush and close (remove = the set completed and the caller asked for it). */
TUCCOMPI_INTERNAL int _tuccompi_journal_close(struct tuccompi_taskset *ts);

/* ---- reduce.c: a set's reduction (desc.reduce) */
/* PARALLEL's checks of desc.reduce. */
TUCCOMPI_INTERNAL int _tuccompi_reduce_check(const struct tuccompi_taskset_desc *d);
/* The set's partial buffers (none made yet). */
TUCCOMPI_INTERNAL int _tuccompi_reduce_start(struct tuccompi_taskset *ts);
/* SYN, collective, once every job of the set has ended everywhere: the result on the root. */
TUCCOMPI_INTERNAL int _tuccompi_reduce_finish(struct tuccompi_taskset *ts);
TUCCOMPI_INTERNAL void _tuccompi_reduce_free(struct tuccompi_taskset *ts);
/* ---- pin.c: register the set's results with CUDA for its life when GPUs write large ones
 * (TUCCOMPI_PIN_RESULTS; 0, or -EINVAL for a bad value), and undo it (idempotent) */
TUCCOMPI_INTERNAL int _tuccompi_results_pin(struct tuccompi_taskset *ts, size_t bytes);
TUCCOMPI_INTERNAL void _tuccompi_results_unpin(struct tuccompi_taskset *ts);
/* Shared data a GPU will read, registered with CUDA while it is shared (TUCCOMPI_PIN_SHARED): 0
 * (registered or left as it is), or -EINVAL for a bad TUCCOMPI_PIN_SHARED. */
TUCCOMPI_INTERNAL int _tuccompi_shared_pin(struct tuccompi_shared *s, const void *ptr, size_t size);
/* TUCCOMPI_PIN_SHARED: the least size of shared data to register (default 1 MiB; 0: never); -EINVAL
 * for a value that is not a size in bytes. */
TUCCOMPI_INTERNAL int _tuccompi_pin_shared_min(size_t *min);
TUCCOMPI_INTERNAL void _tuccompi_shared_unpin(struct tuccompi_shared *s);

#endif
