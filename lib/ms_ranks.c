/* MS (master-slave) across ranks, the masters' side: the master, which hands out ranges of task
 * positions, and past MS_FLAT_MAX ranks the sub-masters of groups of ranks (below). A rank's feeder,
 * which keeps its units supplied by asking, is ms_feed.c.
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
 * Grants that grow with what is left (weighted factoring, the master's own rule): once a rank has
 * told its speed, the master grants it at least its share by speed of what is left, over
 * MS_FACTOR (TUCCOMPI_MS_FACTOR), whatever it asked. A set of N tasks on P ranks then costs each
 * rank about log2(N / (P x pack)) requests instead of N / (P x pack): with one request per pack the master's
 * progression thread answered every rank's every pack, and on many nodes it queued them (a
 * request's round trip grew with the nodes). Each grant lasts about as long on every rank (a share
 * by speed), so no rank holds more of the tail than the faster ones finish; the last grants are the
 * packs again. Ranks that have not told their speed yet count as fast as the mean of those that
 * have.
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

#define MS_GROUP_PREFETCH_RTT 2.0 /* a sub-master asks the root for this many round trips of its group's work */
#define MS_FACTOR 2.0 /* TUCCOMPI_MS_FACTOR; 0: no factoring (the adaptive pack alone) */
#define MS_FLAT_MAX 32 /* TUCCOMPI_MS_GROUP unset: groups only past this many ranks */
#define MS_GROUP_MIN 8
#define MS_WAIT_S 0.05 /* timed waits poll the layer's state this often */
#define MS_FIRST_PACKS 4 /* a sub-master's first requests: packs per member */

#define ENDLOG_LEFT 2048 /* TUCCOMPI_END_LOG: grants with at most this many tasks left */

/* Request: want, want_max, rate (tasks per 1000 s), job time (us), time per task (ns); grant: first,
 * count, rest: of the tasks still to hand out after it, the requester's share by speed (what it will
 * run of them, as far as its master can tell: MS-TAIL's rule inside the rank weighs its units
 * against that, not against the other ranks' work too, and a sub-master counts it as its group's). */
#define MS_REQ_WORDS 5
#define MS_GRANT_WORDS 3

struct ms_range
{
	uint64_t first, count;
};

/* A request a sub-master keeps until its pool has positions again. */
struct ms_pending
{
	int rank;
	uint64_t k;
	uint64_t req[MS_REQ_WORDS];
};

struct _tuccompi_ms
{
	uint64_t ntasks;
	uint64_t next; /* the root: first id not handed out */
	int master;    /* the root (the policy's master) */
	int upstream;  /* where this rank's requests go: its sub-master or the root; -1 on the root */
	int sub;       /* this rank answers a group from a pool of its own: a sub-master other than the root */
	int group;              /* the groups' size (nranks: no groups) */
	int group_lo, group_hi; /* a sub-master: the members it answers, [lo, hi) */
	unsigned char *serves;  /* the ranks this rank answers, itself included */
	unsigned serial;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a served rank stopped; a sub-master's pool got positions */
	int nstops, nremote; /* served remote ranks told to stop, of */
	uint64_t nsent;      /* requests sent upstream (the next one's number) */
	double comm_s;
	uint64_t nrequests;
	/* per served rank, as its last request said: */
	uint64_t *rate;   /* its task rate (tasks per 1000 s) */
	uint64_t *job_us; /* its job time on its faster kind of unit (us) */
	uint64_t *task_ns; /* its time per task on its fastest kind of unit (ns) */
	uint64_t *want;    /* its pack */
	unsigned char *stopped; /* told to stop */
	double rtt_min, rtt_max, rtt_first; /* a remote rank: its round trips' extremes, its first */
	double *rtts; /* END_LOG: every round trip, for their median */
	int nrtts, rtts_cap;
	int rank_tail;    /* the policy's TUCCOMPI_POLICY_RANK_TAIL */
	int end_log;      /* TUCCOMPI_END_LOG: print the grants of the set's last tasks */
	double factor;    /* TUCCOMPI_MS_FACTOR */
	double t_start;
	/* a sub-master: positions from the root, the members' requests waiting for them */
	struct ms_range *pool;
	int npool, pool_cap;
	uint64_t pool_n, pool_hi; /* tasks in the pool; right after the root's last grant */
	struct ms_pending *pend;
	int npend, pend_cap;
	uint64_t root_rest; /* the root's last grant: the group's share of what it still had */
	int root_done, root_asking;
	uint64_t root_sent, root_nrequests;
	double root_comm_s, root_t0;
	/* a master, under TUCCOMPI_END_LOG: the thread that answers (StarPU-MPI's progression thread),
	 * its CPU time and the clock at its first and latest answer, and the answers it made */
	pthread_t ans_thread;
	uint64_t ans_n;
	double ans_cpu0, ans_cpu1, ans_t0, ans_t1;
};

