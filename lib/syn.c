/* SYN: wait until every task of the set has run on every rank, gather the results on the
 * root and the statistics everywhere, and agree on errors. */
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
 * MS master adds its last grants, ms.c): where the time at the end of a set goes (docs/apsp.md). */
struct syn_clock
{
	int on, n;
	double t[12];
	const char *what[12];
	struct rusage ru0;
	long long thr0[2];
	double last_ms; /* this rank's last job end, from the set's start */
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

static void syn_print(const struct syn_clock *c)
{
	if (!c->on)
		return;
	char line[512];
	int len = snprintf(line, sizeof(line), "[tuccompi %d/%d] last job ended at %.1f ms; SYN ms:", _tuccompi.rank,
			   _tuccompi.nranks, c->last_ms);
	for (int i = 1; i < c->n && len < (int)sizeof(line); i++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, " %s %.3f", c->what[i], 1e3 * (c->t[i] - c->t[i - 1]));
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


static int gather_results(struct tuccompi_taskset *ts, struct syn_clock *clk)
{
	size_t rs = ts->plugin.result_size;
	int n = _tuccompi.nranks, root = ts->desc.root, ret;
	uint64_t *counts = calloc((size_t)n, sizeof(uint64_t));
	ts->tasks_per_rank = calloc((size_t)n, sizeof(uint64_t));
	if ((ret = _tuccompi_comm_allgather_u64(ts->done, counts)) < 0)
		goto out;
	syn_mark(clk, "counts");
	memcpy(ts->tasks_per_rank, counts, (size_t)n * sizeof(uint64_t));
	uint64_t total = 0;
	for (int r = 0; r < n; r++)
		total += counts[r];
	uint64_t *all_ids = NULL;
	uint64_t *bytes = NULL;
	if (_tuccompi.rank == root)
	{
		all_ids = malloc((total ? total : 1) * sizeof(uint64_t));
		bytes = malloc((size_t)n * sizeof(uint64_t));
		for (int r = 0; r < n; r++)
			bytes[r] = counts[r] * sizeof(uint64_t);
	}
	if ((ret = _tuccompi_comm_gatherv(ts->ran_ids, ts->done * sizeof(uint64_t), all_ids, bytes, root)) < 0)
		goto out2;
	syn_mark(clk, "ids");
	if (_tuccompi.rank == root)
	{
		ts->task_rank = malloc((ts->desc.ntasks ? ts->desc.ntasks : 1) * sizeof(int));
		/* tasks outside the to-do list came from the journal */
		for (uint64_t i = 0; i < ts->desc.ntasks; i++)
			ts->task_rank[i] = ts->todo ? -2 : -1;
		for (uint64_t p = 0; ts->todo && p < ts->ntodo; p++)
			ts->task_rank[ts->todo[p]] = -1;
		uint64_t k = 0;
		for (int r = 0; r < n; r++)
			for (uint64_t i = 0; i < counts[r]; i++, k++)
			{
				if (all_ids[k] >= ts->desc.ntasks || ts->task_rank[all_ids[k]] != -1)
				{
					ret = _tuccompi_error(-EPROTO, "task %llu reported twice or out of range (rank %d)",
							      (unsigned long long)all_ids[k], r);
					goto out2;
				}
				ts->task_rank[all_ids[k]] = r;
			}
	}
	/* Collective whenever there are results: only the root's desc.results matters (the
	 * other ranks may pass NULL), so no rank may decide from its own. */
	if (rs && _tuccompi.mpi_active && n > 1)
	{
		/* Pack this rank's results in completion order, gather, place by id. */
		unsigned char *pack = NULL, *recv = NULL;
		if (_tuccompi.rank != root)
		{
			pack = malloc(ts->done ? ts->done * rs : 1);
			for (uint64_t i = 0; i < ts->done; i++)
				memcpy(pack + i * rs, ts->local_results + ts->ran_ids[i] * rs, rs);
		}
		if (_tuccompi.rank == root)
		{
			recv = malloc(total ? total * rs : 1);
			for (int r = 0; r < n; r++)
				bytes[r] = r == root ? 0 : counts[r] * rs;
		}
		ret = _tuccompi_comm_gatherv(pack, _tuccompi.rank == root ? 0 : ts->done * rs, recv, bytes, root);
		syn_mark(clk, "results");
		if (ret == 0 && _tuccompi.rank == root && ts->desc.results)
		{
			uint64_t k = 0, off = 0;
			for (int r = 0; r < n; r++)
				for (uint64_t i = 0; i < counts[r]; i++, k++)
					if (r != root)
					{
						memcpy((unsigned char *)ts->desc.results + all_ids[k] * rs, recv + off * rs, rs);
						off++;
					}
		}
		free(pack);
		free(recv);
	}
out2:
	free(all_ids);
	free(bytes);
out:
	free(counts);
	return ret;
}

static int gather_unit_stats(struct tuccompi_taskset *ts)
{
	int n = _tuccompi.nranks, ret;
	int nu = _tuccompi.nunits;
	struct tuccompi_unit_stats *mine = calloc((size_t)(nu ? nu : 1), sizeof(*mine));
	for (int k = 0; k < nu; k++)
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
	uint64_t *nus = calloc((size_t)n, sizeof(uint64_t));
	if ((ret = _tuccompi_comm_allgather_u64((uint64_t)nu, nus)) < 0)
		goto out;
	uint64_t total = 0;
	for (int r = 0; r < n; r++)
		total += nus[r];
	ts->all_units = calloc(total ? total : 1, sizeof(*mine));
	ts->nall_units = (int)total;
	/* Everybody gets everything: gather on each rank in turn is n gathers; the
	 * counts are tiny, so do a gather on rank 0 and share it. */
	uint64_t *bytes = malloc((size_t)n * sizeof(uint64_t));
	for (int r = 0; r < n; r++)
		bytes[r] = nus[r] * sizeof(*mine);
	ret = _tuccompi_comm_gatherv(mine, (uint64_t)nu * sizeof(*mine), ts->all_units, bytes, 0);
#ifdef TUCCOMPI_HAVE_MPI
	if (ret == 0 && _tuccompi.mpi_active && n > 1)
		ret = MPI_Bcast(ts->all_units, (int)(total * sizeof(*mine)), MPI_BYTE, 0, _tuccompi.comm) == MPI_SUCCESS
			      ? 0
			      : _tuccompi_error(-EIO, "MPI_Bcast of unit statistics failed");
#endif
	free(bytes);
out:
	free(nus);
	free(mine);
	return ret;
}

/* Every rank learns every rank's wall, communication and transfer numbers. */
static int share_rank_numbers(struct tuccompi_taskset *ts)
{
	int n = _tuccompi.nranks, ret = 0;
	uint64_t *tmp = calloc((size_t)n, sizeof(uint64_t));
	ts->wall_per_rank = calloc((size_t)n, sizeof(double));
	ts->comm_per_rank = calloc((size_t)n, sizeof(double));
	ts->xfer_s_per_rank = calloc((size_t)n, sizeof(double));
	ts->wait_per_rank = calloc((size_t)n, sizeof(double));
	ts->xfer_bytes_per_rank = calloc((size_t)n, sizeof(uint64_t));
	double mine[4] = { ts->t_end - ts->t_start, ts->comm_s, ts->xfer_s, ts->wait_s };
	double *dst[4] = { ts->wall_per_rank, ts->comm_per_rank, ts->xfer_s_per_rank, ts->wait_per_rank };
	for (int k = 0; k < 4 && ret == 0; k++)
	{
		uint64_t bits;
		memcpy(&bits, &mine[k], sizeof(bits));
		ret = _tuccompi_comm_allgather_u64(bits, tmp);
		for (int r = 0; r < n && ret == 0; r++)
			memcpy(&dst[k][r], &tmp[r], sizeof(double));
	}
	if (ret == 0)
		ret = _tuccompi_comm_allgather_u64(ts->xfer_bytes, ts->xfer_bytes_per_rank);
	/* the MK each rank's set ran with (the summary divides a GPU's busy time by it) */
	ts->mk_per_rank = calloc((size_t)n, sizeof(int));
	if (ret == 0 && (ret = _tuccompi_comm_allgather_u64((uint64_t)ts->mk, tmp)) == 0)
		for (int r = 0; r < n; r++)
			ts->mk_per_rank[r] = (int)tmp[r];
	/* placements, for the root's summary */
	if (ret == 0 && _tuccompi.rank == ts->desc.root)
		ts->placement_per_rank = calloc((size_t)n, sizeof(*ts->placement_per_rank));
	if (ret == 0)
	{
		for (int r = 0; r < n; r++)
			tmp[r] = sizeof(*ts->placement_per_rank);
		ret = _tuccompi_comm_gatherv(_tuccompi.placement, sizeof(_tuccompi.placement), ts->placement_per_rank, tmp,
					     ts->desc.root);
	}
	free(tmp);
	return ret;
}

/* Every job of this rank has finished (or the set failed and nothing runs any more). */
static void wait_local(struct tuccompi_taskset *ts)
{
	pthread_mutex_lock(&ts->lock);
	while (ts->feeding || ts->jobs_inflight > 0 || (!ts->error && ts->pool.count > 0))
		pthread_cond_wait(&ts->cond, &ts->lock);
	pthread_mutex_unlock(&ts->lock);
	if (ts->feeder_started)
		pthread_join(ts->feeder, NULL);
	ts->feeder_started = 0;
	if (ts->ms)
		_tuccompi_ms_finish(ts->ms, &ts->comm_s, &ts->nrequests);
	ts->ms = NULL;
	for (unsigned k = 0; k < ts->nworkspaces; k++)
		starpu_data_unregister_submit(ts->workspaces[k]);
	ts->nworkspaces = 0;
	if (ts->journal)
		_tuccompi_journal_close(ts);
	_tuccompi_bus_counters(&ts->xfer_bytes, &ts->xfer_s);
}

/* A failure on any rank fails the whole set, with that rank's message everywhere. */
static int agree_on_errors(struct tuccompi_taskset *ts, int ret)
{
	if (ret == 0 && ts->error)
		ret = _tuccompi_error_set(ts->error, ts->errmsg);
	uint64_t *errs = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
	if (!errs)
		return _tuccompi_error(-ENOMEM, "out of memory");
	int r2 = _tuccompi_comm_allgather_u64((uint64_t)(int64_t)ret, errs);
	int first_bad = -1;
	for (int r = 0; r < _tuccompi.nranks && r2 == 0; r++)
		if (errs[r] && first_bad < 0)
			first_bad = r;
	free(errs);
	if (r2 < 0)
		return r2;
	if (first_bad < 0)
		return 0;
	if (_tuccompi.nranks == 1)
		return ret;
	/* every rank reports the first failing rank's error, word for word */
	struct
	{
		int64_t code;
		char msg[1024];
	} e = { ret, "" };
	if (_tuccompi.rank == first_bad)
		snprintf(e.msg, sizeof(e.msg), "%s", ts->errmsg[0] ? ts->errmsg : tuccompi_last_error());
	tuccompi_bcast(&e, sizeof(e), first_bad);
	return _tuccompi_error((int)e.code, "rank %d: %s", first_bad, e.msg);
}

int tuccompi_wait(tuccompi_taskset_t ts)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!ts)
		return _tuccompi_error(-EINVAL, "tuccompi_wait: NULL task set");
	_tuccompi_clear_error();
	if (ts->waited)
		return ts->error ? _tuccompi_error_set(ts->error, ts->errmsg) : 0;
	/* 1. every job given to this rank has run */
	wait_local(ts);

