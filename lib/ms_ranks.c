/* MS (master-slave) across ranks, both halves: the master's side, which hands out ranges of
 * task positions, and a rank's feeder, which keeps its units supplied by asking the master.
 *
 * Ranks ask the master for positions: a request carries how many the rank wants; the grant is
 * a range [first, first+count), or count = 0 once everything is handed out ("stop"), with how
 * many the master still has after it (policies that watch the end of a set use it). Every
 * rank keeps asking until it has been told to stop, so the master knows it is done after
 * nranks-1 remote stops. The master's own units ask through a function call. Requests and grants
 * are StarPU-MPI messages (link.c), numbered per rank and set; the master answers each request
 * from the receive's completion callback, in StarPU-MPI's progression thread, with no thread of
 * its own: a grant leaves microseconds after its request arrives, whatever the master's units do.
 *
 * Pack sizes: the paper's MS asks for one pack per idle unit (one task per CPU core, MK per
 * GPU; here, with batches, a batch per CPU core and MK batches per GPU). When a rank's units
 * finish tasks faster than a round trip to the master, that costs more in messages than in
 * work, so a rank that would otherwise ask more than MS_ADAPT_REQUESTS_PER_S times a second may
 * take more: enough for about MS_HORIZON_RTT round trips at its units' task rate (on the master
 * itself, whose requests are function calls but still cost its feeder a wake-up each, enough for
 * MS_LOCAL_HORIZON_S of work). Below that rate the master's server is idle almost all the time, and
 * a larger pack only puts slow tasks in the tail. The master grants that only up to half of the
 * rank's share, by measured speed, of what is left (weighted factoring), so packs shrink as the set
 * drains and a slow rank never holds a large part of the tail. With tasks slow relative to a round
 * trip this is exactly the paper's pack.
 *
 * When to ask: the paper's rank asks when a unit is idle, so its units wait a round trip at every
 * refill. The first request here is the paper's pack (a job for every unit); once the rank's rate
 * is known it asks whenever it holds fewer unstarted tasks than its units finish in
 * MS_PREFETCH_RTT round trips (at the units' rate, unit_speeds(), and the measured round trip; on
 * the master, its feeder's wake-up, MS_LOCAL_RTT_S), and never fewer than its largest job takes at
 * once, so the answer arrives before a unit runs dry; the master itself, whose feeder wakes up late
 * on a busy node, keeps the paper's pack in hand. With tasks slow relative to a round trip, that is
 * one job: the rank does not sit on a second pack that its cores would run after the faster ranks
 * are done.
 *
 * End of a set (policies with TUCCOMPI_POLICY_RANK_TAIL, MS-TAIL): MS-TAIL's rule between ranks.
 * Each request also carries the job time of the rank's faster kind of unit and the time per task of
 * its fastest kind (a job's time over the tasks it carries); the master answers "stop" to a rank when
 * the ranks at least twice as fast per task would start everything left before it finishes one job
 * (without it, a rank of CPU cores keeps taking sources that its cores finish after the GPU's rank
 * has run out of work). Speed is judged per task, as MS-TAIL judges units: a GPU's job of many
 * tasks can take as long as a CPU core's job of one, and judged per job a GPU's rank would not count
 * as faster. The rank with the least time per task is never stopped, so the last tasks always find
 * a rank. A rank that stopped no longer counts as fast. */
#include "link.h"
#include "taskset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MS_HORIZON_RTT 200
#define MS_LOCAL_HORIZON_S 0.002
#define MS_PREFETCH_RTT 2.0
#define MS_LOCAL_RTT_S 50e-6
#define MS_ADAPT_REQUESTS_PER_S 1000.0

#define ENDLOG_LEFT 2048 /* TUCCOMPI_END_LOG: grants with at most this many tasks left */