/* How many ranks a served rank asks for: a sub-master its group, any other itself. */
static int weight(const struct _tuccompi_ms *ms, int r)
{
	int n = _tuccompi.nranks;
	return ms->upstream < 0 && r && ms->group < n && r % ms->group == 0 ? (r + ms->group < n ? ms->group : n - r) : 1;
}

/* The served ranks' rates: their sum, those not told yet at the mean per rank of those told (lock
 * held). */
static double served_rate(const struct _tuccompi_ms *ms)
{
	double sum = 0, known = 0, unknown = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (ms->serves[r] && ms->rate[r])
			sum += (double)ms->rate[r], known += weight(ms, r);
		else if (ms->serves[r] && !ms->stopped[r])
			unknown += weight(ms, r);
	return known > 0 ? sum + unknown * sum / known : 0;
}

/* Would the served ranks at least twice as fast per task as @rank start the @left tasks before it
 * finishes one job? (lock held) */
static int faster_ranks_finish_first(const struct _tuccompi_ms *ms, int rank, uint64_t left)
{
	double mine = (double)ms->job_us[rank] * 1e-6, rate = 0;
	if (mine <= 0 || !ms->task_ns[rank])
		return 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (r != rank && ms->serves[r] && ms->task_ns[r] && ms->rate[r] && 2 * ms->task_ns[r] <= ms->task_ns[rank])
			rate += (double)ms->rate[r] / 1000;
	return rate > 0 && (double)left / rate < mine;
}

/* @rank's share by speed of the served ranks' work: its rate over theirs, or before it told its
 * rate, its share of the ranks (lock held). */
static double share_of(const struct _tuccompi_ms *ms, int rank)
{
	double all = served_rate(ms);
	if (all > 0 && ms->rate[rank])
		return (double)ms->rate[rank] / all > 1 ? 1 : (double)ms->rate[rank] / all;
	double w = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (ms->serves[r] && !ms->stopped[r])
			w += weight(ms, r);
	return w > 0 ? weight(ms, rank) / w : 1;
}

/* What a request of @rank says of it (lock held). */
static void note(struct _tuccompi_ms *ms, int rank, const uint64_t req[MS_REQ_WORDS])
{
	if (req[2])
		ms->rate[rank] = req[2];
	if (req[3])
		ms->job_us[rank] = req[3];
	if (req[4])
		ms->task_ns[rank] = req[4];
	if (req[0])
		ms->want[rank] = req[0];
}

/* How many of @left tasks a request of @rank gets (lock held): the paper's pack (want), or more up
 * to the rank's share of what is left by measured speed, halved, so that a slow rank never sits
 * on a large part of the tail, and at least that share over the factor; none when MS-TAIL's rule
 * stops it, judged on @all_left (a sub-master's pool is @left, the group's work is more). Records
 * what the request says of the rank. */
static uint64_t grant_size(struct _tuccompi_ms *ms, int rank, const uint64_t req[MS_REQ_WORDS], uint64_t left,
			   uint64_t all_left, int *stopped)
{
	uint64_t want = req[0];
	note(ms, rank, req);
	*stopped = ms->rank_tail && want && faster_ranks_finish_first(ms, rank, all_left);
	if (*stopped)
		return 0; /* the faster ranks take the rest (the grants below may not override it) */
	if (want && ms->rate[rank])
	{
		double share = (double)ms->rate[rank] / served_rate(ms);
		uint64_t cap = (uint64_t)((double)left * share / 2);
		uint64_t chunk = ms->factor > 0 ? (uint64_t)((double)left * share / ms->factor) : 0;
		uint64_t more = req[1] < cap ? req[1] : cap;
		if (chunk > more)
			more = chunk;
		if (more > want)
			want = more;
	}
	return want < left ? want : left;
}

/* A grant of @count was made to @rank (lock held): log it, and a rank told to stop no longer
 * counts as fast. */
static void granted(struct _tuccompi_ms *ms, int rank, const uint64_t req[MS_REQ_WORDS], uint64_t count, uint64_t left,
		    int stopped)
{
	if (ms->end_log && left <= ENDLOG_LEFT)
		fprintf(stderr,
			"[tuccompi %d/%d] MS grant at %.1f ms: rank %d asked %llu (up to %llu), got %llu of %llu left; "
			"its rate %.0f/s, job %.1f ms, %.3f ms per task%s\n",
			_tuccompi.rank, _tuccompi.nranks, 1e3 * (_tuccompi_now() - ms->t_start), rank,
			(unsigned long long)req[0], (unsigned long long)req[1], (unsigned long long)count,
			(unsigned long long)left, (double)ms->rate[rank] / 1000, (double)ms->job_us[rank] / 1000,
			(double)ms->task_ns[rank] * 1e-6, stopped ? " (stopped: faster ranks take the rest)" : "");
	if (count == 0)
	{
		ms->rate[rank] = ms->job_us[rank] = ms->task_ns[rank] = 0;
		ms->stopped[rank] = 1;
	}
}

