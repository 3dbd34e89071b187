/* SYN: wait until every task of the set has run on every rank, gather the results on the
 * root and the statistics everywhere, and agree on errors. Each rank sends its report as soon as
 * its own jobs have ended (no barrier first): the reports of the ranks that end early travel while
 * the last one still computes, so that only the last rank's report and the root's verdict are left
 * after the set's last job. Waiting for the slowest rank is told from communication by the set's
 * own clock: each report says when, from the set's start, its rank ended; the root takes the
 * latest as every rank's end (docs/architecture.md, "The 1st layer"). */
#include "link.h"
#include "taskset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifndef RUSAGE_THREAD
#define RUSAGE_THREAD 1 /* Linux's value; the header shows it only under _GNU_SOURCE */
#endif

/* TUCCOMPI_END_LOG=1: each rank prints when its last job ended and how long each step of SYN took,
 * with its main thread's context switches and the cgroup's CPU throttling over the same window (the
 * MS master adds its last grants, ms_ranks.c): where the time at the end of a set goes. */
struct syn_clock
{
	int on, n;
	double t[12];
	const char *what[12];
	struct rusage ru0;
	long long thr0[2];
	double last_ms; /* this rank's last job end, from the set's start */
	double token_ms; /* its last job's end, empty tokens included */
	double start_ms; /* SYN's start (the end of the wait for this rank's jobs) */
	double woke_ms;  /* when the main thread's wait for the jobs returned */
	double set_at_ms; /* the set's start on this rank's clock */
	unsigned empty;  /* tokens that ran empty */
	double first_ms[2], first_len_ms[2]; /* per unit kind, the first job to end: start, length */
	double waits[2][2]; /* the gather's and the verdict's waits: first messages, larger payloads */
	int paused;         /* StarPU's workers paused during the exchange */
};

static void cgroup_throttled(long long v[2])
{
	v[0] = v[1] = -1;
	FILE *f = fopen("/sys/fs/cgroup/cpu.stat", "r");
	if (!f)
		return;
	char key[64];
	long long x;
	while (fscanf(f, "%63s %lld", key, &x) == 2)
		if (!strcmp(key, "nr_throttled"))
			v[0] = x;
		else if (!strcmp(key, "throttled_usec"))
			v[1] = x;
	fclose(f);
}

static void syn_start(struct syn_clock *c, const struct tuccompi_taskset *ts)
{
	c->on = _tuccompi_env_flag("TUCCOMPI_END_LOG", 0);
	c->n = 0;
	if (!c->on)
		return;
	c->last_ms = ts->t_local_done > 0 ? 1e3 * (ts->t_local_done - ts->t_start) : 0;
	c->token_ms = ts->t_last_job > 0 ? 1e3 * (ts->t_last_job - ts->t_start) : 0;
	c->start_ms = 1e3 * (_tuccompi_now() - ts->t_start);
	c->woke_ms = 1e3 * (ts->t_woke - ts->t_start);
	c->set_at_ms = 1e3 * ts->t_start;
	c->empty = ts->jobs_empty;
	for (int k = 0; k < 2; k++)
	{
		c->first_ms[k] = ts->first_job[k] ? 1e3 * (ts->t_first_job[k] - ts->t_start) : -1;
		c->first_len_ms[k] = ts->first_job[k] ? 1e3 * ts->first_job_s[k] : -1;
	}
	getrusage(RUSAGE_THREAD, &c->ru0);
	cgroup_throttled(c->thr0);
	c->what[0] = "start";
	c->t[c->n++] = _tuccompi_now();
}

static void syn_mark(struct syn_clock *c, const char *what)
{
	if (c->on && c->n < 12)
	{
		c->what[c->n] = what;
		c->t[c->n++] = _tuccompi_now();
	}
}

/* The end of SYN's gather (@k 0) or verdict (1), with where its waits went. */
static void syn_mark_coll(struct syn_clock *c, const char *what, int k)
{
	if (c->on)
		_tuccompi_coll_waits(&c->waits[k][0], &c->waits[k][1]);
	syn_mark(c, what);
}