struct _tuccompi_ms
{
	uint64_t ntasks;
	uint64_t next; /* master: first id not handed out */
	int master;
	unsigned serial;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* master: a remote rank stopped */
	int nstops, nremote; /* master: remote ranks told to stop, of */
	uint64_t nsent;      /* a remote rank: requests sent (the next one's number) */
	double comm_s;
	uint64_t nrequests;
	uint64_t *rate; /* master: each rank's last reported task rate (tasks per 1000 s) */
	uint64_t *job_us; /* master: each rank's last reported job time on its faster kind of unit (us) */
	uint64_t *task_ns; /* master: each rank's last reported time per task on its fastest kind of unit (ns) */
	int rank_tail;    /* the policy's TUCCOMPI_POLICY_RANK_TAIL */
	int end_log;      /* TUCCOMPI_END_LOG: print the grants of the set's last tasks */
	double t_start;
};

/* Request: want, want_max, rate (tasks per 1000 s), job time (us), time per task (ns); grant: first,
 * count, rest. */
#define MS_REQ_WORDS 5

/* Would the ranks at least twice as fast per task as @rank start the @left tasks before it
 * finishes one job? (lock held) */
static int faster_ranks_finish_first(const struct _tuccompi_ms *ms, int rank, uint64_t left)
{
	double mine = (double)ms->job_us[rank] * 1e-6, rate = 0;
	if (mine <= 0 || !ms->task_ns[rank])
		return 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (r != rank && ms->task_ns[r] && ms->rate[r] && 2 * ms->task_ns[r] <= ms->task_ns[rank])
			rate += (double)ms->rate[r] / 1000;
	return rate > 0 && (double)left / rate < mine;
}

/* A request: the paper's pack (want), what the rank would take to save round trips
 * (want_max) and its units' task rate. The master grants the pack, or more up to the rank's
 * share of what is left by measured speed, halved (factoring), so that a slow rank never sits
 * on a large part of the tail. */
static void ms_take(struct _tuccompi_ms *ms, int rank, const uint64_t req[MS_REQ_WORDS], uint64_t *first,
		    uint64_t *count, uint64_t *rest)
{
	pthread_mutex_lock(&ms->lock);
	uint64_t left = ms->ntasks - ms->next, want = req[0];
	if (req[2])
		ms->rate[rank] = req[2];
	if (req[3])
		ms->job_us[rank] = req[3];
	if (req[4])
		ms->task_ns[rank] = req[4];
	int stopped = ms->rank_tail && want && faster_ranks_finish_first(ms, rank, left);
	if (stopped)
		want = 0; /* stop: the faster ranks take the rest (the adaptive pack below may not override it) */
	else if (req[1] > want)
	{
		/* until every rank has told its speed, the paper's pack */
		uint64_t cap = 0;
		double sum = 0;
		int known = 0;
		for (int r = 0; r < _tuccompi.nranks; r++)
			if (ms->rate[r])
				sum += (double)ms->rate[r], known++;
		if (known == _tuccompi.nranks && sum > 0)
			cap = (uint64_t)((double)left * (double)ms->rate[rank] / sum / 2);
		uint64_t more = req[1] < cap ? req[1] : cap;
		if (more > want)
			want = more;
	}
	*first = ms->next;
	*count = want < left ? want : left;
	ms->next += *count;
	*rest = ms->ntasks - ms->next;
	if (ms->end_log && left <= ENDLOG_LEFT)
		fprintf(stderr,
			"[tuccompi %d/%d] MS grant at %.1f ms: rank %d asked %llu (up to %llu), got %llu of %llu left; "
			"its rate %.0f/s, job %.1f ms, %.3f ms per task%s\n",
			_tuccompi.rank, _tuccompi.nranks, 1e3 * (_tuccompi_now() - ms->t_start), rank,
			(unsigned long long)req[0], (unsigned long long)req[1], (unsigned long long)*count,
			(unsigned long long)left, (double)ms->rate[rank] / 1000, (double)ms->job_us[rank] / 1000,
			(double)ms->task_ns[rank] * 1e-6, stopped ? " (stopped: faster ranks take the rest)" : "");
	if (*count == 0) /* that rank is done asking: it no longer counts as fast */
		ms->rate[rank] = ms->job_us[rank] = ms->task_ns[rank] = 0;
	pthread_mutex_unlock(&ms->lock);
}