/* The root: a grant from the set's positions. */
static void ms_take(struct _tuccompi_ms *ms, int rank, const uint64_t req[MS_REQ_WORDS], uint64_t grant[MS_GRANT_WORDS])
{
	pthread_mutex_lock(&ms->lock);
	uint64_t left = ms->ntasks - ms->next;
	int stopped;
	uint64_t count = grant_size(ms, rank, req, left, left, &stopped);
	grant[0] = ms->next;
	grant[1] = count;
	ms->next += count;
	grant[2] = ms->ntasks - ms->next;
	granted(ms, rank, req, count, left, stopped);
	grant[2] = (uint64_t)((double)grant[2] * share_of(ms, rank));
	pthread_mutex_unlock(&ms->lock);
}

/* ------------------------------------------------------------------ sub-masters
 *
 * Past MS_FLAT_MAX ranks (TUCCOMPI_MS_GROUP) the ranks form groups of consecutive ranks; each
 * group's first rank is its sub-master: the group's members ask it, not the root, and it answers
 * them from a pool of positions it asks the root for, as one rank of the group's speed (so the root
 * answers the first group's members and one sub-master per other group). A sub-master grants as
 * the root does, by its members' speeds and what is left to the group: its pool and, of the root's
 * rest, the group's share by speed. Every master then answers about sqrt(ranks) ranks, not all of
 * them: a burst of requests (every rank's first, or the packs at a set's end) waits for a group's
 * answers, not for the whole cluster's (docs/simulation.md). A member's request that finds the pool
 * empty waits in the sub-master until the root's next grant; the sub-master asks the root again
 * whenever its pool holds less than its group takes in about two round trips to the root. */

/* The group's share of what is left: its pool and its share of what the root still has, as the
 * root judged it at its last grant (lock held). */
static uint64_t group_left(const struct _tuccompi_ms *ms)
{
	return ms->pool_n + ms->root_rest;
}

/* A sub-master's answer to @rank from its pool (lock held): 1 with the grant, 0 when it must wait
 * for the root. Grants are one range each (the pool's first one, cut). */
static int sub_take(struct _tuccompi_ms *ms, int rank, const uint64_t req[MS_REQ_WORDS], uint64_t grant[MS_GRANT_WORDS])
{
	if (ms->pool_n == 0 && !ms->root_done && req[0])
	{
		note(ms, rank, req);
		return 0;
	}
	/* factoring on the pool: each member's grant a share of what the group holds, so that the
	 * pool lasts until the root's next grant; MS-TAIL's rule on all the group has left */
	uint64_t left = group_left(ms);
	int stopped;
	uint64_t count = grant_size(ms, rank, req, ms->pool_n, left, &stopped);
	if (ms->npool && count > ms->pool[0].count)
		count = ms->pool[0].count;
	if (!ms->npool)
		count = 0;
	grant[0] = ms->npool ? ms->pool[0].first : 0;
	grant[1] = count;
	if (count)
	{
		ms->pool[0].first += count;
		ms->pool[0].count -= count;
		ms->pool_n -= count;
		if (!ms->pool[0].count)
			memmove(ms->pool, ms->pool + 1, (size_t)--ms->npool * sizeof(*ms->pool));
	}
	granted(ms, rank, req, count, left, stopped);
	grant[2] = (uint64_t)((double)(ms->pool_n + ms->root_rest) * share_of(ms, rank));
	return 1;
}

/* The packs of the group's ranks still asking, those that have not asked yet at the mean of those
 * that have (lock held). */
static uint64_t group_packs(const struct _tuccompi_ms *ms)
{
	uint64_t packs = 0;
	int known = 0, unknown = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (ms->serves[r] && !ms->stopped[r])
		{
			packs += ms->want[r];
			known += ms->want[r] != 0;
			unknown += ms->want[r] == 0;
		}
	return known ? packs + packs * (uint64_t)unknown / (uint64_t)known : 0;
}

/* Wait on the master's condition for MS_WAIT_S at most (lock held). */
static void wait_a_while(struct _tuccompi_ms *ms)
{
	struct timespec ts;
	_tuccompi_abstime(MS_WAIT_S, &ts);
	pthread_cond_timedwait(&ms->cond, &ms->lock, &ts);
}

/* Room for one more item in *@arr (@n of @cap items of @size bytes), grown; -1 when out of memory
 * (the layer stops: the set fails everywhere). */
