/* MS across ranks, a rank's side: its feeder, which keeps its units supplied by asking its master
 * (the master's side, the protocol and the grants: ms_ranks.c).
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
 * are done. */
#include "link.h"
#include "taskset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS_HORIZON_RTT 200
#define MS_LOCAL_HORIZON_S 0.002
#define MS_PREFETCH_RTT 2.0
#define MS_LOCAL_RTT_S 50e-6
#define MS_ADAPT_REQUESTS_PER_S 1000.0

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
	const uint64_t low_min = _tuccompi_ms_answers_itself(ms) ? target : take_max;
	/* TUCCOMPI_MS_ADAPT_RATE: MS_ADAPT_REQUESTS_PER_S for tests and comparisons (0: always) */
	double adapt_rate;
	if (_tuccompi_env_number("TUCCOMPI_MS_ADAPT_RATE", MS_ADAPT_REQUESTS_PER_S, 0, 1e12, &adapt_rate) < 0)
		adapt_rate = MS_ADAPT_REQUESTS_PER_S; /* changed since tuccompi_init, which refused a bad value */
	uint64_t asked = 0; /* requests made */
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
		double measured = _tuccompi_ms_rtt(ms), rtt = measured > 0 ? measured : MS_LOCAL_RTT_S;
		/* a remote rank's units go on taking tasks while the request travels: ask for what they
		 * will take by the time the grant arrives too, so that it lands with `low` in hand (asking
		 * only for low - in hand lands a round trip's work short, and on a slow link a rank of few
		 * units runs dry while it waits) */
		if (want && rate > 0 && measured > 0)
			want += (uint64_t)(rate * rtt + 0.5);
		/* adaptive pack: enough for a horizon of round trips at the units' rate; the master
		 * caps it by this rank's share of the speed */
		uint64_t want_max = want;
		if (want && asked && rate > 0 && rate >= adapt_rate * (double)want)
		{
			double horizon = measured > 0 ? MS_HORIZON_RTT * rtt : MS_LOCAL_HORIZON_S;
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
		asked++;
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
	_tuccompi_ms_prefetch(ts->ms, pack_target(ts, NULL));
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