static void syn_print(const struct syn_clock *c)
{
	if (!c->on)
		return;
	char line[768];
	int len = snprintf(line, sizeof(line),
			   "[tuccompi %d/%d] last job ended at %.1f ms, last empty token at %.1f ms (%u empty); main thread "
			   "woke at %.1f ms; SYN began at %.1f ms",
			   _tuccompi.rank, _tuccompi.nranks, c->last_ms, c->token_ms, c->empty, c->woke_ms, c->start_ms);
#ifdef TUCCOMPI_SIMGRID
	/* the simulated clock starts with the simulation: what the start-up took, every rank alike */
	if (len < (int)sizeof(line))
		len += snprintf(line + len, sizeof(line) - (size_t)len, "; the set began %.1f ms into the simulation",
				c->set_at_ms);
#endif
	static const char *kind[2] = { "CPU", "GPU" };
	for (int k = 0; k < 2; k++)
		if (c->first_ms[k] >= 0 && len < (int)sizeof(line))
			len += snprintf(line + len, sizeof(line) - (size_t)len,
					"; first %s job to end began at %.1f ms and took %.1f ms", kind[k], c->first_ms[k],
					c->first_len_ms[k]);
	if (len < (int)sizeof(line))
		len += snprintf(line + len, sizeof(line) - (size_t)len, "; SYN ms:");
	for (int i = 1; i < c->n && len < (int)sizeof(line); i++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, " %s %.3f", c->what[i], 1e3 * (c->t[i] - c->t[i - 1]));
	if (len < (int)sizeof(line))
		len += snprintf(line + len, sizeof(line) - (size_t)len,
				" (waiting for messages: gather %.3f + %.3f, verdict %.3f + %.3f; workers %s)", 1e3 * c->waits[0][0],
				1e3 * c->waits[0][1], 1e3 * c->waits[1][0], 1e3 * c->waits[1][1], c->paused ? "paused" : "not paused");
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	long long thr[2];
	cgroup_throttled(thr);
	if (len < (int)sizeof(line))
		snprintf(line + len, sizeof(line) - (size_t)len,
			 "; main thread switches %ld voluntary, %ld involuntary; cgroup throttled %lld times, %lld us",
			 ru.ru_nvcsw - c->ru0.ru_nvcsw, ru.ru_nivcsw - c->ru0.ru_nivcsw,
			 thr[0] >= 0 ? thr[0] - c->thr0[0] : -1, thr[1] >= 0 ? thr[1] - c->thr0[1] : -1);
	fprintf(stderr, "%s\n", line);
}


/* What each rank reports at SYN, before its ids, results and units. */
struct syn_report
{
	uint64_t done;   /* tasks run here */
	uint64_t nunits; /* unit statistics that follow */
	uint64_t xfer_bytes, nrequests;
	double wall, comm, xfer_s, request_s; /* wall: from the set's start to this rank's end */
	int64_t mk;
	char placement[256];
};

/* What the root sends every rank back: per rank, then the units of all. */
struct syn_rank
{
	uint64_t ntasks, xfer_bytes, nrequests;
	double wall, comm, xfer_s, wait, request_s;
	int64_t mk;
};

static int nomem(void)
{
	return _tuccompi_error(-ENOMEM, "out of memory at SYN");
}

/* This rank's units' statistics for the set. */
static struct tuccompi_unit_stats *unit_stats(const struct tuccompi_taskset *ts)
{
	int nu = _tuccompi.nunits;
	struct tuccompi_unit_stats *mine = calloc((size_t)(nu ? nu : 1), sizeof(*mine));
	for (int k = 0; mine && k < nu; k++)
	{
		const struct tuccompi_unit *u = &_tuccompi.units[k];
		mine[k].rank = _tuccompi.rank;
		mine[k].kind = u->kind;
		mine[k].index = u->index;
		for (int i = 0; i < u->nworkers; i++)
		{
			mine[k].ntasks += atomic_load(&ts->worker_ntasks[u->workers[i]]);
			mine[k].busy_s += 1e-9 * (double)atomic_load(&ts->worker_busy_ns[u->workers[i]]);
		}
	}
	return mine;
}