static int room(void **arr, int *cap, int n, size_t size)
{
	if (n < *cap)
		return 0;
	int c = *cap ? 2 * *cap : 8;
	void *p = realloc(*arr, (size_t)c * size);
	if (!p)
	{
		_tuccompi_link_stop_all(-ENOMEM, 1, "rank %d: out of memory in the MS sub-master", _tuccompi.rank);
		return -1;
	}
	*arr = p;
	*cap = c;
	return 0;
}

/* Should the sub-master ask the root now? Then it is marked as asking (lock held). */
static int sub_should_ask(struct _tuccompi_ms *ms)
{
	if (ms->root_done || ms->root_asking)
		return 0;
	uint64_t packs = group_packs(ms);
	double rtt = ms->root_nrequests ? ms->root_comm_s / (double)ms->root_nrequests : 0;
	uint64_t low = (uint64_t)(served_rate(ms) / 1000 * rtt * MS_GROUP_PREFETCH_RTT);
	if (low < packs)
		low = packs;
	/* and before the members' factoring grants, each a share of what the group has, have taken
	 * half of the last refill: a member that finds the pool empty waits a round trip to the root */
	if (low < ms->pool_hi / 2)
		low = ms->pool_hi / 2;
	if (ms->pool_n >= low && !ms->npend)
		return 0;
	ms->root_asking = 1;
	return 1;
}

static void sub_ask_root(struct _tuccompi_ms *ms);
static void ms_post(struct _tuccompi_ms *ms, int rank, uint64_t k);

/* Answers a sub-master made under its lock, sent after it. */
struct ms_answer
{
	int rank;
	uint64_t k;
	uint64_t grant[MS_GRANT_WORDS];
};

static void send_answer(struct _tuccompi_ms *ms, const struct ms_answer *a)
{
	if (_tuccompi_link_send(a->rank, _tuccompi_tag(TUCCOMPI_TAG_MS_GRANT, ms->serial, a->k), a->grant,
				sizeof(a->grant)) < 0)
		return; /* the layer stopped: the set fails everywhere */
	if (a->grant[1] == 0)
	{
		pthread_mutex_lock(&ms->lock);
		ms->nstops++;
		pthread_cond_broadcast(&ms->cond);
		pthread_mutex_unlock(&ms->lock);
	}
	else
		ms_post(ms, a->rank, a->k + 1);
}

/* The root's grant to this sub-master arrived (StarPU-MPI's thread): into the pool, then the
 * requests that waited for it. */
static void sub_on_root_grant(struct _tuccompi_recv *r, void *arg)
{
	struct _tuccompi_ms *ms = arg;
	uint64_t grant[MS_GRANT_WORDS];
	memcpy(grant, _tuccompi_recv_data(r), sizeof(grant));
	pthread_mutex_lock(&ms->lock);
	ms->root_comm_s += _tuccompi_now() - ms->root_t0;
	ms->root_nrequests++;
	ms->root_asking = 0;
	if (grant[1] && room((void **)&ms->pool, &ms->pool_cap, ms->npool, sizeof(*ms->pool)) < 0)
	{
		pthread_mutex_unlock(&ms->lock);
		return;
	}
	if (grant[1])
	{
		ms->pool[ms->npool++] = (struct ms_range){ grant[0], grant[1] };
		ms->pool_n += grant[1];
		ms->pool_hi = ms->pool_n;
	}
	else
		ms->root_done = 1;
	ms->root_rest = grant[2];
	struct ms_answer *ans = ms->npend ? malloc((size_t)ms->npend * sizeof(*ans)) : NULL;
	int nans = 0;
	while (ans && ms->npend && sub_take(ms, ms->pend[0].rank, ms->pend[0].req, ans[nans].grant))
	{
		ans[nans].rank = ms->pend[0].rank;
		ans[nans++].k = ms->pend[0].k;
		memmove(ms->pend, ms->pend + 1, (size_t)--ms->npend * sizeof(*ms->pend));
	}
	int ask = sub_should_ask(ms);
	pthread_cond_broadcast(&ms->cond);
	pthread_mutex_unlock(&ms->lock);
	for (int i = 0; i < nans; i++)
		send_answer(ms, &ans[i]);
	free(ans);
	if (ask)
		sub_ask_root(ms);
}

/* A request for the group to the root: what its members take in two round trips to the root, at
 * least their packs, with the group's rate and its fastest member's times (MS-TAIL's rule at the
 * root judges groups as ranks). */