/* The master: what a request from a remote rank needs to be answered. */
struct ms_rx
{
	struct _tuccompi_ms *ms;
	int rank;
	uint64_t k; /* its number */
};

static void ms_post(struct _tuccompi_ms *ms, int rank, uint64_t k);

/* A request arrived (StarPU-MPI's thread, or the master's own when it was there before the
 * master posted its receive): grant, and wait for the next one unless this was the rank's stop. */
static void ms_on_request(struct _tuccompi_recv *r, void *arg)
{
	struct ms_rx *x = arg;
	struct _tuccompi_ms *ms = x->ms;
	int rank = x->rank;
	uint64_t k = x->k;
	free(x);
	if (_tuccompi_injected(TUCCOMPI_INJECT_MSHANG))
		return; /* a stuck master (TUCCOMPI_FAULT_INJECT=mshang:N): alive, never answering */
	uint64_t req[MS_REQ_WORDS], grant[3];
	memcpy(req, _tuccompi_recv_data(r), sizeof(req));
	ms_take(ms, rank, req, &grant[0], &grant[1], &grant[2]);
	if (_tuccompi_link_send(rank, _tuccompi_tag(TUCCOMPI_TAG_MS_GRANT, ms->serial, k), grant, sizeof(grant)) < 0)
		return; /* the layer stopped: the set fails everywhere */
	if (grant[1] == 0)
	{
		pthread_mutex_lock(&ms->lock);
		ms->nstops++;
		pthread_cond_broadcast(&ms->cond);
		pthread_mutex_unlock(&ms->lock);
	}
	else
		ms_post(ms, rank, k + 1);
}

static void ms_post(struct _tuccompi_ms *ms, int rank, uint64_t k)
{
	struct ms_rx *x = malloc(sizeof(*x));
	if (!x)
	{
		_tuccompi_link_stop_all(-ENOMEM, 1, "rank %d: out of memory in the MS master", _tuccompi.rank);
		return;
	}
	*x = (struct ms_rx){ .ms = ms, .rank = rank, .k = k };
	if (!_tuccompi_link_recv_post(rank, _tuccompi_tag(TUCCOMPI_TAG_MS_REQ, ms->serial, k), MS_REQ_WORDS * sizeof(uint64_t),
				      ms_on_request, x))
		free(x);
}

struct _tuccompi_ms *_tuccompi_ms_start(uint64_t ntasks, int master, unsigned serial, int rank_tail)
{
	struct _tuccompi_ms *ms = calloc(1, sizeof(*ms));
	if (!ms)
		return NULL;
	ms->ntasks = ntasks;
	ms->master = master;
	ms->serial = serial;
	ms->rank_tail = rank_tail;
	ms->end_log = _tuccompi_env_flag("TUCCOMPI_END_LOG", 0);
	ms->t_start = _tuccompi_now();
	ms->rate = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
	ms->job_us = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
	ms->task_ns = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
	if (!ms->rate || !ms->job_us || !ms->task_ns)
	{
		free(ms->rate);
		free(ms->job_us);
		free(ms->task_ns);
		free(ms);
		return NULL;
	}
	pthread_mutex_init(&ms->lock, NULL);
	pthread_cond_init(&ms->cond, NULL);
	if (_tuccompi_link_on() && _tuccompi.rank == master)
	{
		/* everything above is ready: a request already here is answered inside ms_post */
		ms->nremote = _tuccompi.nranks - 1;
		for (int r = 0; r < _tuccompi.nranks; r++)
			if (r != master)
				ms_post(ms, r, 0);
	}
	return ms;
}