/* The root's side: place every rank's ids and results, collect the numbers, judge. Returns the
 * verdict (0 or the first error), with its message in @msg. */
static int root_collect(struct tuccompi_taskset *ts, struct _tuccompi_part *parts, size_t rs, struct syn_rank *ranks,
			struct tuccompi_unit_stats **units, uint64_t *nunits, char *msg, size_t msglen)
{
	int n = _tuccompi.nranks, root = ts->desc.root;
	/* a set that failed anywhere fails everywhere, with the first failing rank's message */
	for (int r = 0; r < n; r++)
		if (parts[r].status < 0)
		{
			if (n > 1)
				{
					char tmp[TUCCOMPI_LINK_MSG + 64];
					snprintf(tmp, sizeof(tmp), "rank %d: %s", r, parts[r].msg);
					snprintf(msg, msglen, "%s", tmp);
				}
			else
				snprintf(msg, msglen, "%s", parts[r].msg);
			return parts[r].status;
		}
	uint64_t total_units = 0;
	for (int r = 0; r < n; r++)
	{
		const struct syn_report *rep = parts[r].data;
		uint64_t want = sizeof(*rep);
		if (parts[r].len >= sizeof(*rep))
			want += rep->done * (sizeof(uint64_t) + (r == root ? 0 : rs)) + rep->nunits * sizeof(struct tuccompi_unit_stats);
		if (parts[r].len != want)
		{
			snprintf(msg, msglen, "rank %d's report at SYN has %zu bytes, %llu expected", r, parts[r].len,
				 (unsigned long long)want);
			return -EPROTO;
		}
		total_units += rep->nunits;
	}
	ts->task_rank = malloc((ts->desc.ntasks ? ts->desc.ntasks : 1) * sizeof(int));
	ts->placement_per_rank = calloc((size_t)n, sizeof(*ts->placement_per_rank));
	*units = calloc(total_units ? total_units : 1, sizeof(**units));
	if (!ts->task_rank || !ts->placement_per_rank || !*units)
	{
		snprintf(msg, msglen, "out of memory at SYN on the root");
		return -ENOMEM;
	}
	/* tasks outside the to-do list came from the journal */
	for (uint64_t i = 0; i < ts->desc.ntasks; i++)
		ts->task_rank[i] = ts->todo ? -2 : -1;
	for (uint64_t p = 0; ts->todo && p < ts->ntodo; p++)
		ts->task_rank[ts->todo[p]] = -1;
	uint64_t total = 0, u = 0;
	for (int r = 0; r < n; r++)
	{
		const struct syn_report *rep = parts[r].data;
		const unsigned char *p = (const unsigned char *)(rep + 1);
		const uint64_t *ids = (const uint64_t *)p;
		const unsigned char *res = p + rep->done * sizeof(uint64_t);
		const unsigned char *us = res + (r == root ? 0 : rep->done * rs);
		for (uint64_t i = 0; i < rep->done; i++)
		{
			uint64_t id;
			memcpy(&id, ids + i, sizeof(id));
			if (id >= ts->desc.ntasks || ts->task_rank[id] != -1)
			{
				snprintf(msg, msglen, "task %llu reported twice or out of range (rank %d)", (unsigned long long)id, r);
				return -EPROTO;
			}
			ts->task_rank[id] = r;
			if (r != root && rs && ts->desc.results)
				memcpy((unsigned char *)ts->desc.results + id * rs, res + i * rs, rs);
		}
		memcpy(*units + u, us, rep->nunits * sizeof(struct tuccompi_unit_stats));
		u += rep->nunits;
		total += rep->done;
		ranks[r] = (struct syn_rank){ .ntasks = rep->done,
					      .xfer_bytes = rep->xfer_bytes,
					      .wall = rep->wall,
					      .comm = rep->comm,
					      .xfer_s = rep->xfer_s,
					      .nrequests = rep->nrequests,
					      .request_s = rep->request_s,
					      .mk = rep->mk };
		memcpy(ts->placement_per_rank[r], rep->placement, sizeof(ts->placement_per_rank[r]));
	}
	*nunits = total_units;
	/* Every rank waited for the last one to end: the same wall for all, each one's wait the rest.
	 * The ranks' clocks start with PARALLEL's last agreement, a message apart. */
	double last = 0;
	for (int r = 0; r < n; r++)
		last = ranks[r].wall > last ? ranks[r].wall : last;
	for (int r = 0; r < n; r++)
	{
		ranks[r].wait = last - ranks[r].wall;
		ranks[r].wall = last;
	}
	if (total != ts->ntodo)
	{
		snprintf(msg, msglen, "task set '%s': %llu of %llu tasks ran", ts->plugin.name, (unsigned long long)total,
			 (unsigned long long)ts->ntodo);
		return -EPROTO;
	}
	return 0;
}