static void sub_ask_root(struct _tuccompi_ms *ms)
{
	uint64_t req[MS_REQ_WORDS] = { 0 };
	pthread_mutex_lock(&ms->lock);
	uint64_t packs = group_packs(ms), best = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (ms->serves[r] && !ms->stopped[r] && ms->task_ns[r] && (!best || ms->task_ns[r] < best))
			best = ms->task_ns[r], req[3] = ms->job_us[r];
	double rate = served_rate(ms);
	double rtt = ms->root_nrequests ? ms->root_comm_s / (double)ms->root_nrequests : 0;
	uint64_t need = (uint64_t)(rate / 1000 * rtt * MS_GROUP_PREFETCH_RTT) * 2;
	/* before the group's speed is known (the root then grants what is asked), a few packs a
	 * member: each member's first jobs come from the pool, not from a request to the root each */
	if (!rate)
		packs *= MS_FIRST_PACKS;
	req[0] = need > packs ? need : packs;
	if (!req[0])
		req[0] = 1;
	req[0] = req[0] > ms->pool_n ? req[0] - ms->pool_n : 1;
	req[1] = req[0];
	req[2] = (uint64_t)rate;
	req[4] = best;
	uint64_t k = ms->root_sent++;
	ms->root_t0 = _tuccompi_now();
	pthread_mutex_unlock(&ms->lock);
	if (!_tuccompi_link_recv_post(ms->master, _tuccompi_tag(TUCCOMPI_TAG_MS_GRANT, ms->serial, k),
				      MS_GRANT_WORDS * sizeof(uint64_t), sub_on_root_grant, ms))
		return; /* the layer stopped */
	_tuccompi_link_send(ms->master, _tuccompi_tag(TUCCOMPI_TAG_MS_REQ, ms->serial, k), req, sizeof(req));
}

/* A sub-master's own units ask (its feeder thread): from the pool, waiting for the root when empty. */
static void sub_local(struct _tuccompi_ms *ms, const uint64_t req[MS_REQ_WORDS], uint64_t grant[MS_GRANT_WORDS])
{
	pthread_mutex_lock(&ms->lock);
	while (!sub_take(ms, _tuccompi.rank, req, grant))
	{
		if (sub_should_ask(ms))
		{
			pthread_mutex_unlock(&ms->lock);
			sub_ask_root(ms);
			pthread_mutex_lock(&ms->lock);
			continue;
		}
		if (_tuccompi_link_broken())
		{
			memset(grant, 0, MS_GRANT_WORDS * sizeof(uint64_t));
			break;
		}
		wait_a_while(ms);
	}
	int ask = sub_should_ask(ms);
	pthread_mutex_unlock(&ms->lock);
	if (ask)
		sub_ask_root(ms);
}

/* A sub-master, at the set's start: the group's first positions asked for at once, its members'
 * packs taken as large as its own (@pack), so that their first requests find them there. */
void _tuccompi_ms_prefetch(struct _tuccompi_ms *ms, uint64_t pack)
{
	if (!ms->sub || !pack)
		return;
	pthread_mutex_lock(&ms->lock);
	ms->want[_tuccompi.rank] = pack;
	int ask = sub_should_ask(ms);
	pthread_mutex_unlock(&ms->lock);
	if (ask)
		sub_ask_root(ms);
}

/* ------------------------------------------------------------------ answering requests */

/* What a request from a served rank needs to be answered. */
struct ms_rx
{
	struct _tuccompi_ms *ms;
	int rank;
	uint64_t k; /* its number */
};

/* A request to answer (END_LOG): the answering thread's CPU time, so that the master can say how
 * much of its thread a request takes (the simulation's StarPU-MPI time per message is spent there).
 * Only the answers of the thread that made the first count (a request there before its receive was
 * posted is answered by this rank's own thread). The simulated build has no thread CPU clock. */
static void note_answer(struct _tuccompi_ms *ms)
{
#ifndef TUCCOMPI_SIMGRID
	struct timespec cpu;
	if (!ms->end_log || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) != 0)
		return;
	double c = (double)cpu.tv_sec + 1e-9 * (double)cpu.tv_nsec, now = _tuccompi_now();
	pthread_mutex_lock(&ms->lock);
	if (!ms->ans_n)
	{
		ms->ans_thread = pthread_self();
		ms->ans_cpu0 = c;
		ms->ans_t0 = now;
	}
	if (pthread_equal(ms->ans_thread, pthread_self()))
	{
		ms->ans_n++;
		ms->ans_cpu1 = c;
		ms->ans_t1 = now;
	}
	pthread_mutex_unlock(&ms->lock);
#else
	(void)ms;
#endif
}

static void answer_request(struct _tuccompi_recv *r, struct ms_rx *x);

/* A request arrived (StarPU-MPI's thread, or this rank's own when it was there before the receive
 * was posted): grant, and wait for the next one unless this was the rank's stop. */
static void ms_on_request(struct _tuccompi_recv *r, void *arg)
{
	/* noted first: once the answer is sent, the set may end and @ms go */
	note_answer(((struct ms_rx *)arg)->ms);
	answer_request(r, arg);
}

