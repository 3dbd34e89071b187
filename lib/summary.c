/* The run summary of a task set: who did what, how busy, and what the run cost in
 * transfers and cross-rank messages. */
#include "taskset.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void _tuccompi_bus_counters(uint64_t *bytes, double *seconds)
{
	uint64_t b = 0;
	double us = 0;
	int nbus = starpu_bus_get_count();
	for (int bus = 0; bus < nbus; bus++)
	{
		struct starpu_profiling_bus_info info;
		if (starpu_bus_get_profiling_info(bus, &info) < 0 || info.transfer_count == 0)
			continue;
		unsigned src = (unsigned)starpu_bus_get_src(bus), dst = (unsigned)starpu_bus_get_dst(bus);
		b += (uint64_t)info.transferred_bytes;
		/* the model's latency per transfer, plus the bytes at its bandwidth */
		double lat = starpu_transfer_predict(src, dst, 0);
		us += starpu_transfer_predict(src, dst, (size_t)info.transferred_bytes) +
		      (info.transfer_count - 1) * lat;
	}
	if (bytes)
		*bytes = b;
	if (seconds)
		*seconds = us * 1e-6;
}

static const char *kind_name(enum tuccompi_unit_kind k)
{
	return k == TUCCOMPI_UNIT_CUDA ? "GPU" : "CPU";
}

int tuccompi_taskset_print_summary(tuccompi_taskset_t ts, FILE *f)
{
	struct tuccompi_taskset_stats st;
	int ret = tuccompi_taskset_get_stats(ts, &st);
	if (ret < 0)
		return ret;
	int n = _tuccompi.nranks;
	fprintf(f, "run summary: %llu tasks, %d rank(s)\n", (unsigned long long)st.ntasks, n);
	fprintf(f, "  %-5s %-4s %5s %10s %9s %9s %7s\n", "rank", "unit", "index", "tasks", "busy s", "idle s", "busy");
	for (int u = 0; u < st.nunits; u++)
	{
		const struct tuccompi_unit_stats *us = &st.units[u];
		double wall = st.wall_s_per_rank[us->rank];
		/* a GPU's busy time adds up its MK streams: report it per stream */
		int streams = us->kind == TUCCOMPI_UNIT_CUDA && ts->mk_per_rank ? ts->mk_per_rank[us->rank] : 1;
		double busy = us->busy_s / (streams > 0 ? streams : 1);
		fprintf(f, "  %-5d %-4s %5d %10llu %9.3f %9.3f %6.1f%%\n", us->rank, kind_name(us->kind), us->index,
			(unsigned long long)us->ntasks, busy, wall > busy ? wall - busy : 0, wall > 0 ? 100 * busy / wall : 0);
	}
	for (int r = 0; ts->placement_per_rank && r < n; r++)
		if (ts->placement_per_rank[r][0])
			fprintf(f, "  rank %d: %s\n", r, ts->placement_per_rank[r]);
	if (ts->retried)
		fprintf(f, "  rank %d: %llu task(s) run again after a unit failed them\n", _tuccompi.rank,
			(unsigned long long)ts->retried);
	if (ts->nresumed)
		fprintf(f, "  %llu task(s) taken from the resume journal\n", (unsigned long long)ts->nresumed);
	if (ts->results_registered)
		fprintf(f, "  rank %d: results registered with CUDA (%.1f MB, %s)\n", _tuccompi.rank, ts->results_registered / 1e6,
			ts->results_by_caller ? "by the caller: tuccompi_memory_pin" : "for the set: TUCCOMPI_PIN_RESULTS");
	for (int r = 0; r < n; r++)
	{
		double wall = st.wall_s_per_rank[r];
		fprintf(f, "  rank %d: %llu tasks in %.4f s; transfers %.1f MB, %.4f s (%.3f%%); cross-rank messages %.4f s "
			   "(%.3f%%); waiting for other ranks %.4f s\n",
			r, (unsigned long long)st.tasks_per_rank[r], wall, st.transfer_bytes_per_rank[r] / 1e6,
			st.transfer_s_per_rank[r], wall > 0 ? 100 * st.transfer_s_per_rank[r] / wall : 0,
			st.comm_s_per_rank[r], wall > 0 ? 100 * st.comm_s_per_rank[r] / wall : 0, st.wait_s_per_rank[r]);
		/* the 1st layer's part in it: a remote rank's requests to the MS master (the master's own
		 * are function calls), which its units overlap with the tasks in hand */
		uint64_t nreq = st.requests_per_rank ? st.requests_per_rank[r] : 0;
		double rs = st.request_s_per_rank ? st.request_s_per_rank[r] : 0;
		if (nreq && rs > 0)
			fprintf(f, "  rank %d: %llu requests to the MS master, %.3f ms per round trip, %.4f s in all (%.1f%% of "
				   "the run, overlapped with the tasks in hand)\n",
				r, (unsigned long long)nreq, 1e3 * rs / (double)nreq, rs, wall > 0 ? 100 * rs / wall : 0);
	}
	return 0;
}

int tuccompi_taskset_write_csv(tuccompi_taskset_t ts, const char *path)
{
	struct tuccompi_taskset_stats st;
	int ret = tuccompi_taskset_get_stats(ts, &st);
	if (ret < 0)
		return ret;
	struct _tuccompi_atomic_file af;
	if ((ret = _tuccompi_atomic_open(&af, path)) < 0)
		return ret;
	FILE *f = af.f;
	fprintf(f, "rank,kind,index,tasks,busy_s,idle_s,wall_s,comm_s,wait_s,transfer_bytes,transfer_s\n");
	for (int u = 0; u < st.nunits; u++)
	{
		const struct tuccompi_unit_stats *us = &st.units[u];
		int r = us->rank;
		int streams = us->kind == TUCCOMPI_UNIT_CUDA && ts->mk_per_rank ? ts->mk_per_rank[r] : 1;
		double busy = us->busy_s / (streams > 0 ? streams : 1), wall = st.wall_s_per_rank[r];
		fprintf(f, "%d,%s,%d,%llu,%.6f,%.6f,%.6f,%.6f,%.6f,%llu,%.6f\n", r,
			us->kind == TUCCOMPI_UNIT_CUDA ? "cuda" : "cpu", us->index, (unsigned long long)us->ntasks, busy,
			wall > busy ? wall - busy : 0, wall, st.comm_s_per_rank[r], st.wait_s_per_rank[r],
			(unsigned long long)st.transfer_bytes_per_rank[r], st.transfer_s_per_rank[r]);
	}
	return _tuccompi_atomic_commit(&af);
}
