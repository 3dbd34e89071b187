/* Statistics of a finished task set (the run summary is summary.c). */
#include "taskset.h"

int tuccompi_taskset_get_stats(tuccompi_taskset_t ts, struct tuccompi_taskset_stats *st)
{
	if (!ts || !st)
		return _tuccompi_error(-EINVAL, "tuccompi_taskset_get_stats: NULL argument");
	if (!ts->waited)
		return _tuccompi_error(-EBUSY, "tuccompi_taskset_get_stats: call tuccompi_wait() first");
	st->ntasks = ts->desc.ntasks;
	st->wall_s = ts->t_end - ts->t_start;
	st->local_s = ts->done ? ts->t_local_done - ts->t_start : 0;
	st->comm_s = ts->comm_s;
	st->nrequests = ts->nrequests;
	st->retried = ts->retried;
	st->resumed = ts->nresumed;
	st->nunits = ts->nall_units;
	st->units = ts->all_units;
	st->tasks_per_rank = ts->tasks_per_rank;
	st->wall_s_per_rank = ts->wall_per_rank;
	st->comm_s_per_rank = ts->comm_per_rank;
	st->transfer_bytes_per_rank = ts->xfer_bytes_per_rank;
	st->transfer_s_per_rank = ts->xfer_s_per_rank;
	st->wait_s_per_rank = ts->wait_per_rank;
	st->requests_per_rank = ts->requests_per_rank;
	st->request_s_per_rank = ts->request_s_per_rank;
	return 0;
}

uint64_t tuccompi_taskset_resumed(tuccompi_taskset_t ts)
{
	return ts ? ts->nresumed : 0;
}

int tuccompi_taskset_task_rank(tuccompi_taskset_t ts, uint64_t id)
{
	if (!ts || !ts->task_rank || id >= ts->desc.ntasks)
		return -1;
	return ts->task_rank[id];
}