static void answer_request(struct _tuccompi_recv *r, struct ms_rx *x)
{
	struct _tuccompi_ms *ms = x->ms;
	struct ms_answer a = { .rank = x->rank, .k = x->k };
	free(x);
	if (_tuccompi_injected(TUCCOMPI_INJECT_MSHANG))
		return; /* a stuck master (TUCCOMPI_FAULT_INJECT=mshang:N): alive, never answering */
	uint64_t req[MS_REQ_WORDS];
	memcpy(req, _tuccompi_recv_data(r), sizeof(req));
	if (!ms->sub)
	{
		ms_take(ms, a.rank, req, a.grant);
		send_answer(ms, &a);
		return;
	}
	pthread_mutex_lock(&ms->lock);
	int answered = sub_take(ms, a.rank, req, a.grant);
	if (!answered)
	{
		if (room((void **)&ms->pend, &ms->pend_cap, ms->npend, sizeof(*ms->pend)) < 0)
		{
			pthread_mutex_unlock(&ms->lock);
			return;
		}
		struct ms_pending *p = &ms->pend[ms->npend++];
		p->rank = a.rank;
		p->k = a.k;
		memcpy(p->req, req, sizeof(req));
	}
	int ask = sub_should_ask(ms);
	pthread_mutex_unlock(&ms->lock);
	if (answered)
		send_answer(ms, &a);
	if (ask)
		sub_ask_root(ms);
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

/* The groups' size: TUCCOMPI_MS_GROUP (1: none), else none up to MS_FLAT_MAX ranks and past it the
 * power of two nearest the ranks' square root, at least MS_GROUP_MIN. Every rank must see the same. */
static int group_size(int n)
{
	double g = 0;
	if (_tuccompi_env_number("TUCCOMPI_MS_GROUP", 0, 0, 1e6, &g) < 0)
		g = 0; /* changed since tuccompi_init, which refused a bad value */
	if (g >= 1)
		return g >= 2 ? (int)g : n;
	if (n <= MS_FLAT_MAX)
		return n;
	int s = MS_GROUP_MIN;
	while (s * s * 2 <= n)
		s *= 2;
	return s;
}

/* Who asks whom: the root answers its own group's members and every other group's sub-master;
 * a sub-master, its members. Without groups (or with a master other than rank 0) every rank asks
 * the root. */
static void ms_roles(struct _tuccompi_ms *ms)
{
	int n = _tuccompi.nranks, me = _tuccompi.rank, G = group_size(n);
	ms->group = n;
	if (!_tuccompi_link_on() || n == 1)
	{
		ms->upstream = -1;
		ms->serves[me] = 1;
		return;
	}
	if (ms->master != 0 || G >= n)
	{
		ms->upstream = me == ms->master ? -1 : ms->master;
		for (int r = 0; r < n; r++)
			ms->serves[r] = me == ms->master;
		ms->serves[me] = 1;
		return;
	}
	int lead = me / G * G;
	ms->group = G;
	ms->serves[me] = 1;
	if (me == 0)
	{
		ms->upstream = -1;
		for (int r = 1; r < n; r++)
			ms->serves[r] = r < G || r % G == 0;
	}
	else
	{
		ms->upstream = me == lead ? 0 : lead;
		if (me == lead)
		{
			ms->sub = 1;
			ms->group_lo = lead + 1;
			ms->group_hi = lead + G < n ? lead + G : n;
			for (int r = ms->group_lo; r < ms->group_hi; r++)
				ms->serves[r] = 1;
		}
	}
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
	if (_tuccompi_env_number("TUCCOMPI_MS_FACTOR", MS_FACTOR, 0, 1e6, &ms->factor) < 0)
		ms->factor = MS_FACTOR; /* changed since tuccompi_init, which refused a bad value */
	ms->t_start = _tuccompi_now();
	size_t n = (size_t)_tuccompi.nranks;
	ms->rate = calloc(n, sizeof(uint64_t));
	ms->job_us = calloc(n, sizeof(uint64_t));
	ms->task_ns = calloc(n, sizeof(uint64_t));
	ms->want = calloc(n, sizeof(uint64_t));
	ms->stopped = calloc(n, 1);
	ms->serves = calloc(n, 1);
	if (!ms->rate || !ms->job_us || !ms->task_ns || !ms->want || !ms->stopped || !ms->serves)
	{
		free(ms->rate);
		free(ms->job_us);
		free(ms->task_ns);
		free(ms->want);
		free(ms->stopped);
		free(ms->serves);
		free(ms);
		return NULL;
	}
	pthread_mutex_init(&ms->lock, NULL);
	pthread_cond_init(&ms->cond, NULL);
	ms_roles(ms);
	/* everything above is ready: a request already here is answered inside ms_post */
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (r != _tuccompi.rank && ms->serves[r])
			ms->nremote++;
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (r != _tuccompi.rank && ms->serves[r])
			ms_post(ms, r, 0);
	return ms;
}

/* END_LOG: a round trip kept for the median (none kept past an allocation failure: a diagnostic) */
static void keep_rtt(struct _tuccompi_ms *ms, double rtt)
{
	if (ms->nrtts == ms->rtts_cap)
	{
		int c = ms->rtts_cap ? 2 * ms->rtts_cap : 64;
		double *p = ms->rtts_cap >= 0 ? realloc(ms->rtts, (size_t)c * sizeof(*p)) : NULL;
		if (!p)
		{
			ms->rtts_cap = -1;
			return;
		}
		ms->rtts = p;
		ms->rtts_cap = c;
	}
	ms->rtts[ms->nrtts++] = rtt;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int _tuccompi_ms_request(struct _tuccompi_ms *ms, uint64_t want, uint64_t want_max, double rate, double job_s,
			 double task_s, uint64_t *first, uint64_t *count, uint64_t *rest)
{
	ms->nrequests++;
	uint64_t req[MS_REQ_WORDS] = { want, want_max, (uint64_t)(rate * 1000), (uint64_t)(job_s * 1e6),
				       (uint64_t)(task_s * 1e9) },
		 grant[MS_GRANT_WORDS];
	if (task_s > 0 && !req[4])
		req[4] = 1; /* under a nanosecond: still known */
	if (ms->upstream < 0 || ms->sub)
	{
		if (ms->sub)
			sub_local(ms, req, grant);
		else
			ms_take(ms, _tuccompi.rank, req, grant);
		*first = grant[0];
		*count = grant[1];
		*rest = grant[2];
		return 0;
	}
	/* A remote rank: the answer comes from a callback within microseconds of the request's arrival
	 * (a round trip more when a sub-master's pool is empty), so a live master that has not answered
	 * in TUCCOMPI_PEER_TIMEOUT seconds is stuck (a lost one is found sooner or later by the
	 * heartbeats: link.c). */
	double t0 = _tuccompi_now(), limit = _tuccompi_link_timeout();
	uint64_t k = ms->nsent++;
	struct _tuccompi_recv *g =
		_tuccompi_link_recv_post(ms->upstream, _tuccompi_tag(TUCCOMPI_TAG_MS_GRANT, ms->serial, k), sizeof(grant), NULL, NULL);
	if (!g)
		return _tuccompi_link_broken() ? _tuccompi_link_broken() : -ENOMEM;
	int ret = _tuccompi_link_send(ms->upstream, _tuccompi_tag(TUCCOMPI_TAG_MS_REQ, ms->serial, k), req, sizeof(req));
	char what[128];
	snprintf(what, sizeof(what), "its answer to rank %d's request for tasks (it is the MS %s)", _tuccompi.rank,
		 ms->upstream == ms->master ? "master" : "sub-master of its group");
	if (ret == 0)
		ret = _tuccompi_link_recv_wait(g, limit > 0 ? t0 + limit : 0, what);
	if (ret < 0)
		return ret;
	memcpy(grant, _tuccompi_recv_data(g), sizeof(grant));
	_tuccompi_recv_free(g);
	double rtt = _tuccompi_now() - t0;
	ms->comm_s += rtt;
	if (ms->rtt_min == 0 || rtt < ms->rtt_min)
		ms->rtt_min = rtt;
	if (rtt > ms->rtt_max)
		ms->rtt_max = rtt;
	if (k == 0)
		ms->rtt_first = rtt;
	if (ms->end_log)
		keep_rtt(ms, rtt);
	*first = grant[0];
	*count = grant[1];
	*rest = grant[2];
	return 0;
}

/* Wait, on a master, until @done(ms) or the layer stopped (lock held). */
static void wait_until(struct _tuccompi_ms *ms, int (*done)(const struct _tuccompi_ms *))
{
	while (!done(ms) && !_tuccompi_link_broken())
	{
		wait_a_while(ms);
	}
}

static int all_stopped(const struct _tuccompi_ms *ms)
{
	return ms->nstops >= ms->nremote;
}

static int root_answered(const struct _tuccompi_ms *ms)
{
	return ms->root_done || !ms->root_asking;
}

int _tuccompi_ms_finish(struct _tuccompi_ms *ms, double *comm_s, uint64_t *nrequests)
{
	/* a master: every served rank has been told to stop, or the layer stopped; a sub-master then
	 * tells the root it is done, unless the root said so first (a request for nothing) */
	pthread_mutex_lock(&ms->lock);
	wait_until(ms, all_stopped);
	int done = all_stopped(ms);
	if (done && ms->sub)
	{
		wait_until(ms, root_answered);
		if (!ms->root_done && !ms->root_asking && !_tuccompi_link_broken())
		{
			ms->root_asking = 1;
			ms->pool_n = ms->npool = 0; /* a request for nothing: its answer is the root's stop */
			uint64_t req[MS_REQ_WORDS] = { 0 };
			uint64_t k = ms->root_sent++;
			ms->root_t0 = _tuccompi_now();
			pthread_mutex_unlock(&ms->lock);
			if (_tuccompi_link_recv_post(ms->master, _tuccompi_tag(TUCCOMPI_TAG_MS_GRANT, ms->serial, k),
						     MS_GRANT_WORDS * sizeof(uint64_t), sub_on_root_grant, ms))
				_tuccompi_link_send(ms->master, _tuccompi_tag(TUCCOMPI_TAG_MS_REQ, ms->serial, k), req, sizeof(req));
			pthread_mutex_lock(&ms->lock);
		}
		wait_until(ms, root_answered);
		done = ms->root_done;
	}
	pthread_mutex_unlock(&ms->lock);
	if (comm_s)
		*comm_s = ms->comm_s;
	if (nrequests)
		*nrequests = ms->nrequests;
	/* a remote rank's round trips: the least is the network and StarPU-MPI unloaded, what the mean
	 * adds to it the time its requests queued at its master (bench/sim_predict.sh reads this line) */
	if (ms->end_log && ms->rtt_min > 0)
	{
		double mean = ms->comm_s / (double)ms->nrequests,
		       later = ms->nrequests > 1 ? (ms->comm_s - ms->rtt_first) / (double)(ms->nrequests - 1) : mean,
		       median = mean;
		/* the median: the mean carries the bursts (every rank's first requests at once, the
		 * packs at the end), the median what a request meets in between */
		if (ms->nrtts == (int)ms->nrequests && ms->nrtts > 0)
		{
			qsort(ms->rtts, (size_t)ms->nrtts, sizeof(*ms->rtts), cmp_double);
			median = ms->nrtts % 2 ? ms->rtts[ms->nrtts / 2]
					       : (ms->rtts[ms->nrtts / 2 - 1] + ms->rtts[ms->nrtts / 2]) / 2;
		}
		fprintf(stderr,
			"[tuccompi %d/%d] MS round trips: %llu, least %.3f ms, mean %.3f ms, most %.3f ms, first %.3f ms: "
			"queued %.3f ms on average (%.1f%% of the least), after the first %.3f ms (%.1f%%); median %.3f ms "
			"(queued %.3f ms, %.1f%%)\n",
			_tuccompi.rank, _tuccompi.nranks, (unsigned long long)ms->nrequests, 1e3 * ms->rtt_min, 1e3 * mean,
			1e3 * ms->rtt_max, 1e3 * ms->rtt_first, 1e3 * (mean - ms->rtt_min), 100 * (mean - ms->rtt_min) / ms->rtt_min,
			1e3 * (later - ms->rtt_min), 100 * (later - ms->rtt_min) / ms->rtt_min, 1e3 * median,
			1e3 * (median - ms->rtt_min), 100 * (median - ms->rtt_min) / ms->rtt_min);
	}
	if (ms->end_log && ms->ans_n > 1 && ms->ans_t1 > ms->ans_t0)
		fprintf(stderr,
			"[tuccompi %d/%d] MS answers: %llu in %.3f s (%.0f/s); the answering thread's CPU %.1f us per answer "
			"(its polling included, from its first answer to its last)\n",
			_tuccompi.rank, _tuccompi.nranks, (unsigned long long)ms->ans_n, ms->ans_t1 - ms->ans_t0,
			(double)(ms->ans_n - 1) / (ms->ans_t1 - ms->ans_t0),
			1e6 * (ms->ans_cpu1 - ms->ans_cpu0) / (double)(ms->ans_n - 1));
	if (ms->end_log && ms->sub && ms->root_nrequests)
		fprintf(stderr, "[tuccompi %d/%d] MS sub-master of ranks %d-%d: %llu requests to the root, %.3f ms per round trip\n",
			_tuccompi.rank, _tuccompi.nranks, ms->group_lo, ms->group_hi - 1, (unsigned long long)ms->root_nrequests,
			1e3 * ms->root_comm_s / (double)ms->root_nrequests);
	if (!done)
		return _tuccompi_link_broken(); /* receives are still posted with ms as their argument: kept */
	pthread_mutex_destroy(&ms->lock);
	pthread_cond_destroy(&ms->cond);
	free(ms->rate);
	free(ms->job_us);
	free(ms->task_ns);
	free(ms->want);
	free(ms->stopped);
	free(ms->serves);
	free(ms->pool);
	free(ms->pend);
	free(ms->rtts);
	free(ms);
	return 0;
}

double _tuccompi_ms_rtt(const struct _tuccompi_ms *ms)
{
	return ms->comm_s > 0 && ms->nrequests ? ms->comm_s / (double)ms->nrequests : 0;
}

int _tuccompi_ms_answers_itself(const struct _tuccompi_ms *ms)
{
	return ms->upstream < 0 || ms->sub;
}