/* Keep what the root sent: per-rank numbers and every unit's statistics. */
static int keep_numbers(struct tuccompi_taskset *ts, const struct syn_rank *ranks, const struct tuccompi_unit_stats *units,
			uint64_t nunits)
{
	int n = _tuccompi.nranks;
	ts->tasks_per_rank = calloc((size_t)n, sizeof(uint64_t));
	ts->wall_per_rank = calloc((size_t)n, sizeof(double));
	ts->comm_per_rank = calloc((size_t)n, sizeof(double));
	ts->xfer_s_per_rank = calloc((size_t)n, sizeof(double));
	ts->wait_per_rank = calloc((size_t)n, sizeof(double));
	ts->xfer_bytes_per_rank = calloc((size_t)n, sizeof(uint64_t));
	ts->mk_per_rank = calloc((size_t)n, sizeof(int));
	ts->requests_per_rank = calloc((size_t)n, sizeof(uint64_t));
	ts->request_s_per_rank = calloc((size_t)n, sizeof(double));
	ts->all_units = calloc(nunits ? nunits : 1, sizeof(*units));
	if (!ts->tasks_per_rank || !ts->wall_per_rank || !ts->comm_per_rank || !ts->xfer_s_per_rank || !ts->wait_per_rank ||
	    !ts->xfer_bytes_per_rank || !ts->mk_per_rank || !ts->requests_per_rank || !ts->request_s_per_rank ||
	    !ts->all_units)
		return nomem();
	for (int r = 0; r < n; r++)
	{
		ts->tasks_per_rank[r] = ranks[r].ntasks;
		ts->wall_per_rank[r] = ranks[r].wall;
		ts->comm_per_rank[r] = ranks[r].comm;
		ts->xfer_s_per_rank[r] = ranks[r].xfer_s;
		ts->wait_per_rank[r] = ranks[r].wait;
		ts->xfer_bytes_per_rank[r] = ranks[r].xfer_bytes;
		ts->mk_per_rank[r] = (int)ranks[r].mk;
		ts->requests_per_rank[r] = ranks[r].nrequests;
		ts->request_s_per_rank[r] = ranks[r].request_s;
	}
	memcpy(ts->all_units, units, nunits * sizeof(*units));
	ts->nall_units = (int)nunits;
	return 0;
}

/* SYN's exchange: every rank's report (ids, results, units, numbers, its error if any) to the
 * root, in one message; the root's verdict and the numbers of every rank back to every rank, in
 * another. Both go whatever happened on this rank, so that its error reaches the others. */