int _tuccompi_ms_request(struct _tuccompi_ms *ms, uint64_t want, uint64_t want_max, double rate, double job_s,
			 double task_s, uint64_t *first, uint64_t *count, uint64_t *rest)
{
	ms->nrequests++;
	uint64_t req[MS_REQ_WORDS] = { want, want_max, (uint64_t)(rate * 1000), (uint64_t)(job_s * 1e6),
				       (uint64_t)(task_s * 1e9) };
	if (task_s > 0 && !req[4])
		req[4] = 1; /* under a nanosecond: still known */
	if (_tuccompi.rank == ms->master || !_tuccompi_link_on())
	{
		ms_take(ms, _tuccompi.rank, req, first, count, rest);
		return 0;
	}
	/* A remote rank: the master's answer comes from a callback within microseconds of the
	 * request's arrival, so a live master that has not answered in TUCCOMPI_PEER_TIMEOUT seconds
	 * is stuck (a lost one is found sooner or later by the heartbeats: link.c). */
	double t0 = _tuccompi_now(), limit = _tuccompi_link_timeout();
	uint64_t k = ms->nsent++, grant[3];
	struct _tuccompi_recv *g =
		_tuccompi_link_recv_post(ms->master, _tuccompi_tag(TUCCOMPI_TAG_MS_GRANT, ms->serial, k), sizeof(grant), NULL, NULL);
	if (!g)
		return _tuccompi_link_broken() ? _tuccompi_link_broken() : -ENOMEM;
	int ret = _tuccompi_link_send(ms->master, _tuccompi_tag(TUCCOMPI_TAG_MS_REQ, ms->serial, k), req, sizeof(req));
	char what[128];
	snprintf(what, sizeof(what), "its answer to rank %d's request for tasks (it is the MS master)", _tuccompi.rank);
	if (ret == 0)
		ret = _tuccompi_link_recv_wait(g, limit > 0 ? t0 + limit : 0, what);
	if (ret < 0)
		return ret;
	memcpy(grant, _tuccompi_recv_data(g), sizeof(grant));
	_tuccompi_recv_free(g);
	ms->comm_s += _tuccompi_now() - t0;
	*first = grant[0];
	*count = grant[1];
	*rest = grant[2];
	return 0;
}

int _tuccompi_ms_finish(struct _tuccompi_ms *ms, double *comm_s, uint64_t *nrequests)
{
	/* the master: every remote rank has been told to stop, or the layer stopped */
	pthread_mutex_lock(&ms->lock);
	while (ms->nstops < ms->nremote && !_tuccompi_link_broken())
	{
		struct timespec ts;
		_tuccompi_abstime(0.05, &ts);
		pthread_cond_timedwait(&ms->cond, &ms->lock, &ts);
	}
	int all_stopped = ms->nstops >= ms->nremote;
	pthread_mutex_unlock(&ms->lock);
	if (comm_s)
		*comm_s = ms->comm_s;
	if (nrequests)
		*nrequests = ms->nrequests;
	if (!all_stopped)
		return _tuccompi_link_broken(); /* receives are still posted with ms as their argument: kept */
	pthread_mutex_destroy(&ms->lock);
	pthread_cond_destroy(&ms->cond);
	free(ms->rate);
	free(ms->job_us);
	free(ms->task_ns);
	free(ms);
	return 0;
}


/* ------------------------------------------------------------------ a rank's feeder */

/* The paper's pack: a batch per CPU core, MK batches per GPU; with @take_max, the most tasks one
 * job of this rank takes at once (a unit that finds fewer runs a partial batch). */
static uint64_t pack_target(const struct tuccompi_taskset *ts, uint64_t *take_max)
{
	uint64_t t = 0, m = 0;
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		const struct tuccompi_unit *u = &_tuccompi.units[k];
		uint64_t b = 0;
		if (_tuccompi.unit_failed[k])
			continue;
		if (u->kind == TUCCOMPI_UNIT_CPU && (ts->cl.where & STARPU_CPU))
			t += b = ts->batch[TUCCOMPI_UNIT_CPU];
		else if (u->kind == TUCCOMPI_UNIT_CUDA && (ts->cl.where & STARPU_CUDA))
			t += (uint64_t)ts->mk * (b = ts->batch[TUCCOMPI_UNIT_CUDA]);
		if (b > m)
			m = b;
	}
	if (take_max)
		*take_max = m;
	return t;
}