	/* 2. results and counts to the root, statistics to everybody; the barrier first, so
	 * that waiting for the slowest rank is not counted as communication */
	struct syn_clock clk;
	syn_start(&clk, ts);
	double tw = _tuccompi_now();
	_tuccompi_comm_barrier();
	double t0 = _tuccompi_now();
	syn_mark(&clk, "barrier");
	/* StarPU keeps the last awake worker of each scheduling context polling for tasks (and the
	 * CUDA workers for their streams); with the cores already full, they took this thread's core
	 * for whole time slices in the middle of the gathers below (docs/apsp.md). Paused workers
	 * sleep; another set in flight waits for this one's gathers only (TUCCOMPI_SYN_PAUSE=0: not). */
	int paused = _tuccompi.mpi_active && _tuccompi.nranks > 1 && _tuccompi_env_flag("TUCCOMPI_SYN_PAUSE", 1);
	if (paused)
		starpu_pause();
	ts->wait_s = t0 - tw;
	int ret = gather_results(ts, &clk);
	if (ret == 0)
		ret = gather_unit_stats(ts);
	syn_mark(&clk, "units");
	if (_tuccompi.mpi_active && _tuccompi.nranks > 1)
		ts->comm_s += _tuccompi_now() - t0;
	ts->t_end = _tuccompi_now();
	if (ret == 0)
		ret = share_rank_numbers(ts);
	syn_mark(&clk, "numbers");
	ts->waited = 1;

	/* 3. a failure on any rank fails the whole set */
	ret = agree_on_errors(ts, ret);
	if (paused)
		starpu_resume();
	syn_mark(&clk, "errors");
	syn_print(&clk);
	if (ret == 0 && _tuccompi.rank == ts->desc.root)
	{
		uint64_t total = 0;
		for (int r = 0; r < _tuccompi.nranks; r++)
			total += ts->tasks_per_rank[r];
		if (total != ts->ntodo)
			ret = _tuccompi_error(-EPROTO, "task set '%s': %llu of %llu tasks ran", ts->plugin.name,
					      (unsigned long long)total, (unsigned long long)ts->ntodo);
	}
	if (ret < 0 && !ts->error)
	{
		ts->error = ret;
		snprintf(ts->errmsg, sizeof(ts->errmsg), "%s", tuccompi_last_error());
	}
	return ret;
}