static int exchange(struct tuccompi_taskset *ts, int status, double t_gather, struct syn_clock *clk)
{
	int n = _tuccompi.nranks, root = ts->desc.root, me = _tuccompi.rank;
	size_t rs = ts->plugin.result_size;
	struct tuccompi_unit_stats *mine = unit_stats(ts);
	uint64_t nu = (uint64_t)_tuccompi.nunits;
	size_t len = sizeof(struct syn_report) + ts->done * (sizeof(uint64_t) + (me == root ? 0 : rs)) +
		     nu * sizeof(struct tuccompi_unit_stats);
	unsigned char *rep = mine ? malloc(len) : NULL;
	if (!rep)
	{
		status = status < 0 ? status : nomem();
		len = 0;
	}
	else
	{
		struct syn_report h = { .done = ts->done,
					.nunits = nu,
					.xfer_bytes = ts->xfer_bytes,
					.nrequests = ts->nrequests,
					.wall = t_gather - ts->t_start,
					.comm = ts->comm_s,
					.xfer_s = ts->xfer_s,
					.request_s = ts->request_s,
					.mk = ts->mk };
		memcpy(h.placement, _tuccompi.placement, sizeof(h.placement));
		memcpy(rep, &h, sizeof(h));
		unsigned char *p = rep + sizeof(h);
		if (ts->done) /* ran_ids is NULL until a task ran */
			memcpy(p, ts->ran_ids, ts->done * sizeof(uint64_t));
		p += ts->done * sizeof(uint64_t);
		/* this rank's results in completion order (the root's are in place already) */
		for (uint64_t i = 0; me != root && rs && i < ts->done; i++, p += rs)
			memcpy(p, ts->local_results + ts->ran_ids[i] * rs, rs);
		memcpy(p, mine, nu * sizeof(*mine));
	}
	char msg[TUCCOMPI_LINK_MSG];
	snprintf(msg, sizeof(msg), "%s", status < 0 ? tuccompi_last_error() : "");
	struct _tuccompi_coll c = { .op = TUCCOMPI_COLL_SYN, .serial = ts->serial, .root = root, .status = status, .msg = msg };
	struct _tuccompi_part *parts = calloc((size_t)n, sizeof(*parts));
	int ret = parts ? _tuccompi_coll_gather(&c, rep, len, parts) : nomem();
	free(mine);
	syn_mark_coll(clk, "gather", 0);
	if (ret < 0) /* the layer stopped */
	{
		free(rep);
		if (parts)
			_tuccompi_parts_free(parts);
		free(parts);
		return ret;
	}
	/* the verdict and the numbers */
	struct syn_rank *ranks = calloc((size_t)n, sizeof(*ranks));
	struct tuccompi_unit_stats *units = NULL;
	uint64_t nunits = 0;
	unsigned char *back = NULL;
	size_t back_len = 0;
	struct _tuccompi_coll v = c;
	char vmsg[TUCCOMPI_LINK_MSG + 64] = "";
	if (me == root)
	{
		v.status = ranks ? root_collect(ts, parts, rs, ranks, &units, &nunits, vmsg, sizeof(vmsg)) : -ENOMEM;
		if (v.status == -ENOMEM && !vmsg[0])
			snprintf(vmsg, sizeof(vmsg), "out of memory at SYN on the root");
		v.msg = vmsg;
		back_len = v.status == 0 ? (size_t)n * sizeof(*ranks) + nunits * sizeof(*units) : 0;
		back = v.status == 0 ? malloc(back_len ? back_len : 1) : NULL;
		if (v.status == 0 && !back)
		{
			v.status = -ENOMEM;
			snprintf(vmsg, sizeof(vmsg), "out of memory at SYN on the root");
			back_len = 0;
		}
		if (back)
		{
			memcpy(back, ranks, (size_t)n * sizeof(*ranks));
			memcpy(back + (size_t)n * sizeof(*ranks), units, nunits * sizeof(*units));
		}
	}
	free(rep);
	_tuccompi_parts_free(parts);
	free(parts);
	void *got = NULL;
	size_t got_len = 0;
	ret = _tuccompi_coll_bcast(&v, back, back_len, &got, &got_len);
	syn_mark_coll(clk, "verdict", 1);
	if (ret == 0)
	{
		const unsigned char *b = me == root ? back : got;
		size_t blen = me == root ? back_len : got_len;
		if (!b || blen < (size_t)n * sizeof(*ranks) || (blen - (size_t)n * sizeof(*ranks)) % sizeof(*units))
			ret = _tuccompi_error(-EPROTO, "SYN: the root's numbers have %zu bytes", blen);
		else
			ret = keep_numbers(ts, (const struct syn_rank *)b, (const struct tuccompi_unit_stats *)(b + (size_t)n * sizeof(*ranks)),
					   (blen - (size_t)n * sizeof(*ranks)) / sizeof(*units));
	}
	free(got);
	free(back);
	free(units);
	free(ranks);
	return ret;
}