/* What this rank's units can do, from their measured task times: the seconds a job takes on the
 * faster kind of unit, averaged over the units of that kind (the luckiest core's mean would promise
 * its end too early); in *task_s the seconds per task of one worker of the fastest kind per task (a
 * GPU stream's job of 512 tasks counts 1/512 of its time per task); and in *capacity the tasks per
 * second all of them run when kept busy (each kind's workers that run at once, CPU cores and MK
 * streams per GPU, at their mean task time). All 0 until a job finished. The achieved rate is no
 * measure: units that waited for tasks lower it, and a mark computed from it keeps them waiting (one
 * task in hand per round trip, on a slow link). */
static double unit_speeds(const struct tuccompi_taskset *ts, double *capacity, double *task_s)
{
	double busy[2] = { 0, 0 }, best = 0;
	uint64_t n[2] = { 0, 0 };
	int at_once[2] = { 0, 0 };
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		const struct tuccompi_unit *u = &_tuccompi.units[k];
		int c = u->kind == TUCCOMPI_UNIT_CUDA;
		for (int i = 0; i < u->nworkers; i++)
		{
			n[c] += atomic_load(&ts->worker_ntasks[u->workers[i]]);
			busy[c] += 1e-9 * (double)atomic_load(&ts->worker_busy_ns[u->workers[i]]);
		}
		if (!_tuccompi.unit_failed[k] && (ts->cl.where & (c ? STARPU_CUDA : STARPU_CPU)))
			at_once[c] += c ? (ts->mk < u->nworkers ? ts->mk : u->nworkers) : 1;
	}
	*capacity = *task_s = 0;
	for (int c = 0; c < 2; c++)
	{
		if (!n[c] || busy[c] <= 0)
			continue;
		double per_task = busy[c] / (double)n[c];
		double job = per_task * ts->batch[c ? TUCCOMPI_UNIT_CUDA : TUCCOMPI_UNIT_CPU];
		if (best == 0 || job < best)
			best = job;
		if (*task_s == 0 || per_task < *task_s)
			*task_s = per_task;
		*capacity += at_once[c] * (double)n[c] / busy[c];
	}
	return best;
}