/* The workspaces' release, off SYN's path. Unregistering a workspace frees every worker's copy
 * of it at once, in the calling thread, page by page: large per-worker workspaces on many CPU
 * workers take long enough to give back to delay SYN, and a short set, by a share of its time. A
 * helper thread does it after SYN's exchange while the caller goes on; tuccompi_finalize()
 * waits for the helpers before StarPU stops (_tuccompi_release_wait). Where no thread can be
 * made, the caller does it. */
static pthread_mutex_t release_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t release_cond = PTHREAD_COND_INITIALIZER;
static int releasing; /* helper threads not finished */

struct release
{
	starpu_data_handle_t h[TUCCOMPI_MAX_WORKSPACES];
	unsigned n;
	int log; /* TUCCOMPI_END_LOG: say how long it took */
};

static void release_now(struct release *r)
{
	double t0 = _tuccompi_now();
	for (unsigned k = 0; k < r->n; k++)
		starpu_data_unregister_submit(r->h[k]);
	if (r->log)
		fprintf(stderr, "[tuccompi %d/%d] workspaces released in %.1f ms (helper thread)\n", _tuccompi.rank,
			_tuccompi.nranks, 1e3 * (_tuccompi_now() - t0));
}

static void *release_thread(void *arg)
{
	release_now(arg);
	free(arg);
	pthread_mutex_lock(&release_lock);
	releasing--;
	pthread_cond_broadcast(&release_cond);
	pthread_mutex_unlock(&release_lock);
	return NULL;
}

static void release_workspaces(struct tuccompi_taskset *ts)
{
	if (!ts->nworkspaces)
		return;
	struct release *r = malloc(sizeof(*r)), here;
	if (!r)
		r = &here;
	memcpy(r->h, ts->workspaces, ts->nworkspaces * sizeof(r->h[0]));
	r->n = ts->nworkspaces;
	r->log = _tuccompi_env_flag("TUCCOMPI_END_LOG", 0);
	ts->nworkspaces = 0;
	pthread_attr_t at;
	pthread_t th;
	int made = 0;
	if (r != &here && pthread_attr_init(&at) == 0)
	{
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		pthread_mutex_lock(&release_lock);
		made = pthread_create(&th, &at, release_thread, r) == 0;
		releasing += made;
		pthread_mutex_unlock(&release_lock);
		pthread_attr_destroy(&at);
	}
	if (!made)
	{
		release_now(r);
		if (r != &here)
			free(r);
	}
}

void _tuccompi_release_wait(void)
{
	pthread_mutex_lock(&release_lock);
	while (releasing > 0)
		pthread_cond_wait(&release_cond, &release_lock);
	pthread_mutex_unlock(&release_lock);
}

/* The age of a set, at this rank's SYN, from which SYN pauses StarPU's workers (tuccompi_wait). */
#define SYN_PAUSE_MIN_S 0.02

/* Every job of this rank has finished (or the set failed and nothing runs any more). */
static void wait_local(struct tuccompi_taskset *ts)
{
	pthread_mutex_lock(&ts->lock);
	while (ts->feeding || ts->jobs_inflight > 0 || (!ts->fail.err && ts->pool.count > 0))
		pthread_cond_wait(&ts->cond, &ts->lock);
	pthread_mutex_unlock(&ts->lock);
	ts->t_woke = _tuccompi_now();
	if (ts->feeder_started)
		pthread_join(ts->feeder, NULL);
	ts->feeder_started = 0;
	if (ts->ms)
		_tuccompi_ms_finish(ts->ms, &ts->request_s, &ts->nrequests);
	ts->comm_s = ts->request_s;
	ts->ms = NULL;
	if (ts->journal)
		_tuccompi_journal_close(ts);
	_tuccompi_results_unpin(ts); /* no unit writes a result any more */
	_tuccompi_bus_counters(&ts->xfer_bytes, &ts->xfer_s);
}

int tuccompi_wait(tuccompi_taskset_t ts)
{
	TUCCOMPI_REQUIRE_INIT();
	_tuccompi_clear_error();
	if (!ts)
	{
		/* The other ranks wait for this one in SYN, for a set it cannot name: the only way to
		 * tell them is to stop the layer. */
		int err = _tuccompi_error(-EINVAL, "tuccompi_wait: NULL task set");
		if (_tuccompi_link_on() && !_tuccompi_link_broken())
		{
			_tuccompi_link_stop_all(-EINVAL, 1, "rank %d called tuccompi_wait() with a NULL task set", _tuccompi.rank);
			return _tuccompi_link_broken();
		}
		return err;
	}
	if (ts->waited)
		return _tuccompi_fail_raise(&ts->fail);
	/* 1. every job given to this rank has run */
	wait_local(ts);

	/* 2. this rank's report to the root at once, the verdict and every rank's numbers back
	 * (exchange) */
	struct syn_clock clk;
	syn_start(&clk, ts);
	double t0 = _tuccompi_now();
	/* StarPU keeps the last awake worker of each scheduling context polling for tasks (and the
	 * CUDA workers for their streams); with the cores already full, they take this thread's core
	 * for whole time slices in the middle of the exchange below. Paused workers sleep. Not while another set is in flight on this rank: its jobs would wait for the
	 * slowest rank of this one. Nor after a short set: starpu_resume() wakes every worker at
	 * once, and on a node whose cores all have a bound thread they take the cores this thread
	 * and the next set need, for longer than a short set's SYN takes unpaused. A set shorter than
	 * SYN_PAUSE_MIN_S has little to lose to the stalls the pause prevents, a set longer pays
	 * the resume after it has ended. */
	int paused = _tuccompi_link_on() && _tuccompi_sets_unwaited() == 1 && t0 - ts->t_start >= SYN_PAUSE_MIN_S;
	clk.paused = paused;
	if (paused)
		starpu_pause();
	int status = _tuccompi_fail_raise(&ts->fail);
	int ret = exchange(ts, status, t0, &clk);
	if (ret == 0 && ts->red)
		ret = _tuccompi_reduce_finish(ts);
	if (ts->wait_per_rank)
		ts->wait_s = ts->wait_per_rank[_tuccompi.rank];
	double syn_s = _tuccompi_now() - t0;
	if (_tuccompi_link_on() && syn_s > ts->wait_s)
		ts->comm_s += syn_s - ts->wait_s;
	ts->t_end = _tuccompi_now();
	if (ts->wall_per_rank)
		ts->wall_per_rank[_tuccompi.rank] = ts->t_end - ts->t_start;
	ts->waited = 1;
	if (paused)
		starpu_resume();
	/* after the exchange, not before: giving back a rank's workspaces (many pages on a rank of
	 * CPU workers) cannot delay SYN's messages there */
	release_workspaces(ts);
	syn_mark(&clk, "end");
	syn_print(&clk);
	if (ret < 0)
	{
		/* the verdict every rank agreed on is what a later wait says again (nothing runs now) */
		snprintf(ts->fail.msg, sizeof(ts->fail.msg), "%s", tuccompi_last_error());
		if (!ts->fail.err)
			ts->fail.err = ret;
	}
	return ret;
}