static void *feeder(void *arg)
{
	struct tuccompi_taskset *ts = arg;
	struct _tuccompi_ms *ms = ts->ms;
	uint64_t take_max;
	const uint64_t target = pack_target(ts, &take_max);
	uint64_t rest = ts->ntodo, low = target; /* ask when fewer than `low` tasks are in hand */
	/* The least `low` may be: a job of the largest unit; on the master, the paper's pack. The
	 * master's feeder is woken by a signal from the unit that took a task, not by a message: on
	 * a busy node that takes a scheduler time slice, far more than MS_LOCAL_RTT_S, and a mark of
	 * one job starved its units (their rate fell, the mark with it; tests/sched/mpi_policies on
	 * a busy 2-core machine). Its grants cost no message, so it keeps the pack in hand. */
	const uint64_t low_min = _tuccompi.rank == ms->master ? target : take_max;
	/* TUCCOMPI_MS_ADAPT_RATE: MS_ADAPT_REQUESTS_PER_S for tests and comparisons (0: always) */
	double adapt_rate;
	if (_tuccompi_env_number("TUCCOMPI_MS_ADAPT_RATE", MS_ADAPT_REQUESTS_PER_S, 0, 1e12, &adapt_rate) < 0)
		adapt_rate = MS_ADAPT_REQUESTS_PER_S; /* changed since tuccompi_init, which refused a bad value */
	for (;;)
	{
		pthread_mutex_lock(&ts->lock);
		ts->feed_low = low;
		while (!ts->fail.err && _tuccompi_ts_in_hand(ts) >= low)
			pthread_cond_wait(&ts->cond, &ts->lock);
		uint64_t want = ts->fail.err ? 0 : low - _tuccompi_ts_in_hand(ts);
		pthread_mutex_unlock(&ts->lock);
		double rate, task_s, job_s = unit_speeds(ts, &rate, &task_s);
		/* the master's own requests are function calls, but each still costs this thread a
		 * wake-up: MS_LOCAL_RTT_S for a round trip, a horizon of MS_LOCAL_HORIZON_S */
		double rtt = ms->comm_s > 0 && ms->nrequests ? ms->comm_s / (double)ms->nrequests : MS_LOCAL_RTT_S;
		/* a remote rank's units go on taking tasks while the request travels: ask for what they
		 * will take by the time the grant arrives too, so that it lands with `low` in hand (asking
		 * only for low - in hand lands a round trip's work short, and on a slow link a rank of few
		 * units runs dry while it waits) */
		if (want && rate > 0 && ms->comm_s > 0)
			want += (uint64_t)(rate * rtt + 0.5);
		/* adaptive pack: enough for a horizon of round trips at the units' rate; the master
		 * caps it by this rank's share of the speed */
		uint64_t want_max = want;
		if (want && ms->nrequests && rate > 0 && rate >= adapt_rate * (double)want)
		{
			double horizon = ms->comm_s > 0 ? MS_HORIZON_RTT * rtt : MS_LOCAL_HORIZON_S;
			uint64_t adapt = (uint64_t)(rate * horizon);
			if (adapt > want_max)
				want_max = adapt;
		}
		/* the next request goes out while the units still have this much to start */
		if (rate > 0)
		{
			low = (uint64_t)(rate * rtt * MS_PREFETCH_RTT + 0.5);
			if (low < low_min)
				low = low_min;
		}
		uint64_t first = 0, count = 0;
		int ret = _tuccompi_injected(TUCCOMPI_INJECT_MS)
				  ? _tuccompi_error(-EIO, "request to the MS master failed (fault injected by TUCCOMPI_FAULT_INJECT)")
				  : _tuccompi_ms_request(ms, want, want_max, rate, job_s, task_s, &first, &count, &rest);
		if (ret == 0 && count)
			ret = _tuccompi_ts_take(ts, first, count);
		pthread_mutex_lock(&ts->lock);
		ts->master_rest = (unsigned long)rest;
		_tuccompi_ts_tell_remaining_locked(ts);
		pthread_mutex_unlock(&ts->lock);
		if (ret < 0 || count == 0)
		{
			/* After an error, still tell the master we stop (a request for nothing is
			 * answered with nothing and counts as our stop), so it does not wait for us;
			 * the lost tasks make tuccompi_wait() fail. */
			if (ret < 0)
			{
				_tuccompi_ts_fail(ts, ret, "%s", tuccompi_last_error());
				_tuccompi_ms_request(ms, 0, 0, 0, 0, 0, &first, &count, &rest);
			}
			pthread_mutex_lock(&ts->lock);
			ts->feeding = 0;
			ts->feed_low = 0;
			pthread_cond_broadcast(&ts->cond);
			pthread_mutex_unlock(&ts->lock);
			return NULL;
		}
	}
}

int _tuccompi_ms_feed(struct tuccompi_taskset *ts)
{
	ts->ms = _tuccompi_ms_start(ts->ntodo, ts->policy->master, ts->serial,
				    (ts->policy->flags & TUCCOMPI_POLICY_RANK_TAIL) != 0);
	if (!ts->ms)
		return _tuccompi_error(-ENOMEM, "cannot start the MS protocol");
	uint64_t first, count, rest;
	if (_tuccompi.nranks == 1)
	{
		/* One node: every task is this node's; units take them as they go. */
		_tuccompi_ms_request(ts->ms, ts->ntodo, ts->ntodo, 0, 0, 0, &first, &count, &rest);
		return _tuccompi_ts_take(ts, first, count);
	}
	if (pack_target(ts, NULL) == 0)
		/* No unit here can run it: a request for nothing is our stop. */
		return _tuccompi_ms_request(ts->ms, 0, 0, 0, 0, 0, &first, &count, &rest);
	ts->feeding = 1;
	ts->feeder_started = 1;
	if (pthread_create(&ts->feeder, NULL, feeder, ts) != 0)
	{
		ts->feeder_started = 0;
		ts->feeding = 0;
		/* still our stop, so that the master does not wait for us */
		_tuccompi_ms_request(ts->ms, 0, 0, 0, 0, 0, &first, &count, &rest);
		return _tuccompi_error(-EAGAIN, "cannot start the MS feeder thread");
	}
	return 0;
}
